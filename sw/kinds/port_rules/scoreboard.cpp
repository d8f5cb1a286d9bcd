#include "sw/kinds/port_rules/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// Origin and dest + 1 in 23 bits each (node ids < 2^22), seq in 18: distinct packets of a
// collective have distinct keys; an event whose fields do not fit is no packet of it.
constexpr int kNodeKeyBits = 23;
constexpr int kSeqKeyBits = 18;
std::optional<uint64_t> packet_key(int origin, int dest, int seq) {
  if (origin < 0 || origin >= (1 << (kNodeKeyBits - 1)) || dest < -1 || dest >= (1 << (kNodeKeyBits - 1)) || seq < 0 ||
      seq >= (1 << kSeqKeyBits))
    return std::nullopt;
  return (static_cast<uint64_t>(origin) << (kNodeKeyBits + kSeqKeyBits)) |
         (static_cast<uint64_t>(dest + 1) << kSeqKeyBits) | static_cast<uint64_t>(seq);
}

// The broadcast bit sets' limit: a run that needs more is refused before it starts.
constexpr double kMaxHeldBytes = 4.0 * (1 << 30);

std::string packet_name(int origin, int dest, int seq) {
  return dest == kBroadcastDest ? fmt::format("packet {}->* seq {}", origin, seq)
                                : fmt::format("packet {}->{} seq {}", origin, dest, seq);
}
std::string packet_name(const TraceEvent& e) { return packet_name(e.origin, e.dest, e.seq); }

}  // namespace

int64_t packet_scoreboard_held_bytes(int64_t nodes, const DemandSize& demand) {
  return demand.broadcast * ((nodes + 63) / 64) * 8;
}

int64_t packet_scoreboard_bytes(int64_t nodes, int64_t ports, const DemandSize& demand) {
  // Per packet: its demand entry, its whereabouts, its dense index slot.
  const int64_t per_packet = static_cast<int64_t>(sizeof(Packet)) + 32 + static_cast<int64_t>(sizeof(int32_t));
  return packet_scoreboard_held_bytes(nodes, demand) + demand.packets() * per_packet +
         (nodes * ports + 2 * nodes) * static_cast<int64_t>(sizeof(int64_t));
}

// Each step is checked in two passes: first every crossing against what the nodes held
// when the step began (a packet received in a step cannot leave before the next), then
// the receptions.
struct PacketScoreboard::State {
  const Topology& topo;
  PortModel model;
  std::vector<DemandPacket> demand;
  size_t nodes = 0;
  size_t ports = 0;
  // (origin, dest, seq) -> demand index: dense by origin and seq where the seqs are few
  // (every collective today), else a hash map
  std::vector<int64_t> first_of_origin;  // dense: offset of each origin's seqs in by_seq
  std::vector<int32_t> by_seq;           // dense: demand index, -1 where none
  int64_t seqs_per_origin = 0;
  std::unordered_map<uint64_t, uint32_t> index;
  // Per demand packet, all a crossing of it reads and writes but the bits, in one record
  // (one cache miss, not one per array). Unicast: the node holding it, since which step,
  // delivered yet. Broadcast: its row of `held`.
  struct alignas(32) Whereabouts {
    int64_t since = 0;
    int64_t row = -1;  // broadcast: the row of `held`; -1: unicast
    int32_t holder = 0;
    int32_t dest = 0;
    bool delivered = false;
  };
  static_assert(sizeof(Whereabouts) == 32, "packet_scoreboard_bytes counts 32 bytes of whereabouts per packet");
  std::vector<Whereabouts> packets;
  // broadcast packets: one bit per node that holds it, row `packets[i].row` of `held`.
  // Word w of every row sits side by side (held[w * rows + row]): the schedules move
  // packets of neighbouring origins in step, so one step's crossings of neighbouring
  // packets land on the same cache line (4x fewer lines per step on torus gossip).
  std::vector<uint64_t> held;
  size_t words_per_row = 0;
  size_t rows = 0;
  std::vector<int64_t> arc_used, sent, received;  // the step an arc, a node's send, a node's receive was last used
  int64_t last_step = 0;
  std::vector<int64_t> index_of;   // per event of the step: packet_index, found once (ahead, for the prefetch)
  std::vector<int64_t> packet_of;  // per event of the step: demand index, or -1 where the event was refused
  ScoreboardReport report;

