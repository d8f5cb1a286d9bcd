// fixroute: the command-line front door (docs/cli.md).
// Exit codes: 0 ok; 1 a run failed verification; 2 bad input; 3 internal error.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <systemc>  // declares sc_main with the C linkage libsystemc calls
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tb/cosim.h"
#include "sw/report/draw_steps.h"
#include "sw/tables/table_check.h"
#include "sw/tables/xbar_tables.h"
#include "sw/core/collectives.h"
#include "sw/core/algorithm.h"
#include "sw/report/draw.h"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/verify/run_size.h"
#include "sw/engines/trace.h"
#include "sw/core/partial_output.h"
#include "sw/tables/port_rule_tables.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"
#include "sweep.h"
#include "table4.h"

using namespace fixroute;

namespace {

constexpr int kExitFailed = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 3;

struct PortOptions {
  std::string ports = "all-port";
  std::string duplex = "full";
  bool combining = false;
  void add_to(CLI::App* cmd) {
    cmd->add_option("--ports", ports, "all-port (default) or 1-port");
    cmd->add_option("--duplex", duplex, "full (default) or half");
    cmd->add_flag("--combining", combining, "gossip by combining routers: a send carries all the node has learnt");
  }
  PortModel model() const { return PortModel::parse(ports, duplex, combining); }
};

int cmd_bound(const std::string& spec, const std::string& collective_name, const PortModel& model, int packets_per_node,
              bool as_json) {
  Topology topo = Topology::parse(spec);
  const Collective& c = find_collective(collective_name);
  if (!c.lower_bounds)
    throw InputError(fmt::format("bound has no router-independent bound for {} (circuit-switched and summing routers "
                                 "differ); run reports the bounds of the routers it runs",
                                 c.name));
  Bounds b = c.lower_bounds(topo, model, packets_per_node);
  if (as_json) {
    nlohmann::json parts = nlohmann::json::object();
    for (const LowerBound& p : b.parts) parts[p.name] = p.steps;
    std::cout << nlohmann::json{{"topology", topo.spec()}, {"collective", c.name}, {"packets_per_node", packets_per_node},
                                {"port_model", model.ports_name()},
                                {"duplex", model.duplex_name()}, {"combining", model.combining}, {"lower_bound", b.best()}, {"lower_bounds", parts},
                                {"diameter", topo.diameter()}, {"bisection_width", topo.bisection_width()}}
                     .dump()
              << "\n";
    return 0;
  }
  fmt::print("{} {} ({}{}): lower bound {} steps\n", topo.spec(), c.name, model.label(),
             c.name == "gossip" ? fmt::format(", {} packet(s) per node", packets_per_node) : "", b.best());
  for (const LowerBound& p : b.parts) fmt::print("  {:<10} {:>8}  {}\n", p.name, p.steps, p.reason);
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

Built build_for(const std::string& spec, const std::string& collective, const std::string& algorithm_name,
                const PortModel& model, const std::string& permutation, int root) {
  Problem problem{Topology::parse(spec), collective, model, permutation, root};
  const Algorithm& a = find_algorithm(problem, algorithm_name);
  std::shared_ptr<const Tables> tables = a.build(problem);
  return {std::move(problem), &a, std::move(tables)};
}

int cmd_tables(const Built& b, const std::string& dir, bool packed) {
  const RouterKind& kind = find_router_kind(b.tables->kind());
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

int cmd_cosim(const Built& b, bool as_json, const std::vector<std::string>& fault_forms) {
  std::vector<Fault> faults;
  for (const std::string& text : fault_forms) faults.push_back(parse_fault(text));  // checked by the injectors
  const CosimReport r = run_cosim_of_kind(b.problem.topology, *b.tables, faults);
  // With faults the scoreboard judges what arrived (the two networks' common trace).
  std::optional<ScoreboardReport> score;
  if (!faults.empty() && r.agree) {
    const RouterKind& kind = find_router_kind(b.tables->kind());
    score = kind.score(*b.tables, b.problem.topology, b.algorithm->packets_per_node, PacketTrace(r.trace));
  }
  const bool passed = r.agree && r.stuck.empty() && (!score || score->clean());
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
      j["ok"] = passed;
    }
    if (!circuit) {
      j["port_model"] = b.problem.port_model.ports_name();
      j["duplex"] = b.problem.port_model.duplex_name();
    }
    std::cout << j.dump() << "\n";
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
  const Topology& topo = b.problem.topology;
  std::string title = fmt::format("{} {} [{}]", topo.spec(), b.problem.collective, b.algorithm->name);
  std::string svg;
  if (const auto* xbar = dynamic_cast<const XbarTables*>(b.tables.get())) {
    if (!b.problem.permutation.empty()) title += " " + b.problem.permutation;
    svg = draw_circuit_steps(topo, *xbar, fmt::format("{}: {} routing steps", title, xbar->steps()));
  } else {
    if (!b.tables->construction.empty()) title += " (" + b.tables->construction + ")";
    svg = draw_port_rules(topo, as_kind<NetworkTables>(*b.tables), title);
  }
  write_output_file(path, svg);
  fmt::print("wrote {}\n", path);
  return 0;
}

int cmd_list() {
  fmt::print("collectives:\n");
  for (const Collective& c : collectives()) fmt::print("  {:<16} {}\n", c.name, c.summary);
  fmt::print("algorithms:\n");
  for (const Algorithm& a : algorithm_registry()) fmt::print("  {:<20} {:<16} {}\n", a.name, a.collective, a.summary);
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
  CLI::App app{"fixroute: routing tables, router models and step-count verification for fixed-table routers"};
  app.require_subcommand(1);

  RunRequest run;
  run.keep_trace = false;  // checked as it runs; --trace writes the file as it goes
  PortOptions run_ports;
  bool run_json = false;
  CLI::App* run_cmd = app.add_subcommand("run", "run a collective on an engine and verify it");
  run_cmd->add_option("topology", run.topology, "line:N, ring:N, mesh:RxC, torus:AxB[xC...], hypercube:D")->required();
  run_cmd->add_option("collective", run.collective, "e.g. total-exchange")->required();
  run_cmd->add_option("--algorithm", run.algorithm, "algorithm name (default: the paper's optimal one)");
  run_cmd->add_option("--engine", run.engine, "ref, systemc or rtl (default ref)");
  run_cmd->add_option("--trace", run.trace_path, "write the event trace (CSV) to this file");
  run_cmd->add_option("--vcd", run.vcd_path, "write a waveform (hardware engines)");
  run_cmd->add_option("--tables", run.tables_dir, "run the tables in this directory (from `fixroute tables`)");
  run_cmd->add_option("--fault", run.faults,
                      "inject a fault (repeatable; port-rules routers): link:A-B@STEP, router:N@STEP, drop:A-B@STEP, "
                      "flip:N:Q:P@STEP (docs/faults.md)");
  run_cmd->add_flag("--json", run_json, "print one JSON object");
  run_cmd->add_option("--permutation", run.permutation,
                      "circuit-switched permutation: bpc:PI:A, transpose, bit-reversal, perfect-shuffle, "
                      "bit-complement, omega:FILE, file:FILE, random:SEED");
  run_cmd->add_option("--root", run.root, "circuit-switched broadcast and fan-in: the root node (default 0)");
  run_cmd->add_option("--threads", run.threads,
                      "1 (default) or 2: with 2 the scoreboard checks each step on a second thread while the "
                      "engine runs the next (store-and-forward runs)")
      ->check(CLI::Range(1, 2));
  std::string run_max_memory;
  run_cmd->add_option("--max-memory", run_max_memory,
                      "refuse, before building anything, a run estimated to need more than this (4G, 512M, ...; "
                      "default: the memory the machine has available)");
  run_ports.add_to(run_cmd);

  std::string tab_topology, tab_collective, tab_algorithm, tab_dir, tab_permutation;
  int tab_root = 0;
  bool tab_packed = false;
  PortOptions tab_ports;
  CLI::App* tab_cmd = app.add_subcommand("tables", "write the router tables (JSON and memory images)");
  std::string tab_check_dir, tab_reseal_dir;
  tab_cmd->add_option("topology", tab_topology, "topology spec");
  tab_cmd->add_option("collective", tab_collective, "collective");
  tab_cmd->add_option("--algorithm", tab_algorithm, "algorithm name (default: the paper's optimal one)");
  tab_cmd->add_option("-o,--output", tab_dir, "output directory");
  CLI::Option* tab_check = tab_cmd->add_option(
      "--check", tab_check_dir, "check a table directory (schema, checksums, ports, packets) and list every fault");
  CLI::Option* tab_reseal =
      tab_cmd->add_option("--reseal", tab_reseal_dir, "recompute a table directory's checksums after an edit");
  tab_check->excludes(tab_reseal);
  tab_cmd->add_option("--permutation", tab_permutation, "circuit-switched permutation (as for run)");
  tab_cmd->add_option("--root", tab_root, "circuit-switched broadcast and fan-in: the root node (default 0)");
  tab_cmd->add_flag("--packed", tab_packed,
                    "one binary file for all routers (the default above 32768 nodes, where per-router files stop)");
  tab_ports.add_to(tab_cmd);

  std::string bound_topology, bound_collective;
  PortOptions bound_ports;
  bool bound_json = false;
  int bound_packets = 1;
  CLI::App* bound_cmd = app.add_subcommand("bound", "print the lower bounds on the step count");
  bound_cmd->add_option("topology", bound_topology, "topology spec")->required();
  bound_cmd->add_option("collective", bound_collective, "collective")->required();
  bound_cmd->add_flag("--json", bound_json, "print one JSON object");
  bound_cmd->add_option("--packets", bound_packets, "packets per node (gossip), default 1")->check(CLI::Range(1, 64));
  bound_ports.add_to(bound_cmd);

  SweepOptions sweep;
  bool sweep_quiet = false;
  CLI::App* sweep_cmd = app.add_subcommand("sweep", "the regression report: every catalogue case over a range of sizes");
  sweep_cmd->add_option("--max-size", sweep.max_size, "largest size (nodes of line/ring) to sweep")
      ->check(CLI::Range(2, 1024));
  sweep_cmd->add_option("--engine", sweep.engines, "engines to run, comma-separated (default: all built)")
      ->delimiter(',');
  sweep_cmd->add_option("--csv", sweep.csv_path, "where to write the rows (default results.csv)");
  sweep_cmd->add_option("--algorithm", sweep.algorithm, "sweep only this algorithm");
  sweep_cmd->add_flag("--quiet", sweep_quiet, "no progress lines on stderr");

  Table4Options table4;
  CLI::App* table4_cmd = app.add_subcommand(
      "table4", "the biswapped-network paper's Table 4, measured: broadcast, prefix sum and data sum on BSN and OTIS");
  table4_cmd->add_option("--max-nodes", table4.max_nodes, "networks of at most this many nodes (default 512)")
      ->check(CLI::Range(8, 1 << 16));
  table4_cmd->add_option("--engine", table4.engine, "engine to run (default ref)");
  table4_cmd->add_flag("--json", table4.json, "print one JSON object");

  std::string cosim_topology, cosim_collective, cosim_algorithm, cosim_permutation;
  int cosim_root = 0;
  PortOptions cosim_ports;
  bool cosim_json = false;
  CLI::App* cosim_cmd =
      app.add_subcommand("cosim", "run SystemC and RTL side by side on one clock, comparing every link every cycle");
  cosim_cmd->add_option("topology", cosim_topology, "a verilated topology spec")->required();
  cosim_cmd->add_option("collective", cosim_collective, "collective")->required();
  cosim_cmd->add_option("--algorithm", cosim_algorithm, "algorithm name (default: the paper's optimal one)");
  cosim_cmd->add_flag("--json", cosim_json, "print one JSON object");
  cosim_cmd->add_option("--permutation", cosim_permutation, "circuit-switched permutation (as for run)");
  cosim_cmd->add_option("--root", cosim_root, "circuit-switched broadcast and fan-in: the root node (default 0)");
  cosim_ports.add_to(cosim_cmd);
  std::vector<std::string> cosim_faults;
  cosim_cmd->add_option("--fault", cosim_faults, "inject a fault into both networks (repeatable; as for run)");

  std::string draw_topology, draw_collective, draw_algorithm, draw_path, draw_permutation;
  int draw_root = 0;
  CLI::App* draw_cmd = app.add_subcommand(
      "draw", "draw as SVG a torus's port rules (each cycle in its own colour, feeds as arrows; 3D/4D as panels) "
              "or a circuit-switched mesh's circuits (one panel per routing step)");
  draw_cmd->add_option("topology", draw_topology, "a torus:AxB[xC[xD]] or mesh:RxC spec")->required();
  draw_cmd->add_option("collective", draw_collective, "collective, e.g. gossip or permutation")->required();
  draw_cmd->add_option("--algorithm", draw_algorithm, "algorithm name (default: the paper's optimal one)");
  draw_cmd->add_option("--permutation", draw_permutation, "circuit-switched permutation (as for run)");
  draw_cmd->add_option("--root", draw_root, "circuit-switched broadcast and fan-in: the root node (default 0)");
  draw_cmd->add_option("-o,--output", draw_path, "the SVG file to write")->required();

  CLI::App* list_cmd = app.add_subcommand("list", "list collectives, algorithms and engines");

  std::string names;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
    known = known || (argc > 1 && sub->get_name() == argv[1]);
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    fmt::print(stderr, "fixroute: error: unknown command '{}'; accepted: {}\n", argv[1], names);
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "fixroute: error: {} (see fixroute --help)\n", e.what());
    return kExitBadInput;
  }

