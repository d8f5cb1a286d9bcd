// One verified run: tables (built by an algorithm or loaded from files) -> an engine ->
// the scoreboard -> the comparison with the paper's formula and the lower bounds. The
// `fixroute run` command, the sweep and the tests all go through here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "../sw/bounds.h"
#include "../sw/circuit/xbar_engine.h"
#include "../sw/port_model.h"
#include "../sw/ref_engine.h"
#include "scoreboard.h"

namespace fixroute {

struct RunRequest {
  std::string topology;
  std::string collective;
  std::string algorithm;  // empty: the default for the pair
  std::string engine = "ref";
  PortModel port_model;
  std::string tables_dir;  // non-empty: run the tables in this directory instead of building them
  std::string trace_path;  // non-empty: write the trace CSV here
  std::string vcd_path;    // non-empty: ask the engine for a waveform
  std::string permutation; // circuit-switched `permutation`: the --permutation value
  int root = 0;            // circuit-switched broadcast and fan-in: the root node
};

struct RunResult {
  std::string topology, collective, algorithm, engine;
  PortModel port_model;
  int nodes = 0;
  int64_t packets = 0;
  std::optional<int64_t> formula;  // the paper's step count, where it states one
  std::optional<int64_t> paper_formula;  // where `formula` is a construction's beyond the paper
  std::string construction;        // which construction built the tables, where it varies
  int packets_per_node = 1;
  Bounds bounds;
  int64_t table_bits_max = 0;      // bits of the largest router's memory image
  int64_t table_bits_total = 0;
  EngineResult engine_result;
  ScoreboardReport score;
  // Circuit-switched runs (docs/circuit-switching.md): the circuit trace, what the routers
  // detected, and the clock cycles of one routing step.
  bool circuit_switched = false;
  std::vector<CircuitEvent> circuit_trace;
  std::vector<std::string> faults;
  std::optional<int64_t> cycles_per_step;
  int64_t steps() const { return score.steps; }
  // Clean scoreboard, no engine failure, and steps == formula where there is one.
  bool ok() const;
};

// Throws InputError for bad input (spec, names, table files); a run that fails
// verification returns normally with ok() == false.
RunResult run_case(const RunRequest& request);
// The circuit-switched half of run_case (tb/circuit_run.cpp): mesh collectives on the
// crossbar routers, or tables written by `fixroute tables` for them.
RunResult run_circuit_case(const RunRequest& request);

nlohmann::json to_json(const RunResult& result);
std::string summary(const RunResult& result);  // the human-readable report of `fixroute run`

}  // namespace fixroute
