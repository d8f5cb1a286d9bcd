#include "sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

#include "child_run.h"
#include "progress.h"
#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/core/partial_output.h"
#include "sw/engines/trace.h"
#include "sw/report/draw.h"
#include "sw/report/sweep_junit.h"
#include "sw/report/sweep_report.h"
#include "sw/report/sweep_table.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"

namespace fixroute {

namespace {

std::optional<int64_t> number(const nlohmann::json& v) {
  return v.is_null() ? std::nullopt : std::optional<int64_t>(v.get<int64_t>());
}

// Why a reported run failed, in a few lines: the engine's failure, the faults, the
// scoreboard's first errors, a count off its formula.
std::vector<std::string> failure_lines(const nlohmann::json& r) {
  std::vector<std::string> lines;
  if (r.contains("engine_failure") && r["engine_failure"].is_string()) lines.push_back("engine: " + r["engine_failure"].get<std::string>());
  if (r.contains("faults") && r["faults"].is_array())
    for (const nlohmann::json& f : r["faults"]) lines.push_back("fault: " + f.get<std::string>());
  if (r.contains("errors") && r["errors"].is_array())
    for (const nlohmann::json& e : r["errors"]) {
      if (lines.size() >= 10) break;
      lines.push_back(e.get<std::string>());
    }
  if (r.contains("formula") && r["formula"].is_number() && r["steps"] != r["formula"])
    lines.push_back(fmt::format("{} steps, the formula {}", shown(r["steps"]), shown(r["formula"])));
  if (lines.empty()) lines.push_back("not verified");
  return lines;
}

// The drawings the report links to: small cases of the swept algorithms that `fixroute
// draw` draws (a torus's port rules, a mesh's crossbar steps).
struct DrawnCase {
  const char* topology;
  const char* collective;
  const char* algorithm;
  const char* permutation;
};
constexpr DrawnCase kDrawnCases[] = {
    {"torus:4x4", "gossip", "hamiltonian-2", ""},
    {"torus:8x6", "gossip", "partial-cycles", ""},
    {"torus:5x5", "gossip", "hamiltonian-2-paper", ""},
    {"mesh:4x4", "permutation", "edge-colouring", "transpose"},
    {"mesh:4x4", "fft", "z-order", ""},
    {"mesh:4x4", "broadcast", "recursive-halving", ""},
    {"torus:7x7", "gossip", "snakes", ""},
    {"hypercube:6", "gossip", "necklace", ""},
};

// Makes the report's directories before the sweep runs: one that cannot be made is
// refused then, not after every row has run.
void make_report_dirs(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(dir) / "drawings", error);
  if (error) throw InputError(fmt::format("cannot make the report directory '{}': {}", dir, error.message()));
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(fmt::format("cannot write the report to '{}': {}", dir, std::strerror(errno)));
}

}  // namespace

void write_sweep_report(const std::string& dir, const std::vector<SweepRow>& rows) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(fs::path(dir) / "drawings", error);
  if (error) throw InputError(fmt::format("cannot make the report directory '{}': {}", dir, error.message()));
  std::vector<ReportDrawing> drawings;
  for (const DrawnCase& d : kDrawnCases) {
    const bool swept = std::any_of(rows.begin(), rows.end(), [&](const SweepRow& r) { return r.algorithm == d.algorithm; });
    if (!swept) continue;
    Problem problem{Topology::parse(d.topology), d.collective, PortModel{}, d.permutation, 0};
    const Algorithm& algorithm = find_algorithm(problem, d.algorithm);
    const std::string file = fmt::format("drawings/{}-{}-{}.svg", d.topology, d.collective, d.algorithm);
    std::string name = file;
    std::replace(name.begin(), name.end(), ':', '_');
    write_output_file((fs::path(dir) / name).string(), draw_tables(problem, algorithm.name, *algorithm.build(problem)),
                      "drawing");
    drawings.push_back({fmt::format("{} {} [{}]{}", d.topology, d.collective, d.algorithm,
                                    *d.permutation ? std::string(" ") + d.permutation : ""),
                        name});
  }
  write_output_file((fs::path(dir) / "index.html").string(), sweep_report_html(rows, drawings), "report");
}