  try {
    if (run_cmd->parsed()) {
      run.port_model = run_ports.model();
      if (!run_max_memory.empty()) run.max_memory = parse_memory_size(run_max_memory);
      RunResult r = run_case(run);
      if (run_json) {
        std::cout << to_json(r).dump() << "\n";
      } else {
        std::cout << summary(r);
      }
      return r.ok() ? 0 : kExitFailed;
    }
    if (tab_cmd->parsed()) {
      if (!tab_check_dir.empty() || !tab_reseal_dir.empty()) {
        if (!tab_topology.empty() || !tab_dir.empty())
          throw InputError("tables --check and --reseal take a directory alone (no topology, collective or -o)");
        return tab_check_dir.empty() ? cmd_reseal_tables(tab_reseal_dir) : cmd_check_tables(tab_check_dir);
      }
      if (tab_collective.empty() || tab_dir.empty())
        throw InputError("tables needs TOPOLOGY COLLECTIVE -o DIR (or --check DIR, --reseal DIR)");
      return cmd_tables(build_for(tab_topology, tab_collective, tab_algorithm, tab_ports.model(), tab_permutation, tab_root),
                        tab_dir, tab_packed);
    }
    if (bound_cmd->parsed()) return cmd_bound(bound_topology, bound_collective, bound_ports.model(), bound_packets, bound_json);
    if (sweep_cmd->parsed()) {
      sweep.progress = !sweep_quiet;
      return run_sweep(sweep);
    }
    if (table4_cmd->parsed()) {
      find_engine(table4.engine);  // an unknown engine: refused before any run
      return run_table4(table4);
    }
    if (cosim_cmd->parsed())
      return cmd_cosim(build_for(cosim_topology, cosim_collective, cosim_algorithm, cosim_ports.model(),
                                 cosim_permutation, cosim_root),
                       cosim_json, cosim_faults);
    if (draw_cmd->parsed())
      return cmd_draw(build_for(draw_topology, draw_collective, draw_algorithm, PortModel{}, draw_permutation, draw_root),
                      draw_path);
    if (list_cmd->parsed()) return cmd_list();
  } catch (const InputError& e) {
    fmt::print(stderr, "fixroute: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "fixroute: internal error: {}\n", e.what());
    return kExitInternal;
  }
  return kExitInternal;
}
