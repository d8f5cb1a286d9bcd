#include "command_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/core/version.h"
#include "sw/verify/run_size.h"

namespace fixroute {

void PortOptions::add_to(CLI::App* cmd) {
  cmd->add_option("--ports", ports, "all-port (default) or 1-port");
  cmd->add_option("--duplex", duplex, "full (default) or half");
  cmd->add_flag("--combining", combining, "gossip by combining routers: a send carries all the node has learnt");
}

namespace {

// --exact names the collective's exact search by its alias "exact": tdm-exact for TDM
// traffic, trees-exact for gossip without combining.
constexpr const char* kExactHelp =
    "the least count, proven by a SAT solver (CaDiCaL) where it can: TDM periods (tdm-exact), gossip rounds (trees-exact)";
constexpr const char* kBudgetHelp =
    "seconds a search may take: an exact one (default 60), or more attempts of the TDM heuristics at "
    "shorter periods, or more trees of tree-search for fewer buffers (default none)";
constexpr const char* kTopologyHelp =
    "line:N, ring:N, mesh:RxC, torus:AxB[xC...], hypercube:D, complete:N, bsn:BASE, otis:BASE (docs/topologies.md)";

// TOPOLOGY COLLECTIVE [--algorithm] [--permutation] [--root] of the commands that build tables.
void add_build_options(CLI::App* cmd, BuildOptions& b, const char* topology_help, bool required) {
  CLI::Option* topology = cmd->add_option("topology", b.topology, topology_help);
  CLI::Option* collective = cmd->add_option("collective", b.collective, "collective, e.g. gossip or permutation");
  if (required) {
    topology->required();
    collective->required();
  }
  CLI::Option* algorithm = cmd->add_option("--algorithm", b.algorithm, "algorithm name (default: the paper's optimal one)");
  cmd->add_flag_callback("--exact", [&b] { b.algorithm = "exact"; }, kExactHelp)
      ->excludes(algorithm);
  cmd->add_option("--budget", b.budget_seconds, kBudgetHelp)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", b.seed, "the TDM heuristics' random choices (default 0: seeded by the period alone)");
  cmd->add_option("--permutation", b.permutation, "circuit-switched permutation (as for run)");
  b.root_option = cmd->add_option("--root", b.root, "broadcast and fan-in: the root node (default 0)");
}

void add_max_output(CLI::App* cmd, std::string& size) {
  cmd->add_option("--max-output", size,
                  "refuse any output file (trace, waveform, drawing, CSV) estimated, or found while written, to pass "
                  "this size (1G, 500M, ...; default 1G; 0: no limit)");
}

// --root given for a collective that has no root is refused, not ignored.
void refuse_unused_root(const CLI::Option* root, const std::string& collective) {
  if (root && root->count() > 0 && !collective.empty() && !find_collective(collective).takes_root)
    throw InputError(fmt::format("--root: the {} collective has no root (broadcast and fan-in have one)",
                                 collective));
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
  app_.set_version_flag("--version", std::string("fixroute ") + fixroute_version(), "print the version and exit");

  run.keep_trace = false;  // checked as it runs; --trace writes the file as it goes
  CLI::App* run_cmd = app_.add_subcommand("run", "run a collective on an engine and verify it");
  run_cmd->add_option("topology", run.topology, kTopologyHelp);  // required, from here or --config
  run_cmd->add_option("collective", run.collective, "e.g. total-exchange");
  CLI::Option* run_algorithm =
      run_cmd->add_option("--algorithm", run.algorithm, "algorithm name (default: the paper's optimal one)");
  run_cmd->add_flag_callback("--exact", [this] { run.algorithm = "exact"; }, kExactHelp)
      ->excludes(run_algorithm);
  run_cmd->add_option("--budget", run.budget_seconds, kBudgetHelp)
      ->check(CLI::PositiveNumber);
  run_cmd->add_option("--seed", run.seed, "the TDM heuristics' random choices (default 0: seeded by the period alone)");
  run_cmd->add_option("--engine", run.engine, "ref, systemc or rtl (default ref)");
  run_cmd->add_option("--trace", run.trace_path, "write the event trace (CSV) to this file (- for standard output)");
  run_cmd->add_option("--vcd", run.vcd_path, "write a waveform (the systemc and rtl engines)");
  run_cmd->add_option("--tables", run.tables_dir, "run the tables in this directory (from `fixroute tables`)");
  run_cmd->add_option("--fault", run.faults,
                      "inject a fault (repeatable): link:A-B@STEP, router:N@STEP, drop:A-B@STEP, "
                      "flip:N:Q:P@STEP (docs/faults.md)");
  run_cmd->add_flag("--json", run_json, "print one JSON object");
  run_cmd->add_flag("--quiet", run_quiet, "no progress line on stderr (shown once a run passes a second)");
  run_cmd->add_option("--permutation", run.permutation,
                      "circuit-switched permutation: bpc:PI:A, transpose, bit-reversal, perfect-shuffle, "
                      "bit-complement, omega:FILE, file:FILE, random:SEED");
  run_root_ = run_cmd->add_option("--root", run.root, "broadcast and fan-in: the root node (default 0)");
  run_cmd->add_option("--threads", run.threads,
                      "1 (default) to 64: from 2 the threads share each step's routers and its check (the ref "
                      "engine's all-port full-duplex port-rule runs without --trace); elsewhere from 2 the scoreboard "
                      "checks each step on its own thread while the engine runs the next (store-and-forward runs), "
                      "and from 3 the other threads share each step's routers (ref) or each clock edge (the rtl "
                      "engine's router arrays)")
      ->check(CLI::Range(1, 64));
  run_cmd->add_option("--max-memory", run_max_memory_,
                      "refuse, before building anything, a run estimated to need more than this (4G, 512M, ...; "
                      "default: the memory the machine has available)");
  run_cmd->add_option("--vcd-from", run.vcd_from, "dump the waveform from this clock cycle on (default 0)")
      ->check(CLI::NonNegativeNumber);
  run_cmd->add_option("--vcd-to", run.vcd_to, "dump the waveform up to this clock cycle (default: the end)")
      ->check(CLI::NonNegativeNumber);
  add_max_output(run_cmd, max_output_);
  run_cmd->add_option("--max-time", run_max_time_,
                      "refuse, before building anything, a run estimated to take at least longer than this "
                      "(90, 90s, 15m, 1.5h; default: no limit)");
  run_ports_.add_to(run_cmd);
  run_cmd_ = run_cmd;
  run_cmd->add_option("--config", run_config_,
                      "read the run's options from a JSON file: {\"topology\": ..., \"collective\": ..., and any long "
                      "option by its name without --}; options on the command line win (docs/cli.md)");

  CLI::App* tab_cmd = app_.add_subcommand("tables", "write the router tables (JSON and memory images)");
  add_build_options(tab_cmd, tables, kTopologyHelp, false);
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
  bound_cmd->add_option("topology", bound_topology, kTopologyHelp)->required();
  bound_cmd->add_option("collective", bound_collective, "collective")->required();
  bound_cmd->add_flag("--json", bound_json, "print one JSON object");
  bound_cmd->add_option("--packets", bound_packets, "packets per node (gossip), default 1")->check(CLI::Range(1, 64));
  bound_ports_.add_to(bound_cmd);

  CLI::App* sweep_cmd = app_.add_subcommand("sweep", "the regression report: every catalogue case over a range of sizes");
  sweep_cmd->add_option("--max-size", sweep.max_size, "largest size (nodes of line/ring) to sweep")
      ->check(CLI::Range(2, 1024));
  sweep_cmd->add_option("--engine", sweep.engines, "engines to run, comma-separated (default: all built)")
      ->delimiter(',');
  sweep_cmd->add_option("--csv", sweep.csv_path, "where to write the rows (default results.csv; - for standard output)");
  sweep_cmd->add_option("--junit", sweep.junit_path, "also write the rows as JUnit XML, one test case per row");
  sweep_cmd->add_option("--algorithm", sweep.algorithm, "sweep only this algorithm");
  sweep_cmd->add_flag("--quiet", sweep_quiet_, "no progress lines on stderr");
  CLI::Option* shard = sweep_cmd->add_option(
      "--shard", sweep_shard_, "run only shard K of N (K/N): every Nth row from the Kth, each led by its place");
  CLI::Option* merge = sweep_cmd->add_option("--merge", sweep_merge,
                                             "merge the shards' CSVs into the unsharded sweep's CSV (at --csv) and the report");
  merge->excludes(shard);
  add_max_output(sweep_cmd, max_output_);
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
      "draw", "draw as SVG the tables of a run: a torus's port rules (each cycle in its own colour, feeds as arrows; "
              "3D/4D as panels), a circuit-switched mesh's circuits (one panel per routing step), broadcast trees "
              "(2D tori, hypercubes), combining rounds (lines, rings, 2D meshes and tori, hypercubes)");
  add_build_options(draw_cmd, draw, "a topology spec (what each kind of table draws on: see the command's help)", true);
  draw_cmd->add_option("-o,--output", draw_path, "the SVG file to write (- for standard output)")->required();
  draw.ports.add_to(draw_cmd);
  add_max_output(draw_cmd, max_output_);