int run_sweep(const SweepOptions& opt) {
  struct Row {
    const Algorithm* algorithm;
    SweepCase c;
    const Engine* engine;
  };
  std::vector<const Engine*> engines;
  if (opt.engines.empty()) {
    for (const Engine& e : engine_registry()) engines.push_back(&e);
  } else {
    for (const std::string& name : opt.engines) engines.push_back(&find_engine(name));
  }
  std::vector<Row> rows;
  for (const Engine* e : engines)
    for (const Algorithm& a : algorithm_registry()) {
      if (!opt.algorithm.empty() && a.name != opt.algorithm) continue;
      for (const SweepCase& c : a.sweep(opt.max_size))
        if (engine_runs(*e, a.router_kind, Topology::parse(c.topology))) rows.push_back({&a, c, e});
    }
  if (rows.empty()) throw InputError(fmt::format("no sweep cases for algorithm '{}'", opt.algorithm));
  const size_t whole = rows.size();
  std::vector<size_t> place(rows.size());  // each row's index in the whole sweep
  for (size_t i = 0; i < rows.size(); ++i) place[i] = i;
  if (opt.shards > 0) {
    std::vector<Row> mine;
    place.clear();
    for (size_t i = static_cast<size_t>(opt.shard - 1); i < rows.size(); i += static_cast<size_t>(opt.shards)) {
      mine.push_back(rows[i]);
      place.push_back(i);
    }
    rows = std::move(mine);
  }

  // Written to PATH.tmp and renamed when every row is in: an interrupted sweep leaves no
  // half-written results.
  // Every output checked (the report's directories made) before anything is written or run.
  check_output_path(opt.csv_path, "sweep CSV");
  if (!opt.report_dir.empty()) make_report_dirs(opt.report_dir);
  if (!opt.junit_path.empty()) check_output_path(opt.junit_path, "JUnit file");
  TraceCsvWriter csv(opt.csv_path,
                     fmt::format("{}{}{}", opt.shards > 0 ? "sweep_row," : "", sweep_csv_header(),
                                 opt.shards > 0 ? ",seconds" : ""),
                     "sweep CSV");
  // With the rows on standard output (--csv -), the table goes to standard error.
  std::FILE* table = csv.to_standard_output() ? stderr : stdout;
  const char* layout = "{:<14} {:<15} {:<21} {:<24} {:<8} {:>7} {:>7} {:>7} {:>7} {:>8}  {:<6} {}\n";
  fmt::print(table, layout, "topology", "collective", "algorithm", "ports", "engine", "steps", "formula", "paper", "bound",
             "cycles", "ok", "paper");
  size_t failures = 0;
  std::vector<std::string> above_paper;
  std::vector<SweepRow> results;
  const auto start = std::chrono::steady_clock::now();
  Progress progress("sweep", rows.size(), opt.progress);
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    RunRequest req;
    req.topology = row.c.topology;
    req.collective = row.c.collective.empty() ? row.algorithm->collective : row.c.collective;
    req.algorithm = row.algorithm->name;
    req.engine = row.engine->name;
    req.port_model = row.c.port_model;
    req.permutation = row.c.permutation;
    req.keep_trace = false;
    const auto run_start = std::chrono::steady_clock::now();
    const nlohmann::json r = run_reported(req);
    SweepRow out;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
    out.topology = r["topology"].get<std::string>();
    out.collective = r["collective"].get<std::string>();
    out.algorithm = r["algorithm"].get<std::string>();
    out.port_model = r["port_model"].get<std::string>();
    out.duplex = r["duplex"].get<std::string>();
    out.engine = r["engine"].get<std::string>();
    out.steps = number(r["steps"]);
    out.formula = number(r["formula"]);
    out.paper_formula = number(r["paper_formula"]);
    out.lower_bound = number(r["lower_bound"]);
    out.max_queue = number(r["max_queue"]);
    out.table_bits = number(r["table_bits_per_router"]);
    out.clock_cycles = number(r["clock_cycles"]);
    out.ok = r["ok"].get<bool>();
    out.permutation = row.c.permutation;
    if (r["meets_paper"].is_boolean()) out.meets_paper = r["meets_paper"].get<bool>();
    out.combining = row.c.port_model.combining;
    out.buffers = number(r["buffers"]);
    out.paper_buffers = number(r["paper_buffers"]);
    if (!out.ok) out.failure = failure_lines(r);
    failures += out.ok ? 0 : 1;
    if (out.meets_paper == false)
      above_paper.push_back(fmt::format(
          "{} {} [{}] on {}: {} steps, the paper's theorem {}: {}", out.topology, out.collective, out.algorithm,
          out.engine, shown(r["steps"]), shown(r["paper_formula"].is_null() ? r["formula"] : r["paper_formula"]),
          r.value("above_paper_reason", nlohmann::json()).is_string() ? r["above_paper_reason"].get<std::string>()
                                                                      : std::string("no reason recorded")));
    const bool circuit = r["switching"] == "circuit";
    progress.clear();
    fmt::print(table, layout, out.topology, out.collective, out.algorithm, circuit ? "circuit" : row.c.port_model.label(),
               out.engine, shown(r["steps"]), shown(r["formula"]), shown(r["paper_formula"]), shown(r["lower_bound"]),
               shown(r["clock_cycles"]), out.ok ? "ok" : "FAILED",
               !out.meets_paper ? "-" : *out.meets_paper ? "meets" : "ABOVE");
    if (opt.shards > 0)
      csv.write(fmt::format("{}/{},{},{:.6f}\n", place[i], whole, sweep_csv_line(out), *out.seconds));
    else
      csv.write(sweep_csv_line(out) + "\n");
    results.push_back(std::move(out));
    progress.update(i + 1, failures);
  }
  progress.finish();
  csv.finish();
  if (!opt.report_dir.empty()) write_sweep_report(opt.report_dir, results);
  if (!opt.junit_path.empty()) write_output_file(opt.junit_path, sweep_junit_xml(results), "JUnit file");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(table, "\n{} runs in {:.1f} s: {} ok, {} failed; rows written to {}{}{}\n", rows.size(), seconds,
             rows.size() - failures, failures, opt.csv_path,
             opt.shards > 0 ? fmt::format(" (shard {} of {}: {} of the sweep's {} rows)", opt.shard, opt.shards,
                                          rows.size(), whole)
                            : "",
             opt.report_dir.empty() ? "" : fmt::format(", the report to {}/index.html", opt.report_dir));
  fmt::print(table, "{} row(s) above the paper's theorem{}\n", above_paper.size(), above_paper.empty() ? "" : ":");
  for (const std::string& line : above_paper) fmt::print(table, "  {}\n", line);
  return failures == 0 ? 0 : 1;
}

