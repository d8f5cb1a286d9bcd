// A router kind: one family of routers that run fixed tables. A kind brings its table type
// and file form, its routers on each engine and the scoreboard rules its runs are judged
// by; the algorithm registry, the engines, run_case and the sweep handle every kind the
// same way (docs/architecture.md, "How to add a router kind"; its table lists the kinds, each
// a package sw/kinds/<kind>/).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sw/verify/bounds.h"
#include "sw/topology/port_model.h"

namespace fixroute {

class Topology;
class FaultInjector;
struct Problem;

// How many packets a collective demands, known before any is made: what a run's size is
// estimated from (sw/verify/run_size.h).
struct DemandSize {
  int64_t unicast = 0;    // packets one node needs
  int64_t broadcast = 0;  // packets every node but their origin needs
  int64_t packets() const { return unicast + broadcast; }
  int64_t receptions(int64_t nodes) const { return unicast + broadcast * (nodes - 1); }
};

// The tables of one network for one router kind: what every kind's tables record.
struct Tables {
  virtual ~Tables() = default;
  virtual const char* kind() const = 0;  // the RouterKind's name
  std::string topology;                  // canonical spec
  std::string collective;
  std::string algorithm;
  std::string construction;  // which construction built them, where an algorithm has several
  PortModel port_model;      // what the tables were built for (store-and-forward kinds)
  int root = 0;              // rooted collectives (broadcast, fan-in): the root node
};

// An engine's record of a run, in the kind's own rows (docs/trace-format.md).
struct Trace {
  virtual ~Trace() = default;
  virtual std::string csv() const = 0;  // header line first, rows sorted
  virtual int64_t rows() const = 0;
};

// What every engine reports of a run besides its trace.
struct RunStats {
  int64_t steps_simulated = 0;  // steps until the routers were done (or the run stopped)
  int64_t max_queue = 0;        // store-and-forward routers: the largest output queue seen
  std::string failure;          // why the run stopped early or went wrong, "" if it did not
  std::vector<std::string> faults;         // what the routers detected (crossbar link conflicts)
  std::vector<std::string> injected;       // what injected faults did (--fault): reported, not judged
  std::optional<int64_t> clock_cycles;     // hardware engines: clock cycles of the run proper
  std::optional<int64_t> overhead_cycles;  // hardware engines: reset and table load
  std::optional<int64_t> cycles_per_step;  // clock cycles of one step, where fixed by the design
  std::string hardware;                    // hardware engines: the verilated design that ran ("" otherwise)
};

// Where an engine hands its trace as the run goes, one step at a time, steps in order and
// rows sorted within a step (docs/trace-format.md). Each kind says what a row is (a
// subclass: PacketSink for port rules, sw/engines/trace.h).
struct TraceSink {
  virtual ~TraceSink() = default;
};

// The bounds of a waveform (docs/cli.md "Waveforms").
struct WaveformLimits {
  int64_t from_cycle = 0;  // dump clock cycles from_cycle..to_cycle of the dump's own time axis
  int64_t to_cycle = -1;   // -1: to the end
  int64_t max_bytes = 0;   // the file stops growing past this; 0: no limit
};

struct EngineOptions {
  std::string vcd_path;       // waveform, where the engine can write one
  TraceSink* sink = nullptr;  // engines that stream hand every step's rows here
  bool keep_trace = true;     // false: a streaming engine keeps no trace in memory
  // Injected faults (sw/core/faults.h), applied by engines whose KindRouters take_faults.
  FaultInjector* faults = nullptr;
  // Threads that share each step's routers, where the engine splits them (the ref engine's
  // port-rule routers; one where faults are injected).
  int threads = 1;
  // Threads the engine may use where it also checks each step on them (a LinkStepSink with
  // a RangedLinkCheck: the ref engine's port-rule routers), in place of `threads` and the
  // sink's own thread.
  int checking_threads = 1;
  WaveformLimits waveform;  // of the waveform at vcd_path
};

// The clock monitor of a hardware harness for a round-per-clock kind (tb/round_bench_sc.h,
// tb/round_array_rtl.h): given the run's options where its constructor takes them (a kind
// that streams its rounds to EngineOptions::sink), else made from the topology and rounds.
template <class Monitor>
Monitor make_clock_monitor(const Topology& topology, int rounds, const EngineOptions& options) {
  if constexpr (std::is_constructible_v<Monitor, const Topology&, int, const EngineOptions&>)
    return Monitor(topology, rounds, options);
  else
    return Monitor(topology, rounds);
}

struct EngineOutput {
  RunStats stats;
  std::shared_ptr<const Trace> trace;  // what the engine kept (empty where it streamed and was not asked to keep it)
  bool streamed = false;               // every row went to EngineOptions::sink as the run went
};

// The kind-neutral form of a kind's own run (RunStats plus a `trace` vector), its trace
// wrapped as `TraceType`.
template <class TraceType, class Run>
EngineOutput engine_output(Run run) {
  EngineOutput out;
  out.trace = std::make_shared<TraceType>(std::move(run.trace));
  out.stats = std::move(static_cast<RunStats&>(run));
  return out;
}

// The scoreboard's verdict on a trace.
// One flow's latency in a run whose kind serves flows (docs/tdm.md, "Latency"): slots from
// a phit's injection to its ejection, measured from the arrivals (the most over its phits),
// and the worst case of data that becomes ready just after one of the flow's slots was
// used: it waits for the next of them, then travels.
struct FlowLatency {
  int src = 0;
  int dst = 0;
  int phits = 0;           // a period
  int64_t latency = 0;     // measured
  int64_t worst_case = 0;  // the longest wait for a slot, plus that phit's latency
};

struct ScoreboardReport {
  int64_t steps = 0;       // the last step that brought something still needed
  int64_t needed = 0;      // receptions (or deliveries) the collective demands
  int64_t deliveries = 0;  // of those, how many happened
  int64_t crossings = 0;   // trace rows
  int64_t error_count = 0;
  std::vector<std::string> errors;  // the first kMaxListedErrors, one line each
  // Packets some router held at once, arrived before the previous round and still to be
  // sent: the all-to-all broadcast paper's auxiliary buffers, where the kind measures them.
  std::optional<int64_t> buffers;
  // Per flow, where the kind serves flows (TDM); empty otherwise.
  std::vector<FlowLatency> flow_latency;
  bool clean() const { return error_count == 0; }
};

constexpr size_t kMaxListedErrors = 20;

// A kind's scoreboard checking a run as it goes: the engine streams into sink(), or a
// whole trace is replayed into it; finish() gives the verdict. Writes the trace CSV as it
// goes where asked (renamed into place at finish, never left half-written).
struct OnlineScore {
  virtual ~OnlineScore() = default;
  // Told of every step after the scoreboard has it, in order (what a progress display
  // follows); may be called from the scoreboard's own thread.
  std::function<void(int64_t step)> on_step;
  virtual TraceSink& sink() = 0;
  virtual void replay(const Trace& trace) = 0;
  virtual ScoreboardReport finish() = 0;
};

// Two forms of a table directory (docs/table-format.md): `files`, a JSON file and a hex
// image per router (for people and the hardware), and `packed`, every router's image in one
// binary file (networks too large for a file per router).
enum class TableForm { Files, Packed };

// What a kind's tables hold at the least unless it says: a 32-bit word per router port.
int64_t default_table_bytes(const Topology& topology, const DemandSize& demand);

struct RouterKind {
  std::string name;       // as network.json's "kind" records it
  std::string summary;    // one line
  std::string switching;  // "packet" or "circuit", as reports say it
  // Its routers combine packets: the algorithms of a --combining run are this kind's.
  bool combines = false;
  // Whether a run of loaded tables needs their algorithm in this build (packets per node).
  bool needs_algorithm = true;
  // The file form (docs/table-format.md): the directory `fixroute tables` writes.
  std::function<void(const Tables&, const Topology&, const std::string& dir, TableForm form)> write;
  // Reads and validates a directory whose network.json names this kind; throws InputError.
  std::function<std::shared_ptr<const Tables>(const std::string& dir)> load;
  // Bits of each router's memory image, in node order.
  std::function<std::vector<int64_t>(const Tables&, const Topology&)> table_bits;
  // Bits of a table every router shares (their images are its translations), 0 if none.
  std::function<int64_t(const Tables&)> shared_table_bits = [](const Tables&) { return int64_t{0}; };
  // Lower bounds on the step count of these tables' collective.
  std::function<Bounds(const Tables&, const Topology&, int packets_per_node)> bounds;
  // The same before any table is built, where the kind's bounds depend only on the
  // collective's demand (`fixroute bound` prints them); unset elsewhere.
  std::function<Bounds(const Topology&, const std::string& collective)> demand_bounds;
  // Judges any engine's trace of these tables against the collective's demand.
  std::function<ScoreboardReport(const Tables&, const Topology&, int packets_per_node, const Trace&)> score;
  // The same rules applied online, where the kind has them (unset: score the whole trace);
  // `trace_path` non-empty: also write the trace there; `threads` 2: check on a second
  // thread while the engine runs on.
  std::function<std::unique_ptr<OnlineScore>(const Tables&, const Topology&, int packets_per_node,
                                             const std::string& trace_path, int threads)>
      online_score;
  // Bytes writing these tables holds at once beyond the tables (`tables -o` refuses, up front,
  // a write that needs more than the machine has).
  std::function<int64_t(const Tables&, const Topology&)> write_bytes = [](const Tables&, const Topology&) {
    return int64_t{0};
  };
  // Rows a trace of a run for `demand` on `topology` has at the least (a row per reception
  // for the kinds that move a packet per row); unset: not known before the run. What
  // `run --trace` estimates its file from, against --max-output.
  std::function<int64_t(const Topology&, const DemandSize& demand)> least_trace_rows;
  // Bytes these tables hold once built, at the least, for `demand` on `topology`: known
  // before building (`tables -o` refuses up front tables larger than --max-memory or the
  // memory available). Unless set: a 32-bit word per router port.
  std::function<int64_t(const Topology&, const DemandSize& demand)> table_bytes = default_table_bytes;
  // `fixroute draw`: the SVG of these tables for `problem`, under `title` (the case; the
  // kind adds what it counts); unset: the kind draws nothing. InputError on a topology it
  // does not draw.
  std::function<std::string(const Problem&, const Tables&, const std::string& title)> draw;
  // Bytes a run of this kind holds at once, at the least, for `demand` on `topology`: its
  // routers' state and its scoreboard, plus the trace where the engine keeps one. Known
  // before any table is built: runs too large for the machine are refused up front.
  std::function<int64_t(const Topology&, const DemandSize& demand, bool trace_kept)> run_bytes;
};

std::vector<RouterKind>& router_kind_registry();
struct RouterKindRegistrar {
  explicit RouterKindRegistrar(RouterKind k);  // kept in name order
};
const RouterKind& find_router_kind(const std::string& name);  // throws std::logic_error when unknown

// One engine's routers of one kind.
struct KindRouters {
  std::string kind;
  std::string engine;
  // Whether this build runs these routers on `topology` (hardware engines: built sizes).
  std::function<bool(const Topology&)> supports = [](const Topology&) { return true; };
  std::function<EngineOutput(const Topology&, const Tables&, const EngineOptions&)> run;
  // Whether these routers' harness applies EngineOptions::faults.
  bool takes_faults = false;
  // Whether they hand each step to EngineOptions::sink as they run, keeping no trace.
  bool streams = false;
  // Above the most router-steps (hardware engines: router-cycles) per second measured for
  // these routers (docs/benchmarks.md): a run's least time is its router-steps over this,
  // an estimate never above the run's time (--max-time). 0: no estimate.
  double top_router_steps_per_second = 0;

