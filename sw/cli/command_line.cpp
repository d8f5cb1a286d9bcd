#include "command_line.h"

#include <fmt/format.h>

#include <sstream>
#include <tuple>

#include "sw/core/errors.h"
#include "sw/verify/run_size.h"

namespace fixroute {

void PortOptions::add_to(CLI::App* cmd) {
  cmd->add_option("--ports", ports, "all-port (default) or 1-port");
  cmd->add_option("--duplex", duplex, "full (default) or half");
  cmd->add_flag("--combining", combining, "gossip by combining routers: a send carries all the node has learnt");
}

namespace {

// TOPOLOGY COLLECTIVE [--algorithm] [--permutation] [--root] of the commands that build tables.
void add_build_options(CLI::App* cmd, BuildOptions& b, const char* topology_help, bool required) {
  CLI::Option* topology = cmd->add_option("topology", b.topology, topology_help);
  CLI::Option* collective = cmd->add_option("collective", b.collective, "collective, e.g. gossip or permutation");
  if (required) {
    topology->required();
    collective->required();
  }
  cmd->add_option("--algorithm", b.algorithm, "algorithm name (default: the paper's optimal one)");
  cmd->add_option("--permutation", b.permutation, "circuit-switched permutation (as for run)");
  cmd->add_option("--root", b.root, "circuit-switched broadcast and fan-in: the root node (default 0)");
}

// "K/N" with 1 <= K <= N.
std::pair<int, int> parse_shard(const std::string& text) {
  int k = 0, n = 0;
  char slash = 0;
  std::istringstream in(text);
  if (text.find_first_not_of("0123456789/") != std::string::npos || !(in >> k >> slash >> n) || slash != '/' ||
      !in.eof() || k < 1 || n < 1 || k > n)
    throw InputError(fmt::format("--shard '{}': expected K/N with 1 <= K <= N, e.g. 2/8", text));
  return {k, n};
}

}  // namespace

CommandLine::CommandLine()
    : app_{"fixroute: routing tables, router models and step-count verification for fixed-table routers"} {
  app_.require_subcommand(1);

  run.keep_trace = false;  // checked as it runs; --trace writes the file as it goes
  CLI::App* run_cmd = app_.add_subcommand("run", "run a collective on an engine and verify it");
  run_cmd->add_option("topology", run.topology, "line:N, ring:N, mesh:RxC, torus:AxB[xC...], hypercube:D")->required();
  run_cmd->add_option("collective", run.collective, "e.g. total-exchange")->required();
  run_cmd->add_option("--algorithm", run.algorithm, "algorithm name (default: the paper's optimal one)");
  run_cmd->add_option("--engine", run.engine, "ref, systemc or rtl (default ref)");
  run_cmd->add_option("--trace", run.trace_path, "write the event trace (CSV) to this file");
  run_cmd->add_option("--vcd", run.vcd_path, "write a waveform (hardware engines)");
  run_cmd->add_option("--tables", run.tables_dir, "run the tables in this directory (from `fixroute tables`)");
  run_cmd->add_option("--fault", run.faults,
                      "inject a fault (repeatable): link:A-B@STEP, router:N@STEP, drop:A-B@STEP, "
                      "flip:N:Q:P@STEP (docs/faults.md)");
  run_cmd->add_flag("--json", run_json, "print one JSON object");
  run_cmd->add_flag("--quiet", run_quiet, "no progress line on stderr (shown once a run passes a second)");
  run_cmd->add_option("--permutation", run.permutation,
                      "circuit-switched permutation: bpc:PI:A, transpose, bit-reversal, perfect-shuffle, "
                      "bit-complement, omega:FILE, file:FILE, random:SEED");
  run_cmd->add_option("--root", run.root, "circuit-switched broadcast and fan-in: the root node (default 0)");
  run_cmd->add_option("--threads", run.threads,
                      "1 (default) to 64: from 2 the scoreboard checks each step on its own thread while the "
                      "engine runs the next (store-and-forward runs); from 3 the other threads share each step's "
                      "routers (the ref engine's port-rule routers) or each clock edge (the rtl engine's router arrays)")
      ->check(CLI::Range(1, 64));
  run_cmd->add_option("--max-memory", run_max_memory_,
                      "refuse, before building anything, a run estimated to need more than this (4G, 512M, ...; "
                      "default: the memory the machine has available)");
  run_cmd->add_option("--max-time", run_max_time_,
                      "refuse, before building anything, a run estimated to take at least longer than this "
                      "(90, 90s, 15m, 1.5h; default: no limit)");
  run_ports_.add_to(run_cmd);

  CLI::App* tab_cmd = app_.add_subcommand("tables", "write the router tables (JSON and memory images)");
  add_build_options(tab_cmd, tables, "topology spec", false);
  tab_cmd->add_option("-o,--output", tables_dir, "output directory");
  tab_cmd->add_option("--max-memory", tables_max_memory_,
                      "refuse, before writing anything, tables whose writing needs more than this (as for run)");
  CLI::Option* check = tab_cmd->add_option(
      "--check", tables_check_dir, "check a table directory (schema, checksums, ports, packets) and list every fault");
  CLI::Option* reseal =
      tab_cmd->add_option("--reseal", tables_reseal_dir, "recompute a table directory's checksums after an edit");
  check->excludes(reseal);
  tab_cmd->add_flag("--packed", tables_packed,
                    "one binary file for all routers (the default above 32768 nodes, where per-router files stop)");
  tables.ports.add_to(tab_cmd);

  CLI::App* bound_cmd = app_.add_subcommand("bound", "print the lower bounds on the step count");
  bound_cmd->add_option("topology", bound_topology, "topology spec")->required();
  bound_cmd->add_option("collective", bound_collective, "collective")->required();
  bound_cmd->add_flag("--json", bound_json, "print one JSON object");
  bound_cmd->add_option("--packets", bound_packets, "packets per node (gossip), default 1")->check(CLI::Range(1, 64));
  bound_ports_.add_to(bound_cmd);

  CLI::App* sweep_cmd = app_.add_subcommand("sweep", "the regression report: every catalogue case over a range of sizes");
  sweep_cmd->add_option("--max-size", sweep.max_size, "largest size (nodes of line/ring) to sweep")
      ->check(CLI::Range(2, 1024));
  sweep_cmd->add_option("--engine", sweep.engines, "engines to run, comma-separated (default: all built)")
      ->delimiter(',');
  sweep_cmd->add_option("--csv", sweep.csv_path, "where to write the rows (default results.csv)");
  sweep_cmd->add_option("--algorithm", sweep.algorithm, "sweep only this algorithm");
  sweep_cmd->add_flag("--quiet", sweep_quiet_, "no progress lines on stderr");
  CLI::Option* shard = sweep_cmd->add_option(
      "--shard", sweep_shard_, "run only shard K of N (K/N): every Nth row from the Kth, each led by its place");
  CLI::Option* merge = sweep_cmd->add_option("--merge", sweep_merge,
                                             "merge the shards' CSVs into the unsharded sweep's CSV (at --csv) and the report");
  merge->excludes(shard);
  CLI::Option* report = sweep_cmd->add_option(
      "--report", sweep.report_dir, "the HTML report's directory (default report; not written by a shard)");
  CLI::Option* no_report = sweep_cmd->add_flag("--no-report", sweep_no_report_, "write no HTML report");
  report->excludes(shard);
  no_report->excludes(report);

  CLI::App* table4_cmd = app_.add_subcommand(
      "table4", "the biswapped-network paper's Table 4, measured: broadcast, prefix sum and data sum on BSN and OTIS");
  table4_cmd->add_option("--max-nodes", table4.max_nodes, "networks of at most this many nodes (default 512)")
      ->check(CLI::Range(8, 1 << 16));
  table4_cmd->add_option("--engine", table4.engine, "engine to run (default ref)");
  table4_cmd->add_flag("--json", table4.json, "print one JSON object");

  CLI::App* cosim_cmd =
      app_.add_subcommand("cosim", "run SystemC and RTL side by side on one clock, comparing every link every cycle");
  add_build_options(cosim_cmd, cosim, "a verilated topology spec", true);
  cosim_cmd->add_flag("--json", cosim_json, "print one JSON object");
  cosim.ports.add_to(cosim_cmd);
  cosim_cmd->add_option("--fault", cosim_fault_forms_, "inject a fault into both networks (repeatable; as for run)");
  cosim_cmd->add_option("--max-memory", cosim_max_memory_,
                        "refuse, before building anything, a co-simulation estimated to need more than this "
                        "(as for run)");

  CLI::App* draw_cmd = app_.add_subcommand(
      "draw", "draw as SVG a torus's port rules (each cycle in its own colour, feeds as arrows; 3D/4D as panels) "
              "or a circuit-switched mesh's circuits (one panel per routing step), broadcast trees, combining rounds");
  add_build_options(draw_cmd, draw, "a torus:AxB[xC[xD]] or mesh:RxC spec", true);
  draw_cmd->add_option("-o,--output", draw_path, "the SVG file to write")->required();
  draw.ports.add_to(draw_cmd);

  app_.add_subcommand("list", "list collectives, algorithms and engines");
}

void CommandLine::parse(int argc, const char* const* argv) {
  std::string names;
  bool known = false;
  for (const CLI::App* sub : app_.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
    known = known || (argc > 1 && sub->get_name() == argv[1]);
  }
  if (argc > 1 && argv[1][0] != '-' && !known)
    throw InputError(fmt::format("unknown command '{}'; accepted: {}", argv[1], names));
  app_.parse(argc, argv);
  for (const CLI::App* sub : app_.get_subcommands())
    if (sub->parsed()) command = sub->get_name();

  if (command == "run") {
    run.port_model = run_ports_.model();
    if (!run_max_memory_.empty()) run.max_memory = parse_memory_size(run_max_memory_);
    if (!run_max_time_.empty()) run.max_seconds = parse_duration(run_max_time_);
    for (const std::string& form : run.faults) parse_fault(form);  // the network checks them when built
  } else if (command == "tables") {
    tables.port_model = tables.ports.model();
    if (!tables_max_memory_.empty()) tables_max_memory = parse_memory_size(tables_max_memory_);
  } else if (command == "bound") {
    bound_port_model = bound_ports_.model();
  } else if (command == "sweep") {
    sweep.progress = !sweep_quiet_;
    if (!sweep_shard_.empty()) std::tie(sweep.shard, sweep.shards) = parse_shard(sweep_shard_);
    // A shard's rows are part of a report, made by the merge.
    if (sweep_no_report_ || sweep.shards > 0) sweep.report_dir.clear();
  } else if (command == "draw") {
    draw.port_model = draw.ports.model();
  } else if (command == "cosim") {
    cosim.port_model = cosim.ports.model();
    for (const std::string& form : cosim_fault_forms_) cosim_faults.push_back(parse_fault(form));
    if (!cosim_max_memory_.empty()) cosim_max_memory = parse_memory_size(cosim_max_memory_);
  }
}

}  // namespace fixroute
