// The `systemc` engine: elaborates a NetworkSc for the topology and tables and runs it
// once (SystemcBench). SystemC elaborates once per process, so one process runs one
// simulation (a CLI run is one).
#include <systemc>

#include "engines.h"
#include "systemc_bench.h"
#include "systemc_support.h"

namespace fixroute {

namespace {

EngineResult run_systemc_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options) {
  claim_systemc_elaboration();
  SystemcBench bench("bench", topology, tables, false);
  VcdFile vcd(options.vcd_path);
  if (vcd.file()) {
    sc_core::sc_trace(vcd.file(), bench.clk, "clk");
    bench.net.trace(vcd.file());
  }
  EngineResult r = bench.run();
  r.overhead_cycles = *r.overhead_cycles + 1;  // the reset edge
  return r;
}

EngineRegistrar systemc_registrar({"systemc", "SystemC router modules elaborated from the topology (any size)",
                                   run_systemc_engine, [](const Topology&) { return true; }, true, run_xbar_systemc,
                                   [](const Topology&) { return true; }});

}  // namespace

}  // namespace fixroute