  State(const Topology& t, const PortModel& m, std::vector<DemandPacket> d) : topo(t), model(m), demand(std::move(d)) {
    nodes = static_cast<size_t>(t.num_nodes());
    ports = static_cast<size_t>(t.num_ports());
    words_per_row = (nodes + 63) / 64;
    int64_t max_seq = -1;
    bool seqs_valid = true;
    for (const DemandPacket& p : demand) {
      max_seq = std::max<int64_t>(max_seq, p.seq);
      seqs_valid = seqs_valid && p.seq >= 0 && p.origin >= 0 && static_cast<size_t>(p.origin) < nodes;
    }
    seqs_per_origin = max_seq + 1;
    bool dense = seqs_valid && static_cast<size_t>(seqs_per_origin) * nodes <= 4 * demand.size() + nodes;
    if (dense) {  // and each (origin, seq) names one packet
      by_seq.assign(static_cast<size_t>(seqs_per_origin) * nodes, -1);
      for (const DemandPacket& p : demand) {
        int32_t& slot = by_seq[static_cast<size_t>(p.origin) * static_cast<size_t>(seqs_per_origin) + static_cast<size_t>(p.seq)];
        if (slot >= 0) dense = false;
        slot = 0;
      }
      std::fill(by_seq.begin(), by_seq.end(), -1);
    }
    if (!dense) {
      by_seq.clear();
      seqs_per_origin = 0;
      index.reserve(demand.size());
    }
    packets.resize(demand.size());
    for (size_t i = 0; i < demand.size(); ++i) {
      const DemandPacket& p = demand[i];
      if (seqs_per_origin > 0)
        by_seq[static_cast<size_t>(p.origin) * static_cast<size_t>(seqs_per_origin) + static_cast<size_t>(p.seq)] =
            static_cast<int32_t>(i);
      else
        index[packet_key(p.origin, p.dest, p.seq).value()] = static_cast<uint32_t>(i);
      packets[i].holder = p.origin;
      packets[i].dest = p.dest;
      if (p.dest == kBroadcastDest) packets[i].row = static_cast<int64_t>(rows++);
      report.needed += p.dest == kBroadcastDest ? static_cast<int64_t>(nodes) - 1 : 1;
    }
    const double held_bytes = static_cast<double>(
        packet_scoreboard_held_bytes(static_cast<int64_t>(nodes), DemandSize{0, static_cast<int64_t>(rows)}));
    if (held_bytes > kMaxHeldBytes)
      throw InputError(fmt::format("verifying {} broadcast packets on {} nodes needs {:.0f} MiB (a bit per node per "
                                   "packet); the scoreboard takes at most {:.0f} MiB",
                                   rows, nodes, held_bytes / (1 << 20), kMaxHeldBytes / (1 << 20)));
    held.assign(rows * words_per_row, 0);
    for (size_t i = 0; i < demand.size(); ++i)
      if (packets[i].row >= 0) set_held(i, static_cast<size_t>(demand[i].origin));
    arc_used.assign(nodes * ports, 0);
    sent.assign(nodes, 0);
    received.assign(nodes, 0);
  }

  // The demand index of e's packet, or -1 when it is not a packet of this collective.
  int64_t packet_index(const TraceEvent& e) const {
    if (seqs_per_origin > 0) {
      if (e.origin < 0 || static_cast<size_t>(e.origin) >= nodes || e.seq < 0 || e.seq >= seqs_per_origin) return -1;
      const int32_t i =
          by_seq[static_cast<size_t>(e.origin) * static_cast<size_t>(seqs_per_origin) + static_cast<size_t>(e.seq)];
      return i >= 0 && packets[static_cast<size_t>(i)].dest == e.dest ? i : -1;
    }
    const std::optional<uint64_t> key = packet_key(e.origin, e.dest, e.seq);
    if (!key) return -1;
    const auto it = index.find(*key);
    return it == index.end() ? -1 : static_cast<int64_t>(it->second);
  }

  size_t held_word(size_t packet, size_t node) const {
    return node / 64 * rows + static_cast<size_t>(packets[packet].row);
  }
  bool holds(size_t packet, size_t node) const { return (held[held_word(packet, node)] >> (node % 64)) & 1u; }
  void set_held(size_t packet, size_t node) { held[held_word(packet, node)] |= uint64_t{1} << (node % 64); }

