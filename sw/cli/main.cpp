// fixroute: the command-line front door (docs/cli.md).
// Exit codes: 0 ok; 1 a run failed verification; 2 bad input; 3 internal error.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <systemc>  // declares sc_main with the C linkage libsystemc calls
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "sw/tables/table_check.h"
#include "sw/tables/table_files.h"
#include "sw/core/collectives.h"
#include "sw/core/algorithm.h"
#include "progress.h"
#include "sw/report/draw.h"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/engines/trace.h"
#include "sw/core/partial_output.h"
#include "sw/core/version.h"
#include "sw/topology/topology.h"
#include "sw/verify/cosim.h"
#include "sw/verify/run_case.h"
#include "sw/verify/run_size.h"
#include "command_line.h"

using namespace fixroute;

namespace {

constexpr int kExitFailed = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 3;

int cmd_bound(const std::string& spec, const std::string& collective_name, const PortModel& model, int packets_per_node,
              bool as_json) {
  Topology topo = Topology::parse(spec);
  const Collective& c = find_collective(collective_name);
  // The bounds of the router kinds that know theirs from the demand alone (TDM: the period).
  std::vector<std::pair<const RouterKind*, Bounds>> kinds;
  for (const RouterKind& k : router_kind_registry())
    if (k.demand_bounds && model.is_default()) {
      try {
        kinds.emplace_back(&k, k.demand_bounds(topo, c.name));
      } catch (const InputError&) {  // not a demand that kind carries
      }
    }
  if (!c.lower_bounds && kinds.empty())
    throw InputError(fmt::format("bound has no router-independent bound for {} (circuit-switched and summing routers "
                                 "differ); run reports the bounds of the routers it runs",
                                 c.name));
  const Bounds b = c.lower_bounds ? c.lower_bounds(topo, model, packets_per_node) : Bounds{};
  if (as_json) {
    nlohmann::json parts = nlohmann::json::object(), by_kind = nlohmann::json::object();
    for (const LowerBound& p : b.parts) parts[p.name] = p.steps;
    for (const auto& [kind, kb] : kinds) {
      nlohmann::json kind_parts = nlohmann::json::object();
      for (const LowerBound& p : kb.parts) kind_parts[p.name] = p.steps;
      by_kind[kind->name] = {{"lower_bound", kb.best()}, {"lower_bounds", kind_parts}};
    }
    std::cout << stamped("fixroute-bound", nlohmann::json{{"topology", topo.spec()}, {"collective", c.name}, {"packets_per_node", packets_per_node},
                                {"port_model", model.ports_name()},
                                {"duplex", model.duplex_name()}, {"combining", model.combining},
                                {"lower_bound", c.lower_bounds ? nlohmann::json(b.best()) : nlohmann::json(nullptr)},
                                {"lower_bounds", parts}, {"router_kinds", by_kind},
                                {"diameter", topo.diameter()}, {"bisection_width", topo.bisection_width()}})
                     .dump()
              << "\n";
    return 0;
  }
  if (c.lower_bounds) {
    fmt::print("{} {} ({}{}): lower bound {} steps\n", topo.spec(), c.name, model.label(),
               c.name == "gossip" ? fmt::format(", {} packet(s) per node", packets_per_node) : "", b.best());
    for (const LowerBound& p : b.parts) fmt::print("  {:<10} {:>8}  {}\n", p.name, p.steps, p.reason);
  }
  for (const auto& [kind, kb] : kinds) {
    fmt::print("{} {} on {} routers: lower bound {}\n", topo.spec(), c.name, kind->name, kb.best());
    for (const LowerBound& p : kb.parts) fmt::print("  {:<10} {:>8}  {}\n", p.name, p.steps, p.reason);
  }
  fmt::print("  nodes {}, diameter {}, bisection width {}, min degree {}\n", topo.num_nodes(), topo.diameter(),
             topo.bisection_width(), topo.min_degree());
  return 0;
}

// The tables an algorithm builds for the problem the command line poses.
struct Built {
  Problem problem;
  const Algorithm* algorithm;
  std::shared_ptr<const Tables> tables;
};

// `before_building(problem, algorithm)`: a check that may refuse the command first.
Built build_for(const BuildOptions& o,
                const std::function<void(const Problem&, const Algorithm&)>& before_building = nullptr) {
  Problem problem{Topology::parse(o.topology), o.collective, o.port_model, o.permutation, o.root, o.budget_seconds, o.seed};
  const Algorithm& a = find_algorithm(problem, o.algorithm);
  check_search_options(problem, a);
  if (before_building) before_building(problem, a);
  std::shared_ptr<const Tables> tables = a.build(problem);
  return {std::move(problem), &a, std::move(tables)};
}

int cmd_tables(const Built& b, const std::string& dir, bool packed, int64_t max_memory) {
  const RouterKind& kind = find_router_kind(b.tables->kind());
  check_write_fits(fmt::format("writing the tables of {} {}", b.problem.topology.spec(), b.problem.collective),
                   kind.write_bytes(*b.tables, b.problem.topology), max_memory);
  const TableForm form = packed ? TableForm::Packed : default_table_form(b.problem.topology.num_nodes());
  write_any_tables(*b.tables, b.problem.topology, dir, form);
  int64_t max_bits = 0;
  for (int64_t bits : kind.table_bits(*b.tables, b.problem.topology)) max_bits = std::max(max_bits, bits);
  fmt::print("wrote {} {} tables for {} {} [{}] to {} ({} form; largest {} bits)\n", b.problem.topology.num_nodes(),
             kind.name, b.problem.topology.spec(), b.problem.collective, b.algorithm->name, dir, table_form_name(form),
             max_bits);
  return 0;
}

int cmd_check_tables(const std::string& dir) {
  const TableCheckReport r = check_table_dir(dir);
  for (const std::string& line : r.faults) fmt::print("{}\n", line);
  if (!r.faults.empty()) {
    fmt::print("{}: {} fault{}\n", dir, r.faults.size(), r.faults.size() == 1 ? "" : "s");
    return kExitFailed;
  }
  fmt::print("{}: {}: every check passed\n", dir, r.summary);
  return 0;
}

int cmd_reseal_tables(const std::string& dir) {
  const ResealReport r = reseal_table_dir(dir);
  if (r.resealed.empty()) {
    fmt::print("{}: every checksum matches; nothing to reseal\n", dir);
    return 0;
  }
  for (const std::string& what : r.resealed) fmt::print("resealed {}\n", what);
  fmt::print("{}: {} file{} resealed; the tables were written anew\n", dir, r.resealed.size(),
             r.resealed.size() == 1 ? "" : "s");
  return 0;
}

int cmd_cosim(const Built& b, bool as_json, const std::vector<Fault>& faults) {
  const CosimVerdict v = run_cosim_case(b.problem, *b.algorithm, *b.tables, faults);
  const CosimReport& r = v.report;
  const std::optional<ScoreboardReport>& score = v.score;
  const bool passed = v.passed;
  const std::string& spec = b.problem.topology.spec();
  const bool circuit = find_router_kind(b.tables->kind()).switching == "circuit";
  const std::string label = circuit ? "circuit-switched" : b.problem.port_model.label();
  if (as_json) {
    nlohmann::json j{{"topology", spec}, {"collective", b.problem.collective}, {"algorithm", b.algorithm->name},
                     {"agree", r.agree}, {"cycles", r.cycles}, {"steps", r.steps}, {"crossings", r.crossings},
                     {"divergence", r.divergence.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.divergence)},
                     {"switching", circuit ? "circuit" : "packet"}};
    if (!faults.empty()) {
      j["injected_faults"] = r.injected;
      j["stuck"] = r.stuck.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.stuck);
      j["scoreboard_clean"] = score ? nlohmann::json(score->clean()) : nlohmann::json(nullptr);
      j["errors"] = score ? score->errors : std::vector<std::string>{};
    }
    j["ok"] = passed;
    if (!circuit) {
      j["port_model"] = b.problem.port_model.ports_name();
      j["duplex"] = b.problem.port_model.duplex_name();
    }
    std::cout << stamped("fixroute-cosim", std::move(j)).dump() << "\n";
  } else if (r.agree) {
    fmt::print("cosim {} {} [{}] ({}): SystemC and RTL agree on every link in all {} cycles ({} steps, {} transfers)\n",
               spec, b.problem.collective, b.algorithm->name, label, r.cycles, r.steps, r.crossings);
  } else {
    fmt::print("cosim {} {} [{}] ({}): DIVERGED: {}\n", spec, b.problem.collective, b.algorithm->name, label,
               r.divergence);
  }
  if (!as_json && !faults.empty()) {
    for (const std::string& line : r.injected) fmt::print("  injected     {}\n", line);
    if (!r.stuck.empty()) fmt::print("  stuck        {}\n", r.stuck);
    if (score) {
      fmt::print("  scoreboard   {}\n", score->clean() ? "clean" : fmt::format("{} error(s)", score->error_count));
      for (const std::string& e : score->errors) fmt::print("    {}\n", e);
    }
    fmt::print("  result       {}\n", passed ? "ok" : "FAILED");
  }
  return passed ? 0 : kExitFailed;
}

