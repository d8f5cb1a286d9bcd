// `fixroute sweep`: the regression report behind `make run`. Runs every sweep case
// that the registered algorithms declare, prints the table and writes the CSV.
#pragma once
#include <string>

namespace fixroute {

struct SweepOptions {
  int max_size = 64;
  std::string engine = "ref";
  std::string csv_path = "results.csv";
  std::string algorithm;  // empty: all
  bool progress = true;
};

// Returns the process exit code: 0 when every row is ok, 1 otherwise.
int run_sweep(const SweepOptions& options);

}  // namespace fixroute
