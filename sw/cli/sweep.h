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
  std::string report_dir = "report";  // the HTML report's directory; empty: none
  std::string junit_path;             // non-empty: a JUnit XML file, one test case per row
  std::string algorithm;  // empty: all
  bool progress = true;
  // --shard K/N: only rows K-1, K-1+N, K-1+2N, ... of the sweep, each CSV row led by its
  // place in the whole (`sweep_row` "I/TOTAL") and ended by its run's `seconds`, for
  // `merge_sweep_shards` to put back.
  int shard = 0, shards = 0;
};

// Returns the process exit code: 0 when every row is ok, 1 otherwise.
int run_sweep(const SweepOptions& options);

// `sweep --merge`: the shards' CSVs (any order) into the CSV one unsharded sweep writes,
// at `csv_path`; refused (InputError) unless every row of the whole is there exactly once.
// Returns 0 when every row is ok, 1 otherwise.
// With `report_dir`, also the report (its slowest runs timed by the shards).
int merge_sweep_shards(const std::vector<std::string>& shard_paths, const std::string& csv_path,
                       const std::string& report_dir);

struct SweepRow;
// The HTML report of `rows` (sw/report/sweep_report.h) as DIR/index.html, with drawings of a
// few small cases of the swept algorithms in DIR/drawings.
void write_sweep_report(const std::string& dir, const std::vector<SweepRow>& rows);

}  // namespace fixroute
