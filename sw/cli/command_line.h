// The command line's words -> one command and its options, typed (docs/cli.md): CLI11's
// parsing plus the conversions that need no run (port models, memory sizes, fault forms).
// Nothing runs here: main.cpp dispatches the command, the `cli` fuzz target feeds it
// arbitrary words (tests/fuzz/fuzz_cli.cpp).
#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "sw/core/faults.h"
#include "sw/topology/port_model.h"
#include "sw/verify/run_case.h"
#include "sweep.h"
#include "table4.h"

namespace fixroute {

struct PortOptions {
  std::string ports = "all-port";
  std::string duplex = "full";
  bool combining = false;
  void add_to(CLI::App* cmd);
  PortModel model() const { return PortModel::parse(ports, duplex, combining); }
};

// What `tables`, `cosim` and `draw` build: an algorithm's tables for a problem.
struct BuildOptions {
  std::string topology, collective, algorithm, permutation;
  int root = 0;
  double budget_seconds = 0;  // --budget
  uint64_t seed = 0;          // --seed
  PortOptions ports;
  PortModel port_model;  // from `ports`, once parsed
  CLI::Option* root_option = nullptr;  // whether --root was given
};

class CommandLine {
 public:
  CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // Throws CLI::ParseError (CLI11's: --help is one, with exit code 0) for words CLI11
  // refuses, InputError for an unknown command or a value that does not convert.
  void parse(int argc, const char* const* argv);
  // --help and CLI11's errors printed as CLI11 prints them; returns the exit code.
  int exit(const CLI::ParseError& error) { return app_.exit(error); }

  std::string command;  // the subcommand parsed: run, tables, bound, sweep, table4, cosim, draw, list
  int64_t max_output = int64_t{1} << 30;  // --max-output of run, draw and sweep; 0: no limit

  RunRequest run;  // run
  bool run_json = false;
  bool run_quiet = false;  // no progress line

  BuildOptions tables;  // tables TOPOLOGY COLLECTIVE -o DIR, or --check / --reseal DIR
  std::string tables_dir, tables_check_dir, tables_reseal_dir;
  bool tables_packed = false;
  int64_t tables_max_memory = 0;  // --max-memory of tables; 0: the memory available

  std::string bound_topology, bound_collective;  // bound
  PortModel bound_port_model;
  int bound_packets = 1;
  bool bound_json = false;

  SweepOptions sweep;    // sweep
  std::vector<std::string> sweep_merge;  // sweep --merge SHARD.csv...
  Table4Options table4;  // table4

  BuildOptions cosim;  // cosim
  std::vector<Fault> cosim_faults;
  bool cosim_json = false;
  int64_t cosim_max_memory = 0;  // --max-memory; 0: the memory available

  BuildOptions draw;  // draw
  std::string draw_path;

 private:
  // run --config FILE: the JSON object the file holds (empty without --config).
  nlohmann::json read_run_config(const std::vector<std::string>& words) const;
  // Appends the config's options as words, less those `words` gives itself; refuses unknown keys.
  void add_config_words(const nlohmann::json& config, std::vector<std::string>& words) const;

  CLI::App app_;
  CLI::App* run_cmd_ = nullptr;
  std::string max_output_;
  std::string run_config_;
  PortOptions run_ports_, bound_ports_;
  CLI::Option* run_root_ = nullptr;
  std::string run_max_memory_;
  std::string run_max_time_;
  std::string cosim_max_memory_;
  std::vector<std::string> cosim_fault_forms_;
  bool sweep_quiet_ = false, sweep_no_report_ = false;
  std::string tables_max_memory_;
  std::string sweep_shard_;
};

}  // namespace fixroute