int merge_sweep_shards(const std::vector<std::string>& shard_paths, const std::string& csv_path,
                       const std::string& report_dir) {
  std::vector<SweepRow> rows;  // the whole sweep's rows by place
  std::vector<bool> seen;
  size_t whole = 0;
  const std::string shard_header = "sweep_row," + sweep_csv_header() + ",seconds";
  for (const std::string& path : shard_paths) {
    std::ifstream in(path);
    if (!in) throw InputError(fmt::format("--merge: cannot read '{}'", path));
    std::string line;
    if (!std::getline(in, line) || line != shard_header)
      throw InputError(fmt::format("--merge: '{}' is not a shard of a sweep (its header is not {})", path, shard_header));
    for (int number = 2; std::getline(in, line); ++number) {
      const std::string where = fmt::format("--merge: '{}' line {}", path, number);
      const size_t comma = line.find(','), last_comma = line.rfind(',');
      size_t at = 0, total = 0;
      char slash = 0;
      std::istringstream place(line.substr(0, comma));
      if (comma == std::string::npos || !(place >> at >> slash >> total) || slash != '/' || at >= total)
        throw InputError(fmt::format("{}: no sweep_row I/TOTAL", where));
      if (whole == 0) {
        whole = total;
        rows.resize(whole);
        seen.assign(whole, false);
      }
      if (total != whole)
        throw InputError(fmt::format("{} is from a sweep of {} rows, the others of {}", where, total, whole));
      if (seen[at]) throw InputError(fmt::format("--merge: row {} of the sweep appears twice ('{}' line {})", at, path, number));
      SweepRow row = parse_sweep_csv_line(line.substr(comma + 1, last_comma - comma - 1), where);
      char* end = nullptr;
      const std::string seconds = line.substr(last_comma + 1);
      row.seconds = std::strtod(seconds.c_str(), &end);
      if (seconds.empty() || *end != '\0' || *row.seconds < 0)
        throw InputError(fmt::format("{}: seconds '{}' is not a duration", where, seconds));
      seen[at] = true;
      rows[at] = std::move(row);
    }
  }
  if (whole == 0) throw InputError("--merge: the shards hold no rows");
  const size_t missing = static_cast<size_t>(std::count(seen.begin(), seen.end(), false));
  if (missing > 0)
    throw InputError(fmt::format("--merge: {} of the sweep's {} rows are in none of the shards (first: row {}); "
                                 "a shard is missing",
                                 missing, whole, std::find(seen.begin(), seen.end(), false) - seen.begin()));
  std::string out = sweep_csv_header() + "\n";
  size_t failures = 0;
  for (const SweepRow& row : rows) {
    failures += row.ok ? 0 : 1;
    out += sweep_csv_line(row) + "\n";
  }
  write_output_file(csv_path, out, "merged sweep");
  if (!report_dir.empty()) write_sweep_report(report_dir, rows);
  fmt::print("merged {} shard(s): {} rows, {} ok, {} failed; rows written to {}{}\n", shard_paths.size(), whole,
             whole - failures, failures, csv_path,
             report_dir.empty() ? "" : fmt::format(", the report to {}/index.html", report_dir));
  return failures == 0 ? 0 : 1;
}

}  // namespace fixroute