  // The bit sets and the packets' records are far larger than the caches and a step's
  // crossings hit them at random: what an event reads is fetched ahead in stages (its
  // slot of by_seq 3 x kLookahead events ahead, its record 2 x, its bits 1 x), so the
  // misses overlap instead of stalling one after another. (The __builtin_prefetch calls
  // stay in the loops: GCC drops a call to a helper that only prefetches.)
  static constexpr size_t kLookahead = 8;
  const int32_t* by_seq_slot(const TraceEvent& e) const {
    if (seqs_per_origin == 0 || e.origin < 0 || static_cast<size_t>(e.origin) >= nodes || e.seq < 0 ||
        e.seq >= seqs_per_origin)
      return nullptr;
    return &by_seq[static_cast<size_t>(e.origin) * static_cast<size_t>(seqs_per_origin) + static_cast<size_t>(e.seq)];
  }
  // The words of `held` an event reads and writes, or nullptr for either it does not touch.
  std::pair<const uint64_t*, const uint64_t*> bit_words(const TraceEvent& e, int64_t packet) const {
    if (packet < 0 || packets[static_cast<size_t>(packet)].row < 0) return {nullptr, nullptr};
    const size_t i = static_cast<size_t>(packet);
    const bool from_ok = e.from >= 0 && static_cast<size_t>(e.from) < nodes;
    const bool to_ok = e.to >= 0 && static_cast<size_t>(e.to) < nodes;
    return {from_ok ? &held[held_word(i, static_cast<size_t>(e.from))] : nullptr,
            to_ok ? &held[held_word(i, static_cast<size_t>(e.to))] : nullptr};
  }

  void error(std::string message) {
    if (report.errors.size() < kMaxListedErrors) report.errors.push_back(std::move(message));
    ++report.error_count;
  }

  // Whether `e`'s packet reaches e.from within this step (for the error's wording).
  static bool arrives_in_step(const std::vector<TraceEvent>& events, const TraceEvent& e) {
    return std::any_of(events.begin(), events.end(), [&](const TraceEvent& o) {
      return o.to == e.from && o.origin == e.origin && o.dest == e.dest && o.seq == e.seq;
    });
  }

  void step(int64_t at, const std::vector<TraceEvent>& events) {
    if (at < last_step || at < 1) error(fmt::format("trace is not sorted by step: step {} after step {}", at, last_step));
    last_step = std::max(last_step, at);
    const int n = topo.num_nodes();
    packet_of.assign(events.size(), -1);
    index_of.resize(events.size());
    for (size_t k = 0; k < std::min(kLookahead, events.size()); ++k) index_of[k] = packet_index(events[k]);
    for (size_t k = 0; k < events.size(); ++k) {  // pass 1: the crossings
      if (k + 3 * kLookahead < events.size()) {
        if (const int32_t* slot = by_seq_slot(events[k + 3 * kLookahead])) __builtin_prefetch(slot);
      }
      if (k + 2 * kLookahead < events.size()) {  // by_seq's slot only: the record's dest is what is being fetched
        const int32_t* slot = by_seq_slot(events[k + 2 * kLookahead]);
        if (slot && *slot >= 0) __builtin_prefetch(&packets[static_cast<size_t>(*slot)], 1);
      }
      if (k + kLookahead < events.size()) {
        index_of[k + kLookahead] = packet_index(events[k + kLookahead]);
        const auto [from_word, to_word] = bit_words(events[k + kLookahead], index_of[k + kLookahead]);
        if (from_word) __builtin_prefetch(from_word);
        if (to_word) __builtin_prefetch(to_word);
      }
      const TraceEvent& e = events[k];
      ++report.crossings;
      const int port = e.from >= 0 && e.from < n && e.to >= 0 && e.to < n ? topo.port_towards(e.from, e.to) : -1;
      if (port < 0) {
        error(fmt::format("step {}: arc {}->{} does not exist in {}", at, e.from, e.to, topo.spec()));
        continue;
      }
      int64_t& arc = arc_used[static_cast<size_t>(e.from) * ports + static_cast<size_t>(port)];
      if (arc == at) error(fmt::format("step {}: arc {}->{} carries more than one packet", at, e.from, e.to));
      arc = at;
      if (model.half_duplex &&
          arc_used[static_cast<size_t>(e.to) * ports + static_cast<size_t>(topo.reverse_port(e.from, port))] == at)
        error(fmt::format("step {}: half-duplex link {}-{} used in both directions", at, e.from, e.to));
      if (model.one_port) {
        if (sent[static_cast<size_t>(e.from)] == at)
          error(fmt::format("step {}: 1-port node {} sends more than one packet", at, e.from));
        if (received[static_cast<size_t>(e.to)] == at)
          error(fmt::format("step {}: 1-port node {} receives more than one packet", at, e.to));
        sent[static_cast<size_t>(e.from)] = received[static_cast<size_t>(e.to)] = at;
      }
      const int64_t found = index_of[k];
      if (found < 0) {
        error(fmt::format("step {}: {} is not a packet of this collective", at, packet_name(e)));
        continue;
      }
      const size_t i = static_cast<size_t>(found);
      const bool holds_it = packets[i].row >= 0 ? holds(i, static_cast<size_t>(e.from))
                                                  : packets[i].holder == e.from && packets[i].since < at;
      if (!holds_it) {
        error(fmt::format("step {}: {} leaves node {}, which does not hold it{}", at, packet_name(e), e.from,
                          arrives_in_step(events, e) ? " before the next step" : ""));
        continue;
      }
      if (packets[i].row < 0) {
        if (e.from == e.dest) error(fmt::format("step {}: {} leaves its destination", at, packet_name(e)));
        packets[i].since = at;  // it has left: a second crossing from here in this step finds it gone
      }
      packet_of[k] = static_cast<int64_t>(i);
    }
    for (size_t k = 0; k < events.size(); ++k) {  // pass 2: the receptions
      if (k + kLookahead < events.size()) {
        const uint64_t* to_word = bit_words(events[k + kLookahead], packet_of[k + kLookahead]).second;
        if (to_word) __builtin_prefetch(to_word, 1);
      }
      if (packet_of[k] < 0) continue;
      const TraceEvent& e = events[k];
      const size_t i = static_cast<size_t>(packet_of[k]);
      if (packets[i].row < 0) {
        packets[i].holder = e.to;  // a unicast packet moves on
        packets[i].since = at;
        if (e.to != e.dest) continue;
        if (packets[i].delivered) {
          error(fmt::format("step {}: node {} receives {} a second time", at, e.to, packet_name(e)));
          continue;
        }
        packets[i].delivered = true;
      } else {
        if (holds(i, static_cast<size_t>(e.to))) {
          error(fmt::format("step {}: node {} receives {} a second time", at, e.to, packet_name(e)));
          continue;
        }
        set_held(i, static_cast<size_t>(e.to));
      }
      ++report.deliveries;
      report.steps = std::max(report.steps, at);
    }
  }

