// CombiningRouterSc: the combining router in SystemC, cycle for cycle the behaviour of
// rtl/combining/fr_combining_router.v (docs/combining.md, "The routers"): it holds the set of
// origins it has learnt (its own at reset); one round is one clock cycle. At each rising
// edge it merges what its neighbours sent in the last round into its set, then sends the
// set on the ports its table's row for the next round names. `full` (its set holds every
// origin) and `learnt` (the last merge added one) are all the harness sees of it. It sees
// only its ports, its table rows and its round counter.
#pragma once
#include <systemc>

#include <cstdint>
#include <ostream>
#include <vector>

#include "systemc/fr_fault_link_sc.h"

namespace fixroute {

class Topology;
struct CombiningTables;

// A set of origins, one bit each, as one link carries it.
struct OriginSet {
  std::vector<uint64_t> words;
  int count() const;
  bool operator==(const OriginSet& o) const { return words == o.words; }
};
std::ostream& operator<<(std::ostream& out, const OriginSet& s);
void sc_trace(sc_core::sc_trace_file*, const OriginSet&, const std::string&);  // links trace their valid bits

class CombiningRouterSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
  sc_core::sc_vector<sc_core::sc_in<OriginSet>> in_data;
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
  sc_core::sc_vector<sc_core::sc_out<OriginSet>> out_data;
  sc_core::sc_out<bool> full;
  sc_core::sc_out<bool> learnt;
  sc_core::sc_out<int> known_count;

  CombiningRouterSc(sc_core::sc_module_name name, int node, int nodes, int ports, std::vector<uint16_t> rows);

  // Its round counter (rounds sent), and an event notified once its outputs hold a round's
  // sends: what a test bench's fault link (systemc/fr_fault_link_sc.h) reads of it.
  int64_t round() const { return round_; }
  const sc_core::sc_event& sent() const { return sent_; }

 private:
  void on_clock();

  const int node_, nodes_;
  const std::vector<uint16_t> rows_;  // its table: the port mask of each round, repeating
  OriginSet known_;
  int64_t round_ = 0;  // rounds sent
  sc_core::sc_event sent_;
};

// The routers of a topology wired by its adjacency: in-port q of router i hears what
// neighbour(i, q) sends on reverse_port(i, q).
class CombiningNetworkSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;

  // `faults` (optional, docs/faults.md): every link passes through a RoundFaultLinkSc, and
  // link_valid/link_data tell what arrived.
  CombiningNetworkSc(sc_core::sc_module_name name, const Topology& topology, const CombiningTables& tables,
                     FaultInjector* faults = nullptr);

  int nodes() const { return nodes_; }
  bool full(int node) const { return full_[static_cast<size_t>(node)].read(); }
  bool learnt(int node) const { return learnt_[static_cast<size_t>(node)].read(); }
  bool link_valid(int node, int port) const { return (faults_ ? arrive_valid_ : link_valid_)[link(node, port)].read(); }
  const OriginSet& link_data(int node, int port) const {
    return (faults_ ? arrive_data_ : link_data_)[link(node, port)].read();
  }
  int link_count(int node, int port) const { return link_data(node, port).count(); }
  void trace(sc_core::sc_trace_file* file) const;

 private:
  size_t link(int node, int port) const { return static_cast<size_t>(node) * static_cast<size_t>(ports_) + static_cast<size_t>(port); }
  const int nodes_, ports_;
  sc_core::sc_vector<CombiningRouterSc> routers_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> link_valid_;
  sc_core::sc_vector<sc_core::sc_signal<OriginSet>> link_data_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> full_, learnt_;
  sc_core::sc_vector<sc_core::sc_signal<int>> known_count_;
  sc_core::sc_signal<bool> no_valid_;  // what a border input sees
  sc_core::sc_signal<OriginSet> no_data_;
  // With faults: what arrives of each link (the fault links' outputs).
  FaultInjector* faults_ = nullptr;
  sc_core::sc_vector<RoundFaultLinkSc<OriginSet>> fault_links_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> arrive_valid_;
  sc_core::sc_vector<sc_core::sc_signal<OriginSet>> arrive_data_;
};

}  // namespace fixroute