  app_.add_subcommand("list", "list collectives, algorithms and engines");
}

nlohmann::json CommandLine::read_run_config(const std::vector<std::string>& words) const {
  std::string path;
  for (size_t i = 2; i < words.size(); ++i) {
    if (words[i] == "--config" && i + 1 < words.size()) path = words[i + 1];
    if (words[i].rfind("--config=", 0) == 0) path = words[i].substr(9);
  }
  if (path.empty()) return nlohmann::json::object();
  // A file of options, read whole: a device or FIFO (/dev/zero) would never end.
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw InputError(fmt::format("--config: '{}' is not a regular file", path));
  constexpr std::uintmax_t kMaxConfigBytes = 1 << 20;
  if (!ec && std::filesystem::exists(status) && std::filesystem::file_size(path, ec) > kMaxConfigBytes)
    throw InputError(fmt::format("--config: '{}' is larger than {} bytes; a run's options fit in far less", path,
                                 kMaxConfigBytes));
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("--config: cannot read '{}': {}", path, std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json config;
  try {
    config = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("--config: '{}' is not JSON ({})", path, e.what()));
  }
  if (!config.is_object()) throw InputError(fmt::format("--config: '{}' holds no JSON object of options", path));
  return config;
}

void CommandLine::add_config_words(const nlohmann::json& config, std::vector<std::string>& words) const {
  std::string accepted = "topology, collective";
  for (const CLI::Option* o : run_cmd_->get_options())
    if (!o->get_lnames().empty() && o->get_lnames().front() != "config" && o->get_lnames().front() != "help")
      accepted += ", " + o->get_lnames().front();
  std::vector<std::string> added;
  for (const auto& [key, value] : config.items()) {
    if (key == "topology" || key == "collective") {
      if (!value.is_string()) throw InputError(fmt::format("--config: \"{}\" is not a string", key));
      continue;
    }
    const CLI::Option* option = nullptr;
    for (const CLI::Option* o : run_cmd_->get_options())
      if (!o->get_lnames().empty() && o->get_lnames().front() == key && key != "config" && key != "help") option = o;
    if (!option) throw InputError(fmt::format("--config: unknown option \"{}\"; accepted: {}", key, accepted));
    const std::string flag = "--" + key;
    const bool on_command_line = std::any_of(words.begin(), words.end(), [&](const std::string& w) {
      return w == flag || w.rfind(flag + "=", 0) == 0;
    });
    if (on_command_line) continue;
    const bool is_flag = option->get_expected_min() == 0;
    auto word = [&](const nlohmann::json& v) {
      if (v.is_string()) return v.get<std::string>();
      if (v.is_number_integer() || v.is_number_float()) return v.dump();
      throw InputError(fmt::format("--config: \"{}\" takes a string or a number, not {}", key, v.dump()));
    };
    if (is_flag) {
      if (!value.is_boolean()) throw InputError(fmt::format("--config: \"{}\" is a flag: true or false", key));
      if (value.get<bool>()) added.push_back(flag);
    } else if (value.is_array()) {
      for (const nlohmann::json& v : value) added.insert(added.end(), {flag, word(v)});
    } else {
      added.insert(added.end(), {flag, word(value)});
    }
  }
  words.insert(words.end(), added.begin(), added.end());
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
  // run --config FILE: the file's options, as words after the command line's own, less
  // those the command line gives; its topology and collective where the line has none.
  std::vector<std::string> words(argv, argv + argc);
  nlohmann::json config;
  if (argc > 1 && words[1] == "run") {
    config = read_run_config(words);
    add_config_words(config, words);
  }
  std::vector<const char*> merged;
  for (const std::string& w : words) merged.push_back(w.c_str());
  app_.parse(static_cast<int>(merged.size()), merged.data());
  for (const CLI::App* sub : app_.get_subcommands())
    if (sub->parsed()) command = sub->get_name();
  if (!max_output_.empty()) max_output = max_output_ == "0" ? 0 : parse_memory_size(max_output_);

  if (command == "run") {
    if (run.topology.empty() && config.contains("topology")) run.topology = config["topology"].get<std::string>();
    if (run.collective.empty() && config.contains("collective")) run.collective = config["collective"].get<std::string>();
    if (run.topology.empty() || run.collective.empty())
      throw InputError("run needs TOPOLOGY COLLECTIVE (on the command line or as \"topology\" and \"collective\" in --config)");
    refuse_unused_root(run_root_, run.collective);
    run.port_model = run_ports_.model();
    if (!run_max_memory_.empty()) run.max_memory = parse_memory_size(run_max_memory_);
    if (!run_max_time_.empty()) run.max_seconds = parse_duration(run_max_time_);
    for (const std::string& form : run.faults) parse_fault(form);  // the network checks them when built
  } else if (command == "tables") {
    refuse_unused_root(tables.root_option, tables.collective);
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
    refuse_unused_root(draw.root_option, draw.collective);
    draw.port_model = draw.ports.model();
  } else if (command == "cosim") {
    refuse_unused_root(cosim.root_option, cosim.collective);
    cosim.port_model = cosim.ports.model();
    for (const std::string& form : cosim_fault_forms_) cosim_faults.push_back(parse_fault(form));
    if (!cosim_max_memory_.empty()) cosim_max_memory = parse_memory_size(cosim_max_memory_);
  }
}

}  // namespace fixroute
