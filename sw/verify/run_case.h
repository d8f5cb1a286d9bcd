// One verified run, for every router kind: tables (built by an algorithm or loaded from a
// directory) -> an engine's routers of their kind -> the kind's scoreboard -> the
// comparison with the construction's count, the paper's theorem and the lower bounds.
// `fixroute run`, the sweep and the tests all go through here.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "bounds.h"
#include "sw/core/router_kind.h"
#include "sw/topology/port_model.h"

namespace fixroute {

struct Algorithm;
struct Problem;

struct RunRequest {
  std::string topology;
  std::string collective;
  std::string algorithm;  // empty: the default for the pair
  std::string engine = "ref";
  PortModel port_model;
  std::string tables_dir;   // non-empty: run the tables in this directory instead of building them
  std::string trace_path;   // non-empty: write the trace CSV here
  std::string vcd_path;     // non-empty: ask the engine for a waveform (.fst: converted to FST)
  int64_t vcd_from = 0;     // the waveform's window, in clock cycles of its own time axis
  int64_t vcd_to = -1;      // -1: to the end
  std::string permutation;  // the permutation collective: the --permutation value
  int root = 0;             // broadcast and fan-in on the circuit-switched mesh: the root node
  bool keep_trace = true;   // false: a streaming engine keeps no trace (RunResult::trace then has no rows)
  int threads = 1;          // >= 2: the scoreboard checks on its own thread as a streaming engine runs;
                            // >= 3: the other N-1 share each step's routers (ref engine, port rules)
                            // or each clock edge (rtl engine, router arrays)
  std::vector<std::string> faults;  // --fault forms (sw/core/faults.h) the engine injects
  int64_t max_memory = 0;  // bytes the run may need (--max-memory); 0: the memory the machine has available
  double max_seconds = 0;  // the least time the run may take (--max-time); 0: no limit
  double budget_seconds = 0;  // --budget: the time a search may take building the tables (0: its default)
  uint64_t seed = 0;          // --seed: a heuristic scheduler's random choices (0: its own)
  // Called after every step the engine hands to the online scoreboard (the kinds that
  // stream: port rules, combining), in order: what a progress display follows.
  std::function<void(int64_t step)> on_step;
};

struct RunResult {
  std::string topology, collective, algorithm, engine;
  std::string router_kind;  // core/router_kind.h
  std::string switching;    // "packet" or "circuit"
  PortModel port_model;
  int nodes = 0;
  int64_t packets = 0;
  std::optional<int64_t> formula;        // the count the construction must hit, where one is known
  std::optional<int64_t> paper_formula;  // the paper's theorem, where `formula` is not it
  std::optional<int64_t> paper_as_printed;  // Algorithm::paper_as_printed: the theorem as printed, where it differs
  std::string above_paper_reason;        // Algorithm::above_paper_reason, where the count is above the paper's
  std::optional<int64_t> paper_buffers;  // Algorithm::paper_buffers: the buffers the paper promises
  std::string construction;              // which construction built the tables, where it varies
  int packets_per_node = 1;
  Bounds bounds;
  int64_t table_bits_max = 0;  // bits of the largest router's memory image
  int64_t table_bits_total = 0;
  int64_t table_bits_shared = 0;  // a table every router shares (RouterKind::shared_table_bits), 0 if none
  RunStats stats;
  std::shared_ptr<const Trace> trace;  // what the engine kept (RunRequest::keep_trace)
  ScoreboardReport score;
  int64_t steps() const { return score.steps; }
  // Delivered correctly (scoreboard clean, no engine failure, no router fault) and at the
  // construction's count where there is one.
  bool ok() const;
  // Delivered (scoreboard clean, no engine failure) in steps <= the paper's theorem for this
  // case (paper_formula, else formula); nullopt where the paper states no count.
  std::optional<bool> meets_paper() const;
};

// Throws InputError for bad input (spec, names, options, table files); a run that fails
// verification returns normally with ok() == false.
RunResult run_case(const RunRequest& request);

// Refuses (InputError, with the estimate) a co-simulation of `algorithm`'s tables for
// `problem` that needs more memory than the machine has or `max_memory` allows (0: the
// memory available), before anything is built: both networks hold what a run holds.
void check_cosim_fits(const Problem& problem, const Algorithm& algorithm, int64_t max_memory);
// The same for building `algorithm`'s tables (`tables`, `draw`): their kind's table_bytes.
void check_tables_fit(const Problem& problem, const Algorithm& algorithm, int64_t max_memory);
// Refuses (InputError) a drawing of `algorithm`'s tables estimated to pass --max-output
// (output_limit()), before building: at least 100 bytes a node (its mark and label; a
// torus draws at about 300), a panel per routing step where the routers are crossbars.
void check_drawing_fits(const Problem& problem, const Algorithm& algorithm, const std::string& path);

nlohmann::json to_json(const RunResult& result);
std::string summary(const RunResult& result);  // the human-readable report of `fixroute run`

}  // namespace fixroute
