// Lockstep co-simulation (`fixroute cosim`, docs/systemc.md): the SystemC network and the
// verilated RTL network of a router kind on one clock, their link activity compared every
// cycle. Each kind's pair registers from tb/ (KindCosimRegistrar, as engines register their
// routers); the verdict -- agreement, and with faults the kind's scoreboard on what arrived
// -- is decided here, for the CLI to print.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/faults.h"
#include "sw/core/router_kind.h"
#include "sw/engines/trace.h"

namespace fixroute {

class Topology;
struct Algorithm;
struct Problem;

struct CosimReport {
  bool agree = false;
  int64_t cycles = 0;          // cycles compared
  int64_t steps = 0;           // steps both networks ran
  int64_t crossings = 0;       // link transfers compared
  std::string divergence;      // the first difference: cycle, arc, the two packets
  // Port rules: the crossings both networks made (what arrived), sorted, for the scoreboard.
  std::vector<TraceEvent> trace;
  // With faults, any kind that takes them: what arrived as the kind's trace, for its scoreboard.
  std::shared_ptr<const Trace> arrived;
  std::string stuck;                  // with faults: why the run ended before both drained (watchdog)
  std::vector<std::string> injected;  // with faults: what they did (the same on both sides, else a divergence)
};

// A kind's co-simulation: both networks loaded with `tables`, `faults` injected into both.
// One per process.
struct KindCosim {
  std::string kind;
  std::function<CosimReport(const Topology&, const Tables&, const std::vector<Fault>& faults)> run;
};
std::vector<KindCosim>& kind_cosim_registry();
struct KindCosimRegistrar {
  explicit KindCosimRegistrar(KindCosim c);  // kept in kind order
};

// The co-simulation of `tables`' router kind; InputError where the kind has none.
CosimReport run_cosim_of_kind(const Topology& topology, const Tables& tables, const std::vector<Fault>& faults = {});

struct CosimVerdict {
  CosimReport report;
  std::optional<ScoreboardReport> score;  // with faults: the kind's scoreboard on what arrived
  bool passed = false;                    // agreed, not stuck, and with faults a clean scoreboard
};
// Co-simulates `algorithm`'s `tables` for `problem` and judges it.
CosimVerdict run_cosim_case(const Problem& problem, const Algorithm& algorithm, const Tables& tables,
                            const std::vector<Fault>& faults);

}  // namespace fixroute
