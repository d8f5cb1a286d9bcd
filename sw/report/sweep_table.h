// The sweep's results table (docs/cli.md, `sweep`): one row per case and engine, the CSV
// `make run` writes, read back by `sweep --merge` and drawn by the HTML report.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fixroute {

struct SweepRow {
  std::string topology, collective, algorithm, port_model, duplex, engine;
  std::optional<int64_t> steps, formula, paper_formula, lower_bound, max_queue, table_bits, clock_cycles;
  bool ok = false;
  std::string permutation;
  std::optional<bool> meets_paper;
  bool combining = false;
  std::optional<int64_t> buffers, paper_buffers;
  // Wall-clock seconds of the run; not a CSV column (the CSV stays the same from run to
  // run), carried by shard files and the report.
  std::optional<double> seconds;
  // Why a row failed (the scoreboard's first errors, the engine's failure); not a CSV
  // column either: the JUnit file carries it.
  std::vector<std::string> failure;
};

// The CSV's header line, without a newline.
const std::string& sweep_csv_header();

// One row as a CSV line (RFC 4180 quoting; empty fields for absent values), no newline.
std::string sweep_csv_line(const SweepRow& row);

// The row of a CSV line written by sweep_csv_line; InputError naming `where` when it is not.
SweepRow parse_sweep_csv_line(const std::string& line, const std::string& where);

// The fields of one CSV line (quoted fields may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line);

// `text` as one CSV field: quoted where it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text);

}  // namespace fixroute