  // Registration by named fields, chained (C++17 has no designated initializers):
  // KindRouters::of(kind, engine).taking_faults().streaming().at_most(5e7).running(f).
  static KindRouters of(std::string kind_name, std::string engine_name) {
    KindRouters r;
    r.kind = std::move(kind_name);
    r.engine = std::move(engine_name);
    return r;
  }
  template <class F>
  KindRouters& supporting(F f) {
    supports = std::move(f);
    return *this;
  }
  template <class F>
  KindRouters& running(F f) {
    run = std::move(f);
    return *this;
  }
  KindRouters& taking_faults() {
    takes_faults = true;
    return *this;
  }
  KindRouters& streaming() {
    streams = true;
    return *this;
  }
  KindRouters& at_most(double router_steps_per_second) {
    top_router_steps_per_second = router_steps_per_second;
    return *this;
  }
};

std::vector<KindRouters>& kind_routers_registry();
struct KindRoutersRegistrar {
  explicit KindRoutersRegistrar(KindRouters r);  // kept in (kind, engine) order
};
// The routers of `kind` on `engine`, or nullptr where the engine has none.
const KindRouters* find_kind_routers(const std::string& kind, const std::string& engine);

// The engines a run can use, by name (docs/architecture.md "Engines").
struct Engine {
  std::string name;
  std::string summary;
  // SystemC elaborates once per process: callers running many cases (the sweep) give
  // each run of such an engine its own process.
  bool one_run_per_process = false;
  // Whether its routers write a waveform (`run --vcd`); the others refuse the option.
  bool writes_waveforms = false;
};

std::vector<Engine>& engine_registry();
struct EngineRegistrar {
  explicit EngineRegistrar(Engine e);  // kept in name order
};
// Throws InputError for an unknown engine, naming the registered ones.
const Engine& find_engine(const std::string& name);

// Runs `tables` on `engine`'s routers of their kind; throws InputError where this build
// has none for the topology.
EngineOutput run_on_engine(const Engine& engine, const Topology& topology, const Tables& tables,
                           const EngineOptions& options);
bool engine_runs(const Engine& engine, const std::string& kind, const Topology& topology);

// Any kind's table directory: network.json names the kind, whose loader reads the rest.
std::shared_ptr<const Tables> load_any_tables(const std::string& dir);
void write_any_tables(const Tables& tables, const Topology& topology, const std::string& dir, TableForm form);

// Typed access to a kind's own tables and traces (a mismatch is an internal error).
template <class T, class Base>
const T& as_kind(const Base& base) {
  const T* t = dynamic_cast<const T*>(&base);
  if (!t) throw std::logic_error("router kind mismatch: tables or trace of another kind");
  return *t;
}

}  // namespace fixroute