  ScoreboardReport finish() {
    int64_t missing = 0;
    std::string first;
    // The first missed reception named with where its packet was last seen: a unicast
    // packet's last holder, a broadcast packet's count of holders.
    auto missed = [&](size_t i, size_t node) {
      if (missing++ > 0) return;
      const DemandPacket& p = demand[i];
      std::string seen;
      if (packets[i].row < 0) {
        seen = packets[i].since == 0 ? fmt::format("never left node {}", packets[i].holder)
                                     : fmt::format("last seen at node {}, step {}", packets[i].holder, packets[i].since);
      } else {
        size_t holders = 0;
        for (size_t v = 0; v < nodes; ++v) holders += holds(i, v) ? 1 : 0;
        seen = fmt::format("held by {} of {} nodes", holders, nodes);
      }
      first = fmt::format("{} never reached node {} ({})", packet_name(p.origin, p.dest, p.seq), node, seen);
    };
    // the bit sets in memory order first: only where a bit is missing, packet by packet
    // for the first missed reception's name
    bool all_held = true;
    for (size_t w = 0; w < words_per_row && all_held; ++w) {
      const uint64_t full = w + 1 < words_per_row || nodes % 64 == 0 ? ~uint64_t{0} : (uint64_t{1} << (nodes % 64)) - 1;
      for (size_t r = 0; r < rows && all_held; ++r) all_held = held[w * rows + r] == full;
    }
    for (size_t i = 0; i < demand.size(); ++i) {
      const DemandPacket& p = demand[i];
      if (packets[i].row < 0) {
        if (!packets[i].delivered) missed(i, static_cast<size_t>(p.dest));
        continue;
      }
      for (size_t node = 0; node < nodes && !all_held; ++node)
        if (!holds(i, node)) missed(i, node);
    }
    if (missing > 0) error(fmt::format("{} needed receptions never happened (first: {})", missing, first));
    return report;
  }
};

PacketScoreboard::PacketScoreboard(const Topology& topology, const PortModel& model, std::vector<DemandPacket> demand)
    : state_(std::make_unique<State>(topology, model, std::move(demand))) {}
PacketScoreboard::~PacketScoreboard() = default;
void PacketScoreboard::step(int64_t step, const std::vector<TraceEvent>& events) { state_->step(step, events); }
ScoreboardReport PacketScoreboard::finish() { return state_->finish(); }

ScoreboardReport score_trace(const Topology& topology, const PortModel& model, const std::vector<DemandPacket>& demand,
                             const std::vector<TraceEvent>& trace) {
  PacketScoreboard board(topology, model, demand);
  replay_steps(trace, board);
  return board.finish();
}

}  // namespace fixroute
