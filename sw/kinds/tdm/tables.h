// Time-division-multiplexed (TDM) slot tables (docs/tdm.md): bufferless, pipelined routers
// that repeat a schedule of `period` slots. In slot s each router connects, for each of its
// outputs (its ports, then the local ejection), the input its table names for s mod period
// -- a neighbour's port or the local injection -- or none; what an input carries in a slot
// leaves on that output and is on the next router's input in the next slot, never stored.
// The network interface of each node injects, in the slots its table names, one phit of a
// chain: a chain is one phit per period of a flow (src -> dst), injected at `inject_slot`
// and ejected `hops` + 1 slots later (a flow of B phits per period has B chains).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;

constexpr const char* kTdmKind = "tdm";
constexpr int kTdmTableVersion = 1;        // of the memory images
constexpr int kMaxTdmPorts = 30;           // an input select is 5 bits: none, a port, local
constexpr int kMaxTdmPeriod = 1 << 16;
constexpr int64_t kMaxTdmTableEntries = int64_t{1} << 31;  // nodes x period x outputs
constexpr int kTdmNone = 0;                // select code: the output is idle
constexpr size_t kMaxTdmChains = size_t{1} << 22;  // an image numbers a chain plus one in 22 bits

// A flow of the traffic: `phits` phits from src to dst in every period.
struct TdmFlow {
  int src = 0;
  int dst = 0;
  int phits = 1;
  bool operator==(const TdmFlow& o) const { return src == o.src && dst == o.dst && phits == o.phits; }
};

// One phit per period of a flow: injected at src in slot inject_slot (+ k period), on its
// i-th link in slot inject_slot + i, ejected at dst in slot inject_slot + hops + 1.
struct TdmChain {
  int flow = 0;
  int inject_slot = 0;  // 0 .. period-1
  int hops = 0;
  int64_t latency() const { return hops + 1; }
};

struct TdmTables : Tables {
  const char* kind() const override { return kTdmKind; }
  int nodes = 0;
  int ports = 0;
  int period = 0;
  std::vector<TdmFlow> flows;
  std::vector<TdmChain> chains;
  // Per (node, slot, output): the input code: kTdmNone, 1 + a port, or local_code().
  // Outputs 0..ports-1 are the ports, output `ports` the local ejection.
  std::vector<uint8_t> select;
  // Per (node, slot): the chain the network interface injects, -1 for none.
  std::vector<int32_t> inject;
  // Where an exact search proved it (tdm-exact): no shortest-path schedule of the flows has a
  // shorter period than this; 0 where none was proven.
  int exact_lower_bound = 0;
  // Clock cycles (slots) a run of these tables lasts on the hardware engines: tdm_run_slots
  // (sw/kinds/tdm/engine.h), set as the tables are built or loaded.
  int rounds = 0;

  const TdmFlow& flow_of(int chain) const {
    return flows[static_cast<size_t>(chains[static_cast<size_t>(chain)].flow)];
  }
  int outputs() const { return ports + 1; }
  int eject_output() const { return ports; }
  uint8_t local_code() const { return static_cast<uint8_t>(ports + 1); }
  size_t at(int node, int slot, int output) const {
    return (static_cast<size_t>(node) * static_cast<size_t>(period) + static_cast<size_t>(slot)) *
               static_cast<size_t>(outputs()) +
           static_cast<size_t>(output);
  }
  size_t inject_at(int node, int slot) const {
    return static_cast<size_t>(node) * static_cast<size_t>(period) + static_cast<size_t>(slot);
  }
};

// Tables of `period` slots for every router of `topology`, every output idle, no chain.
TdmTables empty_tdm_tables(const Topology& topology, int period);

// Refuses (InputError) tables a router cannot carry out: sizes; selects naming a port with
// no link or an input beyond the router's; an input driving two outputs in one slot;
// injections of chains that are not the node's, or chains injected other than once a period.
void validate_tdm(const TdmTables& tables, const Topology& topology, const std::string& what);

// One router's memory image (docs/table-format.md, "TDM tables"): magic, version, node,
// ports, period, then per slot a word per port (bits 0-4 output q's select; word 0 also the
// ejection's select in bits 5-9 and the chain injected plus one in bits 10-31), CRC-32.
std::vector<uint32_t> encode_tdm_image(const TdmTables& tables, int node);
// InputError where the tables have more chains than an image numbers (kMaxTdmChains - 1).
void check_tdm_image_chains(const TdmTables& tables);
int64_t tdm_table_bits(const TdmTables& tables);

void write_tdm_tables(const TdmTables& tables, const std::string& dir, TableForm form);
TdmTables load_tdm_tables(const std::string& dir);  // validates everything, or throws

}  // namespace fixroute
