// Port models of the timing model (docs/timing-model.md): all-port or 1-port, full- or
// half-duplex, and whether routers combine packets (docs/combining.md).
#pragma once
#include <string>

namespace fixroute {

class Topology;
struct NetworkTables;

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

// Adapts all-port full-duplex tables to a restricted port model by time-slicing the
// ports, the transformation behind the total-exchange paper's remark (section 2) that
// half-duplex costs a factor of two: on a line or ring, port 0 (the + direction) may send
// only in odd steps and port 1 only in even steps. That obeys 1-port and half-duplex at
// once; every release step r becomes 2r-1 (port 0) or 2r (port 1), so the schedule is the
// full-duplex one dilated by two. Throws InputError for topologies it does not cover.
void apply_port_model(NetworkTables& tables, const Topology& topology, const PortModel& model);

}  // namespace fixroute