// Port-rule tables (a torus: cycles and feeds) or crossbar tables (one panel per routing step).
int cmd_draw(const Built& b, const std::string& path) {
  write_output_file(path, draw_tables(b.problem, b.algorithm->name, *b.tables), "drawing");
  if (path != "-") fmt::print("wrote {}\n", path);
  return 0;
}

int cmd_list() {
  fmt::print("collectives:\n");
  for (const Collective& c : collectives()) fmt::print("  {:<16} {}\n", c.name, c.summary);
  fmt::print("algorithms:\n");
  for (const Algorithm& a : algorithm_registry())
    fmt::print("  {:<20} {:<16} {}{}\n", a.name, a.collective, a.summary,
               a.aliases.empty() ? "" : fmt::format(" (also --algorithm {})", fmt::join(a.aliases, ", ")));
  fmt::print("router kinds:\n");
  for (const RouterKind& k : router_kind_registry()) fmt::print("  {:<11} {}\n", k.name, k.summary);
  fmt::print("engines:\n");
  for (const Engine& e : engine_registry()) fmt::print("  {:<8} {}\n", e.name, e.summary);
  return 0;
}

}  // namespace

// libsystemc provides main() and calls sc_main(); everything else is ordinary.
int sc_main(int argc, char** argv) {
  remove_partial_outputs_on_interrupt();
  CommandLine cl;
  try {
    cl.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return cl.exit(e);  // --help
    fmt::print(stderr, "fixroute: error: {} (see fixroute --help)\n", e.what());
    return kExitBadInput;
  } catch (const InputError& e) {
    fmt::print(stderr, "fixroute: error: {}\n", e.what());
    return kExitBadInput;
  }

  set_output_limit(cl.max_output);
  try {
    const std::string& c = cl.command;
    if (c == "run") {
      // FIXROUTE_PROGRESS_AFTER: seconds before the line shows (default 1; docs/cli.md "Progress").
      const char* after = std::getenv("FIXROUTE_PROGRESS_AFTER");
      RunProgress progress(fmt::format("run {} {}", cl.run.topology, cl.run.collective), !cl.run_quiet,
                           after ? std::max(0.0, std::atof(after)) : 1.0);
      RunRequest request = cl.run;
      request.on_step = [&progress](int64_t step) { progress.step(step); };
      RunResult r = run_case(request);
      progress.clear();
      // A trace or waveform on standard output (`-`) keeps it: the report goes to stderr.
      std::ostream& report = cl.run.trace_path == "-" || cl.run.vcd_path == "-" ? std::cerr : std::cout;
      if (cl.run_json) {
        report << to_json(r).dump() << "\n";
      } else {
        report << summary(r);
      }
      return r.ok() ? 0 : kExitFailed;
    }
    if (c == "tables") {
      if (!cl.tables_check_dir.empty() || !cl.tables_reseal_dir.empty()) {
        if (!cl.tables.topology.empty() || !cl.tables_dir.empty())
          throw InputError("tables --check and --reseal take a directory alone (no topology, collective or -o)");
        return cl.tables_check_dir.empty() ? cmd_reseal_tables(cl.tables_reseal_dir)
                                           : cmd_check_tables(cl.tables_check_dir);
      }
      if (cl.tables.collective.empty() || cl.tables_dir.empty())
        throw InputError("tables needs TOPOLOGY COLLECTIVE -o DIR (or --check DIR, --reseal DIR)");
      check_table_dir_path(cl.tables_dir);
      return cmd_tables(build_for(cl.tables,
                                  [&](const Problem& p, const Algorithm& a) {
                                    check_tables_fit(p, a, cl.tables_max_memory);
                                  }),
                        cl.tables_dir, cl.tables_packed, cl.tables_max_memory);
    }
    if (c == "bound")
      return cmd_bound(cl.bound_topology, cl.bound_collective, cl.bound_port_model, cl.bound_packets, cl.bound_json);
    if (c == "sweep") return cl.sweep_merge.empty() ? run_sweep(cl.sweep) : merge_sweep_shards(cl.sweep_merge, cl.sweep.csv_path, cl.sweep.report_dir);
    if (c == "table4") {
      find_engine(cl.table4.engine);  // an unknown engine: refused before any run
      return run_table4(cl.table4);
    }
    if (c == "cosim")
      return cmd_cosim(build_for(cl.cosim,
                                 [&](const Problem& p, const Algorithm& a) { check_cosim_fits(p, a, cl.cosim_max_memory); }),
                       cl.cosim_json, cl.cosim_faults);
    if (c == "draw") {
      check_output_path(cl.draw_path, "drawing");
      return cmd_draw(build_for(cl.draw,
                                [&](const Problem& p, const Algorithm& a) {
                                  check_tables_fit(p, a, 0);
                                  check_drawing_fits(p, a, cl.draw_path);
                                }),
                      cl.draw_path);
    }
    if (c == "list") return cmd_list();
  } catch (const InputError& e) {
    fmt::print(stderr, "fixroute: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "fixroute: internal error: {}\n", e.what());
    return kExitInternal;
  }
  return kExitInternal;
}
