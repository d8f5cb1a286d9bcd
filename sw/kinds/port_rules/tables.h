// Router tables: the complete per-router program the hardware runs, and its two file
// forms (docs/table-format.md): versioned JSON for people and a 32-bit-word memory
// image ($readmemh hex) for the RTL. Every loader validates everything before it
// returns anything: a bad file is refused whole with an InputError.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "sw/core/collectives.h"
#include "sw/core/router_kind.h"
#include "sw/topology/port_model.h"
#include "sw/tables/table_files.h"

namespace fixroute {

class Topology;

constexpr int kTableVersion = 3;  // router files and images; 2: taps and a switch step per port; 3: a list of switch steps per tap
constexpr const char* kPortRulesKind = "port-rules";
constexpr int kMaxPorts = 16;          // transit masks are 16 bits wide

// Output-queue disciplines (total-exchange paper: section 3 furthest-first, section 4
// message-shift FIFO).
enum class Discipline : uint8_t { Fifo = 0, FurthestFirst = 1 };
const char* discipline_name(Discipline d);

// A packet as routers carry it. `hops` is the remaining hop count, set by the scheduler
// at the source and decremented by every router it crosses: the key of furthest-first.
struct Packet {
  int origin = 0;
  int dest = 0;
  int seq = 0;
  int hops = 0;
  bool operator==(const Packet& o) const {
    return origin == o.origin && dest == o.dest && seq == o.seq && hops == o.hops;
  }
};

// Everything a router knows about one of its ports.
struct PortRule {
  uint32_t forward_mask = 0;  // out-ports for a packet that arrives on this port and is not consumed here
  Discipline discipline = Discipline::Fifo;  // of this port's output queue
  int send_period = 1;        // the port may send in step t only if t % send_period == send_phase
  int send_phase = 0;
  // Out-port taps (gossip paper, sections 2-3: an out-of-cycle node is fed by its
  // on-cycle neighbours): this port also sends a copy, with one hop left, of every
  // broadcast copy that arrives on in-port tap_first before the first of switch_steps,
  // on tap_second from the first switch step on, on tap_first again from the second,
  // and so on (the forward/backward switching of section 2, as often as the scheduler
  // needs: strictly increasing steps). -1: no tap. Taps ignore `hops`, so a cycle's last
  // node still feeds.
  int tap_first = -1;
  int tap_second = -1;
  std::vector<int> switch_steps;
  bool taps() const { return tap_first >= 0 || tap_second >= 0; }
  int tap_source(int64_t arrival_step) const {
    const auto switched = std::upper_bound(switch_steps.begin(), switch_steps.end(), arrival_step) - switch_steps.begin();
    return switched % 2 == 0 ? tap_first : tap_second;
  }
  bool operator==(const PortRule& o) const {
    return forward_mask == o.forward_mask && discipline == o.discipline && send_period == o.send_period &&
           send_phase == o.send_phase && tap_first == o.tap_first && tap_second == o.tap_second &&
           switch_steps == o.switch_steps;
  }
};

// A packet the router starts with. It joins the queue of `out_port` at the start of
// step `release` (1 = present from the start), in table order; a table lists its initial
// packets in non-decreasing release order.
struct InitialPacket {
  int out_port = 0;
  Packet packet;
  int release = 1;
  bool operator==(const InitialPacket& o) const {
    return out_port == o.out_port && packet == o.packet && release == o.release;
  }
};

struct RouterTable {
  int node = 0;
  std::vector<PortRule> ports;          // one per port of the topology
  std::vector<InitialPacket> initial;   // initial queue contents, in order
  bool operator==(const RouterTable& o) const { return node == o.node && ports == o.ports && initial == o.initial; }
};

// The port-rule router kind's tables (core/router_kind.h; registered in sw/kinds/).
struct NetworkTables : Tables {
  const char* kind() const override { return kPortRulesKind; }
  std::vector<RouterTable> routers;  // routers[i].node == i
};

// Checks the tables against their topology: sizes, ranges, ports; throws InputError.
void validate(const NetworkTables& tables, const Topology& topology);

// Bits of one router's memory image (what the hardware stores).
int64_t table_bits(const RouterTable& router, int num_ports);

// --- file forms -----------------------------------------------------------------------
// Directory layout: DIR/network.json (manifest) and, in the files form, per router
// DIR/router-<id>.json and DIR/router-<id>.hex; in the packed form DIR/tables.bin.
void write_tables(const NetworkTables& tables, const Topology& topology, const std::string& dir,
                  TableForm form = TableForm::Files);
NetworkTables load_tables(const std::string& dir);  // validates everything, or throws

// Memory image: 32-bit words (one per hex line in the files form); the packed form's
// images give origin and dest a word each (node ids beyond 16 bits).
std::vector<uint32_t> encode_image(const RouterTable& router, int num_ports, TableForm form = TableForm::Files);
// `what` names the image in error messages.
RouterTable decode_image(const std::vector<uint32_t>& words, int num_ports, int num_nodes,
                         const std::string& what = "memory image", TableForm form = TableForm::Files);

// Adapts all-port full-duplex tables to a restricted port model by time-slicing the
// ports, the transformation behind the total-exchange paper's remark (section 2) that
// half-duplex costs a factor of two: on a line or ring, port 0 (the + direction) may send
// only in odd steps and port 1 only in even steps. That obeys 1-port and half-duplex at
// once; every release step r becomes 2r-1 (port 0) or 2r (port 1), so the schedule is the
// full-duplex one dilated by two. Throws InputError for topologies it does not cover.
void apply_port_model(NetworkTables& tables, const Topology& topology, const PortModel& model);
// Why port-rule tables of `topology` cannot take `model` (apply_port_model would refuse it),
// or empty: the algorithms refuse the run up front with it, so that another may take it.
std::string port_model_refusal(const Topology& topology, const PortModel& model);

}  // namespace fixroute
