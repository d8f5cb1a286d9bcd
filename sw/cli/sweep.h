// `fixroute sweep`: the regression report behind `make run`. Runs every sweep case
// that the registered algorithms declare on every engine that can run it (hardware
// engines: their built sizes), prints the table and writes the CSV.
#pragma once
#include <string>
#include <vector>

namespace fixroute {

struct SweepOptions {
  int max_size = 64;
  std::vector<std::string> engines;  // empty: every engine of this build
  std::string csv_path = "results.csv";
  std::string algorithm;  // empty: all
  bool progress = true;
};

// Returns the process exit code: 0 when every row is ok, 1 otherwise.
int run_sweep(const SweepOptions& options);

}  // namespace fixroute
