// The hardware engines, registered like the ref engine (sw/engines/ref.cpp): each kind
// registers its routers on them from tb/<kind>/.
#include <string>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"


namespace fixroute {


namespace {

const EngineRegistrar rtl_engine([] {
  Engine e;
  e.name = "rtl";
  e.summary = "Verilog routers verilated into C++ (any network the router builds hold)";
  e.writes_waveforms = true;
  return e;
}());

const EngineRegistrar systemc_engine([] {
  Engine e;
  e.name = "systemc";
  e.summary = "SystemC router modules elaborated from the topology (any size)";
  e.one_run_per_process = true;
  e.writes_waveforms = true;
  return e;
}());

}  // namespace
}  // namespace fixroute
