#include "sweep.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "child_run.h"
#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/core/partial_output.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"

namespace fixroute {

namespace {

// A CSV field as RFC 4180 writes it: quoted where it holds a comma or a quote
// (permutations such as bpc:1,3,2,0:1010).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

constexpr const char* kSweepHeader =
    "topology,collective,algorithm,port_model,duplex,engine,steps,formula,paper_formula,lower_bound,max_queue,"
    "table_bits,clock_cycles,ok,permutation,meets_paper,combining,buffers";

// The fields of one CSV line (quoted fields may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::string text(const nlohmann::json& v) { return v.is_null() ? "" : v.dump(); }
std::string shown(const nlohmann::json& v) { return v.is_null() ? std::string("-") : v.dump(); }

}  // namespace

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
  PartialOutput csv_file(opt.csv_path);
  std::ofstream csv(csv_file.temp());
  if (!csv) throw InputError(fmt::format("cannot write '{}'", opt.csv_path));
  csv << (opt.shards > 0 ? "sweep_row," : "") << kSweepHeader << "\n";
  const char* layout = "{:<14} {:<15} {:<21} {:<24} {:<8} {:>7} {:>7} {:>7} {:>7} {:>8}  {:<6} {}\n";
  fmt::print(layout, "topology", "collective", "algorithm", "ports", "engine", "steps", "formula", "paper", "bound",
             "cycles", "ok", "paper");
  int failures = 0;
  std::vector<std::string> above_paper;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    RunRequest req;
    req.topology = row.c.topology;
    req.collective = row.algorithm->collective;
    req.algorithm = row.algorithm->name;
    req.engine = row.engine->name;
    req.port_model = row.c.port_model;
    req.permutation = row.c.permutation;
    req.keep_trace = false;
    const nlohmann::json r = run_reported(req);
    const bool ok = r["ok"].get<bool>();
    failures += ok ? 0 : 1;
    const nlohmann::json& meets = r["meets_paper"];
    if (meets.is_boolean() && !meets.get<bool>())
      above_paper.push_back(fmt::format("{} {} [{}] on {}: {} steps, the paper's theorem {}",
                                        r["topology"].get<std::string>(), r["collective"].get<std::string>(),
                                        r["algorithm"].get<std::string>(), r["engine"].get<std::string>(),
                                        shown(r["steps"]),
                                        shown(r["paper_formula"].is_null() ? r["formula"] : r["paper_formula"])));
    const bool circuit = r["switching"] == "circuit";
    fmt::print(layout, r["topology"].get<std::string>(), r["collective"].get<std::string>(),
               r["algorithm"].get<std::string>(), circuit ? "circuit" : row.c.port_model.label(),
               r["engine"].get<std::string>(), shown(r["steps"]), shown(r["formula"]), shown(r["paper_formula"]),
               shown(r["lower_bound"]), shown(r["clock_cycles"]), ok ? "ok" : "FAILED",
               meets.is_null() ? "-" : meets.get<bool>() ? "meets" : "ABOVE");
    if (opt.shards > 0) csv << fmt::format("{}/{},", place[i], whole);
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r["topology"].get<std::string>(),
                       r["collective"].get<std::string>(), r["algorithm"].get<std::string>(),
                       r["port_model"].get<std::string>(), r["duplex"].get<std::string>(),
                       r["engine"].get<std::string>(), text(r["steps"]), text(r["formula"]),
                       text(r["paper_formula"]), text(r["lower_bound"]), text(r["max_queue"]),
                       text(r["table_bits_per_router"]), text(r["clock_cycles"]), ok ? "true" : "false",
                       csv_field(row.c.permutation), text(meets), row.c.port_model.combining ? "true" : "false",
                       text(r["buffers"]));
    if (opt.progress && ((i + 1) % 25 == 0 || i + 1 == rows.size())) {
      std::fflush(stdout);
      fmt::print(stderr, "sweep: {}/{} runs, {} failed\n", i + 1, rows.size(), failures);
    }
  }
  csv.close();
  if (!csv) throw InputError(fmt::format("cannot write '{}'", opt.csv_path));
  csv_file.commit();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} runs in {:.1f} s: {} ok, {} failed; rows written to {}{}\n", rows.size(), seconds,
             rows.size() - static_cast<size_t>(failures), failures, opt.csv_path,
             opt.shards > 0 ? fmt::format(" (shard {} of {}: {} of the sweep's {} rows)", opt.shard, opt.shards,
                                          rows.size(), whole)
                            : "");
  fmt::print("{} row(s) above the paper's theorem{}\n", above_paper.size(), above_paper.empty() ? "" : ":");
  for (const std::string& line : above_paper) fmt::print("  {}\n", line);
  return failures == 0 ? 0 : 1;
}

int merge_sweep_shards(const std::vector<std::string>& shard_paths, const std::string& csv_path) {
  std::vector<std::string> lines;  // the whole sweep's rows by place
  std::vector<bool> seen;
  size_t whole = 0;
  for (const std::string& path : shard_paths) {
    std::ifstream in(path);
    if (!in) throw InputError(fmt::format("--merge: cannot read '{}'", path));
    std::string line;
    if (!std::getline(in, line) || line != std::string("sweep_row,") + kSweepHeader)
      throw InputError(fmt::format("--merge: '{}' is not a shard of a sweep (its header is not sweep_row,{})", path,
                                   kSweepHeader));
    for (int number = 2; std::getline(in, line); ++number) {
      const size_t comma = line.find(',');
      size_t at = 0, total = 0;
      char slash = 0;
      std::istringstream place(line.substr(0, comma));
      if (comma == std::string::npos || !(place >> at >> slash >> total) || slash != '/' || at >= total)
        throw InputError(fmt::format("--merge: '{}' line {}: no sweep_row I/TOTAL", path, number));
      if (whole == 0) {
        whole = total;
        lines.resize(whole);
        seen.assign(whole, false);
      }
      if (total != whole)
        throw InputError(fmt::format("--merge: '{}' line {} is from a sweep of {} rows, the others of {}", path,
                                     number, total, whole));
      if (seen[at]) throw InputError(fmt::format("--merge: row {} of the sweep appears twice ('{}' line {})", at, path, number));
      seen[at] = true;
      lines[at] = line.substr(comma + 1);
    }
  }
  if (whole == 0) throw InputError("--merge: the shards hold no rows");
  const size_t missing = static_cast<size_t>(std::count(seen.begin(), seen.end(), false));
  if (missing > 0)
    throw InputError(fmt::format("--merge: {} of the sweep's {} rows are in none of the shards (first: row {}); "
                                 "a shard is missing",
                                 missing, whole, std::find(seen.begin(), seen.end(), false) - seen.begin()));
  std::string out = std::string(kSweepHeader) + "\n";
  const std::vector<std::string> header = csv_fields(kSweepHeader);
  const size_t ok_column = static_cast<size_t>(std::find(header.begin(), header.end(), "ok") - header.begin());
  size_t failures = 0;
  for (const std::string& line : lines) {
    const std::vector<std::string> fields = csv_fields(line);
    if (fields.size() != header.size())
      throw InputError(fmt::format("--merge: a row has {} fields, not {}: {}", fields.size(), header.size(), line));
    failures += fields[ok_column] == "true" ? 0 : 1;
    out += line + "\n";
  }
  write_output_file(csv_path, out, "merged sweep");
  fmt::print("merged {} shard(s): {} rows, {} ok, {} failed; rows written to {}\n", shard_paths.size(), whole,
             whole - failures, failures, csv_path);
  return failures == 0 ? 0 : 1;
}

}  // namespace fixroute
