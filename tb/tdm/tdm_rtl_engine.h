// The rtl engine's TDM routers (tb/tdm/tdm_rtl_engine.cpp): what the harness reads of them
// (co-simulation) and the loading of a network's tables.
#pragma once
#include <memory>
#include <string>

#include "sw/core/router_kind.h"
#include "sw/kinds/tdm/engine.h"
#include "tb/rtl_config_port.h"

namespace fixroute {

struct TdmTables;

// What the harness reads of a network of TDM routers.
class TdmRtlDriver : public RtlConfigPort {
 public:
  virtual bool link_valid(int node, int port) const = 0;
  virtual TdmPhit link_phit(int node, int port) const = 0;
  virtual bool eject_valid(int node) const = 0;
  virtual TdmPhit eject_phit(int node) const = 0;
  // The faults the wiring applies (docs/faults.md): links cut, a stuck router's sends and
  // ejection unheard, each loss recorded as it is sent.
  virtual void inject(FaultInjector* faults) = 0;
  // The tables loaded (what names a lost phit by its flow); they outlive the run.
  void set_tables(const TdmTables& tables) { tables_ = &tables; }

 protected:
  const TdmTables& tables() const { return *tables_; }

 private:
  const TdmTables* tables_ = nullptr;
};

// The smallest fr_tdm_router build that holds `tables` (ports, period, chain numbers), every
// router's image loaded and checked (load_round_array, tb/round_array_rtl.h): nullptr with
// `run.failure` set where a router refused its table; InputError where no build holds them.
std::unique_ptr<TdmRtlDriver> load_tdm_rtl(const Topology& topology, const TdmTables& tables,
                                           const std::string& vcd_path, RunStats& run);

}  // namespace fixroute
