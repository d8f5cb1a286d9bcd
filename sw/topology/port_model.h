// Port models of the timing model (docs/timing-model.md): all-port or 1-port, full- or
// half-duplex, and whether routers combine packets (docs/combining.md).
#pragma once
#include <string>

namespace fixroute {

class Topology;

struct PortModel {
  bool one_port = false;     // 1-port: one send and one receive per node per step
  bool half_duplex = false;  // half-duplex: one direction per link per step
  bool combining = false;    // a send carries everything the node has learnt (--combining)

  bool is_default() const { return !one_port && !half_duplex && !combining; }
  std::string ports_name() const { return one_port ? "1-port" : "all-port"; }
  std::string duplex_name() const { return half_duplex ? "half" : "full"; }
  // "all-port/full", "1-port/half/combining", ...: the label used in reports.
  std::string label() const { return ports_name() + "/" + duplex_name() + (combining ? "/combining" : ""); }

  // Parse the CLI words; throw InputError naming the accepted values.
  static PortModel parse(const std::string& ports, const std::string& duplex, bool combining = false);
  bool operator==(const PortModel& o) const {
    return one_port == o.one_port && half_duplex == o.half_duplex && combining == o.combining;
  }
};


}  // namespace fixroute
