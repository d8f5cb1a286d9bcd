#include "sw/kinds/port_rules/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <type_traits>
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
  // Per packet: its demand entry, its whereabouts, its dense index slot. Per link: the step
  // it was last used, its sender and receiver, its crossing's demand index and dest, its
  // place among its receiver's in-links (checked in parts). Per node: two steps, where its
  // in-links start.
  const int64_t per_packet = static_cast<int64_t>(sizeof(Packet)) + 16 + static_cast<int64_t>(sizeof(int32_t));
  const int64_t per_link = 8 + 4 + 4 + 8 + 4 + 4;
  return packet_scoreboard_held_bytes(nodes, demand) + demand.packets() * per_packet + nodes * ports * per_link +
         nodes * static_cast<int64_t>(2 * sizeof(int64_t) + sizeof(uint32_t));
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
  std::vector<int32_t> by_seq;           // dense: demand index, -1 where none
  int64_t seqs_per_origin = 0;
  // dense, and the demand lists every (origin, seq) in that order (total exchange, gossip):
  // the slot is the demand index, by_seq is not kept and a record's address is known
  // from the event alone (fetched far ahead)
  bool direct = false;
  std::unordered_map<uint64_t, uint32_t> index;
  // Per demand packet, all a crossing of it reads and writes but the bits, in one record
  // of 16 bytes (one cache miss, not one per array; a million packets' records stay in the
  // last-level cache). Unicast: the node holding it, since which step, delivered yet.
  // Broadcast: its row of `held`.
  struct Whereabouts {
    int32_t dest = 0;
    int32_t place = 0;  // unicast: the node holding it; broadcast: its row of `held`
    uint64_t since : 63;  // unicast: the step it reached `place` (0: from the start)
    uint64_t delivered : 1;
    Whereabouts() : since(0), delivered(0) {}
    bool broadcast() const { return dest == kBroadcastDest; }
  };
  static_assert(sizeof(Whereabouts) == 16, "packet_scoreboard_bytes counts 16 bytes of whereabouts per packet");
  std::vector<Whereabouts> packets;
  // broadcast packets: one bit per node that holds it, row `packets[i].place` of `held`.
  // Word w of every row sits side by side (held[w * rows + row]): the schedules move
  // packets of neighbouring origins in step, so one step's crossings of neighbouring
  // packets land on the same cache line (4x fewer lines per step on torus gossip).
  std::vector<uint64_t> held;
  size_t words_per_row = 0;
  size_t rows = 0;
  std::vector<int64_t> arc_used, sent, received;  // the step an arc, a node's send, a node's receive was last used
  std::vector<int32_t> link_node, link_to;  // per link (node x ports + port): its sender, its receiver (-1: none)
  int64_t last_step = 0;
  static constexpr int32_t kNoDest = -2;
  std::vector<int32_t> dest_of;    // Mixed: per crossing of the step (row or link): its packet's dest, kNoDest where none
  std::vector<int64_t> packet_of;  // per crossing of the step: its demand index, or -1 (none, or the crossing was refused)
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
    direct = seqs_per_origin > 0 && by_seq.size() == demand.size();
    for (size_t i = 0; i < demand.size(); ++i) {
      const DemandPacket& p = demand[i];
      if (seqs_per_origin > 0) {
        const size_t slot =
            static_cast<size_t>(p.origin) * static_cast<size_t>(seqs_per_origin) + static_cast<size_t>(p.seq);
        by_seq[slot] = static_cast<int32_t>(i);
        direct = direct && slot == i;
      } else {
        index[packet_key(p.origin, p.dest, p.seq).value()] = static_cast<uint32_t>(i);
      }
      packets[i].dest = p.dest;
      packets[i].place = p.dest == kBroadcastDest ? static_cast<int32_t>(rows++) : p.origin;
      report.needed += p.dest == kBroadcastDest ? static_cast<int64_t>(nodes) - 1 : 1;
    }
    const bool any_broadcast = rows > 0, any_unicast = rows < demand.size();
    mix = !any_unicast && direct ? Mix::Broadcast : !any_broadcast ? Mix::Unicast : Mix::Mixed;
    const double held_bytes = static_cast<double>(
        packet_scoreboard_held_bytes(static_cast<int64_t>(nodes), DemandSize{0, static_cast<int64_t>(rows)}));
    if (held_bytes > kMaxHeldBytes)
      throw InputError(fmt::format("verifying {} broadcast packets on {} nodes needs {:.0f} MiB (a bit per node per "
                                   "packet); the scoreboard takes at most {:.0f} MiB",
                                   rows, nodes, held_bytes / (1 << 20), kMaxHeldBytes / (1 << 20)));
    if (direct) std::vector<int32_t>().swap(by_seq);
    held.assign(rows * words_per_row, 0);
    for (size_t i = 0; i < demand.size(); ++i)
      if (packets[i].broadcast()) set_held(i, static_cast<size_t>(demand[i].origin));
    arc_used.assign(nodes * ports, 0);
    sent.assign(nodes, 0);
    received.assign(nodes, 0);
    link_node.resize(nodes * ports);
    link_to.resize(nodes * ports);
    for (size_t link = 0; link < nodes * ports; ++link) {
      link_node[link] = static_cast<int32_t>(link / ports);
      link_to[link] = t.neighbour(static_cast<int>(link / ports), static_cast<int>(link % ports));
    }
  }

  // A crossing's packet as the demand names it.
  struct Fields {
    int origin, dest, seq;
    bool operator==(const Fields& o) const { return origin == o.origin && dest == o.dest && seq == o.seq; }
  };
  // The slot of by_seq that names the packet with f's origin and seq (its dest still to be
  // compared), or -1 where f's fields are out of its range (dense lookup only).
  int64_t dense_slot(const Fields& f) const { return dense_slot(f, nodes, seqs_per_origin); }
  static int64_t dense_slot(const Fields& f, size_t nodes, int64_t seqs_per_origin) {
    if (f.origin < 0 || static_cast<size_t>(f.origin) >= nodes || f.seq < 0 || f.seq >= seqs_per_origin) return -1;
    return static_cast<int64_t>(f.origin) * seqs_per_origin + f.seq;
  }
  // The demand index of the packet f names by origin and seq (dense lookup: its dest still
  // to be compared), or -1 where there is none.
  int64_t candidate(const Fields& f) const {
    if (seqs_per_origin > 0) {
      const int64_t slot = dense_slot(f);
      return slot < 0 || direct ? slot : by_seq[static_cast<size_t>(slot)];
    }
    const std::optional<uint64_t> key = packet_key(f.origin, f.dest, f.seq);
    if (!key) return -1;
    const auto it = index.find(*key);
    return it == index.end() ? -1 : static_cast<int64_t>(it->second);
  }

  size_t row_word(size_t row, size_t node) const { return row_word(row, node, rows); }
  static size_t row_word(size_t row, size_t node, size_t rows) { return node / 64 * rows + row; }
  size_t held_word(const Whereabouts& w, size_t node) const { return row_word(static_cast<size_t>(w.place), node); }
  bool holds_row(size_t row, size_t node) const { return holds_row(held.data(), rows, row, node); }
  static bool holds_row(const uint64_t* bits, size_t rows, size_t row, size_t node) {
    return (bits[row_word(row, node, rows)] >> (node % 64)) & 1u;
  }
  bool holds(const Whereabouts& w, size_t node) const { return holds_row(static_cast<size_t>(w.place), node); }
  void set_held(size_t packet, size_t node) {
    held[held_word(packets[packet], node)] |= uint64_t{1} << (node % 64);
  }

  void error(std::string message) {
    if (report.errors.size() < kMaxListedErrors) report.errors.push_back(std::move(message));
    ++report.error_count;
  }

  // A step's crossings as the check reads them: k in [0, size()) where present(k); its
  // sender from(k) and receiver to(k) (as given: range-checked by the reader), the port of
  // from(k) it left by, port(k) (-1 where from -> to is no arc), and its packet fields(k).
  // Rows: any engine's trace; the arc is looked up from (from, to), and a row may name an
  // arc another row of the step names.
  struct Rows {
    static constexpr bool kArcsMayRepeat = true;
    static constexpr bool kEndsInRange = false;  // from and to as the rows give them
    const State& board;
    const std::vector<TraceEvent>& events;
    size_t size() const { return events.size(); }
    bool present(size_t) const { return true; }
    int from(size_t k) const { return events[k].from; }
    int to(size_t k) const { return events[k].to; }
    int port(size_t k) const {
      const TraceEvent& e = events[k];
      const int n = static_cast<int>(board.nodes);
      return e.from >= 0 && e.from < n && e.to >= 0 && e.to < n ? board.topo.port_towards(e.from, e.to) : -1;
    }
    Fields fields(size_t k) const { return {events[k].origin, events[k].dest, events[k].seq}; }
    bool arc(size_t k) const { return port(k) >= 0; }
  };
  // Links: the ref engine's wires; k is the link (the sender's out-port), named once a step.
  // The arrays' addresses are copied in: read through the board, the check's loops would
  // load them again after each of their stores.
  struct Links {
    static constexpr bool kArcsMayRepeat = false;
    static constexpr bool kEndsInRange = true;  // nodes of the network, or to -1 (no arc)
    Links(const State& board, const LinkStep& step)
        : senders(board.link_node.data()), receivers(board.link_to.data()), packets(step.packets), used(step.used),
          links(step.links), ports(board.ports) {}
    const int32_t* senders;
    const int32_t* receivers;
    const Packet* packets;
    const uint8_t* used;
    size_t links, ports;
    size_t size() const { return links; }
    bool present(size_t k) const { return used[k] != 0; }
    int from(size_t k) const { return senders[k]; }
    int to(size_t k) const { return receivers[k]; }
    int port(size_t k) const {
      return receivers[k] < 0 ? -1 : static_cast<int>(k - static_cast<size_t>(senders[k]) * ports);
    }
    bool arc(size_t k) const { return receivers[k] >= 0; }
    Fields fields(size_t k) const { return {packets[k].origin, packets[k].dest, packets[k].seq}; }
  };

  // What a crossing broke; fail() words it (out of line: the checks' loops stay small).
  enum class Broken { NoArc, ArcTwice, BothDirections, SendsTwice, ReceivesTwice, NotAPacket, NotHeld,
                      LeavesDestination, ReceivedAgain };
  struct Failures;
  template <class Input>
  [[gnu::cold]] __attribute__((noinline)) void fail(Broken what, int64_t at, const Input& in, size_t k,
                                                    Failures& failures) {
    fail(what, at, in, k, failures, k);
  }
  template <class Input>
  [[gnu::cold]] __attribute__((noinline)) void fail(Broken what, int64_t at, const Input& in, size_t k,
                                                    Failures& failures, size_t key) {
    const Fields f = in.fields(k);
    const TraceEvent e{at, in.from(k), in.to(k), f.origin, f.dest, f.seq};
    auto error = [&](std::string message) { failures.add(key, std::move(message)); };
    switch (what) {
      case Broken::NoArc:
        return error(fmt::format("step {}: arc {}->{} does not exist in {}", at, e.from, e.to, topo.spec()));
      case Broken::ArcTwice:
        return error(fmt::format("step {}: arc {}->{} carries more than one packet", at, e.from, e.to));
      case Broken::BothDirections:
        return error(fmt::format("step {}: half-duplex link {}-{} used in both directions", at, e.from, e.to));
      case Broken::SendsTwice:
        return error(fmt::format("step {}: 1-port node {} sends more than one packet", at, e.from));
      case Broken::ReceivesTwice:
        return error(fmt::format("step {}: 1-port node {} receives more than one packet", at, e.to));
      case Broken::NotAPacket:
        return error(fmt::format("step {}: {} is not a packet of this collective", at, packet_name(e)));
      case Broken::NotHeld: {
        // Whether the packet reaches the node in this step reads every link: checked in
        // parts, the others may still be sending, so middle() words it.
        const std::string text =
            fmt::format("step {}: {} leaves node {}, which does not hold it", at, packet_name(e), e.from);
        if (failures.listed) return failures.add(key, text, static_cast<int64_t>(k));
        return error(text + (arrives_in_step(in, e.from, f) ? " before the next step" : ""));
      }
      case Broken::LeavesDestination:
        return error(fmt::format("step {}: {} leaves its destination", at, packet_name(e)));
      case Broken::ReceivedAgain:
        return error(fmt::format("step {}: node {} receives {} a second time", at, e.to, packet_name(e)));
    }
  }

  // Whether the packet `f` reaches `node` within this step (for the error's wording).
  template <class Input>
  static bool arrives_in_step(const Input& in, int node, const Fields& f) {
    for (size_t k = 0; k < in.size(); ++k)
      if (in.present(k) && in.to(k) == node && in.fields(k) == f) return true;
    return false;
  }

  // The bit sets and the packets' records are far larger than the caches and a step's
  // crossings hit them at random: each is asked for ahead of its use, so the misses
  // overlap instead of stalling one after another -- by_seq's slot (or the record, where
  // the crossing names it directly) kLookupAhead crossings ahead, in the mixed check's
  // lookup pass (which then loads each record's dest, a load the core keeps in flight:
  // prefetched records were seen still missing in the checks) and in unicast_crossings;
  // the bits kLookahead crossings ahead in the mixed check and the receptions (not in the
  // named check's sender pass: see there).
  // (The __builtin_prefetch calls stay in the loops: GCC drops a call to a helper that only
  // prefetches.)
  static constexpr size_t kLookahead = 8;
  static constexpr size_t kLookupAhead = 64;  // what a crossing costs there is a few instructions

  // What a step's check must test, fixed for the run by its demand and port model. The
  // check is compiled once per combination -- one set of rules, `if constexpr` leaving out
  // what cannot apply -- so a gossip or total-exchange run on all-port full-duplex routers
  // pays no per-crossing test for a packet kind it has none of, nor for the 1-port and
  // half-duplex rules. Gossip's crossings name their packet's record and its row of `held`
  // outright (`direct` and every packet a broadcast: row = record = origin x seqs + seq),
  // so its check looks nothing up. And once per input: rows, or the ref engine's links.
  enum class Mix {
    Broadcast,  // every packet a broadcast, and `direct`: the crossing names its row outright
    Unicast,    // every packet a unicast
    Mixed,      // anything else: looked up, each record asked which it is
  };
  Mix mix = Mix::Mixed;

  template <class Input>
  void step(int64_t at, const Input& in) {
    next_step(at);
    in_mix([&](auto kMix) {
      constexpr Mix kM = decltype(kMix)::value;
      return plain_ports() ? check<kM, true>(at, in) : check<kM, false>(at, in);
    });
  }
  // All-port full-duplex: no 1-port or half-duplex rule to check.
  bool plain_ports() const { return !model.half_duplex && !model.one_port; }
  void step(int64_t at, const std::vector<TraceEvent>& events) { step(at, Rows{*this, events}); }
  void links(int64_t at, const LinkStep& crossings) {
    check_size(at, crossings);
    step(at, Links{*this, crossings});
  }
  // Steps come in order; a step's links are the network's.
  void next_step(int64_t at) {
    if (at < last_step || at < 1)
      error(fmt::format("trace is not sorted by step: step {} after step {}", at, last_step));
    last_step = std::max(last_step, at);
  }
  void check_size(int64_t at, const LinkStep& crossings) const {
    if (crossings.links != link_node.size())
      throw std::invalid_argument(fmt::format("step {}: {} links handed to the scoreboard of a network of {} links", at,
                                              crossings.links, link_node.size()));
  }

  // Where a pass's failures go: the report (the step checked whole), or a part's list
  // when the step is checked in parts on several threads, merged into the report at the
  // step's end in the whole check's order (key: the crossing, the receptions' after).
  struct Failure {
    size_t key;
    std::string message;
    int64_t unworded_link = -1;  // NotHeld: the link whose "before the next step" middle() decides
    bool operator<(const Failure& o) const { return key < o.key; }
  };
  struct Failures {
    State& board;
    std::vector<Failure>* listed = nullptr;
    int64_t unlisted = 0;  // a part's failures past the listed ones (the report counts them)
    void add(size_t key, std::string message, int64_t unworded_link = -1) {
      if (!listed) return board.error(std::move(message));
      listed->push_back({key, std::move(message), unworded_link});
      if (listed->size() >= 2 * kMaxListedErrors) {  // keep the first by key: those the report lists
        std::stable_sort(listed->begin(), listed->end());
        unlisted += static_cast<int64_t>(listed->size() - kMaxListedErrors);
        listed->resize(kMaxListedErrors);
      }
    }
  };

  // The rules a crossing k from `from` to `to` keeps whatever its packet: its arc exists
  // (else false: nothing more is checked), carries one packet, and on 1-port or
  // half-duplex routers the ports' rules.
  template <bool kPlainPorts, class Input>
  [[gnu::always_inline]] bool arc_rules(int64_t at, const Input& in, size_t k, int from, int to, Failures& failures) {
    // the arc's port only where a rule reads it (rows: found looking for the arc)
    constexpr bool kNeedsPort = Input::kArcsMayRepeat || !kPlainPorts;
    const int port = kNeedsPort ? in.port(k) : 0;
    if (kNeedsPort ? port < 0 : !in.arc(k)) {
      fail(Broken::NoArc, at, in, k, failures);
      return false;
    }
    if constexpr (kNeedsPort) {
      int64_t& arc = arc_used[static_cast<size_t>(from) * ports + static_cast<size_t>(port)];
      if (Input::kArcsMayRepeat && arc == at) fail(Broken::ArcTwice, at, in, k, failures);
      arc = at;
    }
    if constexpr (!kPlainPorts) {
      if (model.half_duplex &&
          arc_used[static_cast<size_t>(to) * ports + static_cast<size_t>(topo.reverse_port(from, port))] == at)
        fail(Broken::BothDirections, at, in, k, failures);
      if (model.one_port) {
        if (sent[static_cast<size_t>(from)] == at) fail(Broken::SendsTwice, at, in, k, failures);
        if (received[static_cast<size_t>(to)] == at) fail(Broken::ReceivesTwice, at, in, k, failures);
        sent[static_cast<size_t>(from)] = received[static_cast<size_t>(to)] = at;
      }
    }
    return true;
  }

  // A listed NotHeld failure worded once the step's crossings are all known (fail()).
  template <class Input>
  static void word_unheld(const Input& in, std::vector<Failure>& failures) {
    for (Failure& f : failures)
      if (f.unworded_link >= 0) {
        const size_t k = static_cast<size_t>(f.unworded_link);
        if (arrives_in_step(in, in.from(k), in.fields(k))) f.message += " before the next step";
        f.unworded_link = -1;
      }
  }

  // A step in three passes over its crossings: (1) each crossing's packet, found once (not
  // where the crossing names it outright); (2) every crossing against what the nodes held
  // when the step began (a packet received in a step cannot leave before the next); (3)
  // the receptions. Passes (1) and (2) take crossings [first, last) (`senders`, or
  // `unicast_crossings` where every packet is a unicast); (3) takes them one by one
  // (`receive`), in crossing order (`check`) or by receiver (`receivers`) -- an all-unicast
  // step checked whole takes each as soon as its crossing passes (`check_unicast`).
  template <Mix kMix, bool kPlainPorts, class Input>
  void check(int64_t at, const Input& in) {
    if constexpr (kMix == Mix::Unicast) {
      check_unicast<kPlainPorts>(at, in);
    } else {
      const size_t m = in.size();
      packet_of.resize(m);
      if constexpr (kMix != Mix::Broadcast) dest_of.resize(m);
      Failures failures{*this};
      const int64_t crossings = senders<kMix, kPlainPorts>(at, in, 0, m, failures);
      int64_t deliveries = 0;
      for (size_t k = 0; k < m; ++k) {  // (3)
        if (k + kLookahead < m) prefetch_reception<kMix>(in, k + kLookahead);
        if (in.present(k) && packet_of[k] >= 0) deliveries += receive<kMix>(at, in, k, failures) ? 1 : 0;
      }
      count_step(at, crossings, deliveries);
    }
  }

  // A step's crossings and deliveries into the report (the last step that delivered).
  void count_step(int64_t at, int64_t crossings, int64_t deliveries) {
    report.crossings += crossings;
    report.deliveries += deliveries;
    if (deliveries > 0) report.steps = std::max(report.steps, at);
  }
  // A step's listed failures into the report in the whole check's order (their keys), and
  // the count of those past the list.
  void report_listed(std::vector<Failure>& listed, int64_t unlisted) {
    std::stable_sort(listed.begin(), listed.end());
    report.error_count += unlisted;
    for (Failure& failure : listed) error(std::move(failure.message));
  }

  // Every packet a unicast, the step checked whole: the three passes in one
  // (unicast_crossings, its receptions at once). Its failures are listed and put in the
  // passes' order at the end.
  template <bool kPlainPorts, class Input>
  void check_unicast(int64_t at, const Input& in) {
    std::vector<Failure> listed;
    Failures failures{*this, &listed};
    const Counts counts = direct ? unicast_crossings<kPlainPorts, true, false>(at, in, 0, in.size(), failures)
                                 : unicast_crossings<kPlainPorts, false, false>(at, in, 0, in.size(), failures);
    count_step(at, counts.crossings, counts.deliveries);
    if (listed.empty()) return;
    word_unheld(in, listed);
    report_listed(listed, failures.unlisted);
  }

  // Passes (1) and (2) over crossings [first, last) of a step whose every packet is a
  // unicast, each crossing's packet found as it is checked, and (3), each reception taken
  // as soon as its crossing passes -- where the step is checked in parts (`kInParts`), only
  // the receptions of the part's own nodes [own_first, own_last): packet_of keeps the
  // record of the others for their receivers' part. A unicast packet's record is all its
  // crossings read and write, so that is safe: a later crossing of it in the step then
  // finds it moved on, or arrived in this step -- refused, as (2) refuses it against the
  // step's start (one crossing of a packet passes a step either way). In parts, a crossing
  // into another part leaves its record moved on in time only (its place is written a
  // phase later), and a crossing of it from another part's node is refused either way.
  // A record is asked for kLookupAhead crossings ahead: named (`kNamed`: `direct`),
  // whatever the link holds, unchecked (a prefetch never faults, and a link not used in the
  // step holds an earlier packet); looked up, by_seq's slot that far ahead and the record
  // kLookahead ahead. Out of line: inlined beside its looked-up twin, its loop kept fewer
  // of its values in registers (line:256: 68 instructions a crossing inlined, 64 out of line).
  struct Counts {
    int64_t crossings = 0, deliveries = 0;
  };
  template <bool kPlainPorts, bool kNamed, bool kInParts, class Input>
  __attribute__((noinline)) Counts unicast_crossings(int64_t at, const Input& in, size_t first, size_t last, Failures& failures,
                                                     int own_first = 0, int own_last = 0) {
    // a copy for the loop: `in` goes to fail() by address, and a local whose address never
    // leaves keeps its members in registers
    const Input view = in;
    const size_t m = view.size();
    const uint64_t since_now = static_cast<uint64_t>(std::max<int64_t>(at, 0));
    // the members the loop reads, as locals (see `view`)
    const size_t node_count = nodes;
    const int64_t seqs = seqs_per_origin;
    Whereabouts* const records = packets.data();
    const uintptr_t record_base = reinterpret_cast<uintptr_t>(records);
    int64_t* const found = packet_of.data();
    const uint32_t own_nodes = static_cast<uint32_t>(own_last - own_first);
    Counts counts;
    for (size_t k = first; k < last; ++k) {
      if constexpr (kNamed) {
        if (k + kLookupAhead < last) {
          const Fields f = view.fields(k + kLookupAhead);
          const uintptr_t slot = static_cast<uintptr_t>(f.origin) * static_cast<uintptr_t>(seqs) + static_cast<uintptr_t>(f.seq);
          __builtin_prefetch(reinterpret_cast<const void*>(record_base + slot * sizeof(Whereabouts)), 1);
        }
      } else {
        if (seqs > 0 && k + kLookupAhead < last && view.present(k + kLookupAhead)) {
          const int64_t slot = dense_slot(view.fields(k + kLookupAhead), node_count, seqs);
          if (slot >= 0) __builtin_prefetch(&by_seq[static_cast<size_t>(slot)]);
        }
        if (k + kLookahead < last && view.present(k + kLookahead)) {
          const int64_t i = candidate(view.fields(k + kLookahead));
          if (i >= 0) __builtin_prefetch(&records[i], 1);
        }
      }
      if (!view.present(k)) continue;
      if constexpr (kInParts) found[k] = -1;  // until it passes into another part
      ++counts.crossings;
      const int from = view.from(k), to = view.to(k);
      if (!arc_rules<kPlainPorts>(at, in, k, from, to, failures)) continue;
      const Fields f = view.fields(k);
      const int64_t i = kNamed ? dense_slot(f, node_count, seqs) : candidate(f);
      if (i < 0 || records[i].dest != f.dest) {
        fail(Broken::NotAPacket, at, in, k, failures);
        continue;
      }
      Whereabouts& w = records[i];
      if (w.place != from || static_cast<int64_t>(w.since) >= at) {
        fail(Broken::NotHeld, at, in, k, failures);
        continue;
      }
      if (from == f.dest) fail(Broken::LeavesDestination, at, in, k, failures);
      w.since = since_now;  // it has left: a second crossing from here in this step finds it gone
      if constexpr (kInParts) {
        if (static_cast<uint32_t>(to - own_first) >= own_nodes) {  // another part's node
          found[k] = i;
          continue;
        }
      }
      w.place = to;  // (3): it moves on
      if (to != f.dest) continue;
      if (w.delivered) {
        fail(Broken::ReceivedAgain, at, in, k, failures, m + k);
        continue;
      }
      w.delivered = 1;
      ++counts.deliveries;
    }
    return counts;
  }

  // Passes (1) and (2) over crossings [first, last) of a step with broadcast packets (every
  // packet one, or some: Mixed); the number of crossings. `receivers_next`: the receptions
  // (3) follow at once on this thread (the whole check), so the receivers' words are asked
  // for here too; checked in parts, another thread may receive them a phase later, and
  // asking would only pull its lines here.
  // `in` by value: the loops' stores (of int64) would otherwise make the compiler read its
  // sizes again after each. Always inlined: left to itself GCC has kept an instance out of
  // line (its unicast one, since replaced by unicast_crossings, ran 4 % slower so).
  template <Mix kMix, bool kPlainPorts, class Input>
  [[gnu::always_inline]] int64_t senders(int64_t at, const Input in, size_t first, size_t last, Failures& failures, bool receivers_next = true) {
    static_assert(kMix != Mix::Unicast, "an all-unicast step is checked by unicast_crossings");
    constexpr bool kNamedOutright = kMix == Mix::Broadcast;
    constexpr bool kMayUnicast = kMix != Mix::Broadcast;
    const int n = topo.num_nodes();
    const size_t m = last;
    const uint64_t since_now = static_cast<uint64_t>(std::max<int64_t>(at, 0));
    if constexpr (!kNamedOutright) {
      for (size_t k = first; k < m; ++k) {  // (1)
        if (seqs_per_origin > 0 && k + kLookupAhead < m && in.present(k + kLookupAhead)) {
          const int64_t slot = dense_slot(in.fields(k + kLookupAhead));
          if (slot >= 0 && direct) __builtin_prefetch(&packets[static_cast<size_t>(slot)], 1);
          if (slot >= 0 && !direct) __builtin_prefetch(&by_seq[static_cast<size_t>(slot)]);
        }
        if (!in.present(k)) continue;
        const int64_t i = candidate(in.fields(k));
        packet_of[k] = i;
        // a load, not a prefetch: the core keeps many of these in flight, and it will not drop them
        dest_of[k] = i >= 0 ? packets[static_cast<size_t>(i)].dest : kNoDest;
      }
    }
    // Named outright: a crossing's row of `held` (-1: none, a broadcast's fields out of
    // range or not a broadcast) is read off its fields in (2) and kept in packet_of as the
    // receiver's word of that row, the one (3) writes (-1 where the crossing was refused).
    // Its words are not asked for ahead: the rows of neighbouring packets share lines, and
    // asking cost more than it saved, even where the bits are far larger than the caches
    // (bench/results.md, "The named check asks for nothing ahead").
    // the members the named check reads, as locals (see `in`)
    const size_t bit_rows = rows, node_count = nodes;
    const int64_t seqs = seqs_per_origin;
    const uint64_t* const bits = held.data();
    auto named_row = [&](size_t k) {
      const Fields f = in.fields(k);
      return f.dest == kBroadcastDest ? dense_slot(f, node_count, seqs) : -1;
    };
    int64_t crossings = 0;
    for (size_t k = first; k < m; ++k) {  // (2)
      if constexpr (!kNamedOutright) {
        if (k + kLookahead < m && in.present(k + kLookahead) && dest_of[k + kLookahead] == kBroadcastDest) {
          const size_t ahead = k + kLookahead;
          const Whereabouts& w = packets[static_cast<size_t>(packet_of[ahead])];
          const int from = in.from(ahead), to = in.to(ahead);
          if (from >= 0 && from < n && to >= 0 && to < n) {
            __builtin_prefetch(&held[held_word(w, static_cast<size_t>(from))]);
            if (receivers_next) __builtin_prefetch(&held[held_word(w, static_cast<size_t>(to))]);
          }
        }
      }
      int64_t& packet = packet_of[k];
      if (!in.present(k)) continue;
      if constexpr (kNamedOutright) packet = named_row(k);
      ++crossings;
      const int from = in.from(k), to = in.to(k);
      const Fields f = in.fields(k);
      if (!arc_rules<kPlainPorts>(at, in, k, from, to, failures)) {
        packet = -1;
        continue;
      }
      if constexpr (kNamedOutright) {
        // found ahead
      } else if (dest_of[k] != f.dest) {
        packet = -1;  // kNoDest where there was no candidate
      }
      if (packet < 0) {
        fail(Broken::NotAPacket, at, in, k, failures);
        continue;
      }
      bool holds_it;
      if constexpr (kNamedOutright) {
        holds_it = holds_row(bits, bit_rows, static_cast<size_t>(packet), static_cast<size_t>(from));
        if (holds_it) packet = static_cast<int64_t>(row_word(static_cast<size_t>(packet), static_cast<size_t>(to), bit_rows));
      } else {
        const Whereabouts& w = packets[static_cast<size_t>(packet)];
        holds_it = w.broadcast() ? holds(w, static_cast<size_t>(from))
                                 : w.place == from && static_cast<int64_t>(w.since) < at;
      }
      if (!holds_it) {
        fail(Broken::NotHeld, at, in, k, failures);
        packet = -1;
        continue;
      }
      if constexpr (kMayUnicast) {
        Whereabouts& w = packets[static_cast<size_t>(packet)];
        if (!w.broadcast()) {
          if (from == f.dest) fail(Broken::LeavesDestination, at, in, k, failures);
          w.since = since_now;  // it has left: a second crossing from here in this step finds it gone
        }
      }
    }
    return crossings;
  }

  // (3) ahead: the word crossing k's reception writes.
  template <Mix kMix, class Input>
  void prefetch_reception(const Input& in, size_t k) {
    if constexpr (kMix == Mix::Broadcast) {
      if (in.present(k) && packet_of[k] >= 0) __builtin_prefetch(&held[static_cast<size_t>(packet_of[k])], 1);
    } else if constexpr (kMix != Mix::Unicast) {
      if (in.present(k) && packet_of[k] >= 0 && dest_of[k] == kBroadcastDest) {
        const Whereabouts& w = packets[static_cast<size_t>(packet_of[k])];
        __builtin_prefetch(&held[held_word(w, static_cast<size_t>(in.to(k)))], 1);
      }
    }
  }

  // (3) for crossing k, passed by (2): whether it delivered.
  template <Mix kMix, class Input>
  bool receive(int64_t at, const Input& in, size_t k, Failures& failures) {
    const uint64_t since_now = static_cast<uint64_t>(std::max<int64_t>(at, 0));
    const int to = in.to(k);
    const size_t i = static_cast<size_t>(packet_of[k]);
    const size_t key = in.size() + k;  // after every failure of (2)
    if constexpr (kMix == Mix::Broadcast) {
      uint64_t& word = held[i];  // the receiver's word, found in (2)
      const uint64_t bit = uint64_t{1} << (static_cast<size_t>(to) % 64);
      if (word & bit) {
        fail(Broken::ReceivedAgain, at, in, k, failures, key);
        return false;
      }
      word |= bit;
    } else {
      Whereabouts& w = packets[i];
      if (kMix == Mix::Unicast || !w.broadcast()) {
        w.place = to;  // a unicast packet moves on
        w.since = since_now;
        if (to != w.dest) return false;
        if (w.delivered) {
          fail(Broken::ReceivedAgain, at, in, k, failures, key);
          return false;
        }
        w.delivered = 1;
      } else if constexpr (kMix != Mix::Unicast) {
        if (holds(w, static_cast<size_t>(to))) {
          fail(Broken::ReceivedAgain, at, in, k, failures, key);
          return false;
        }
        set_held(i, static_cast<size_t>(to));
      }
    }
    return true;
  }

  // A step of links checked in parts on the engine's threads (PacketScoreboard::ranged):
  // begin; senders(part) for every part at once, each after its part's sends; middle;
  // receivers(part) for every part at once, each before its part's arrivals; end. Where
  // the port model is all-port full-duplex only: the other rules keep per-node records
  // that a part's crossings share with another's. Senders take a range of links: (2)
  // reads the bits and writes nothing but a unicast packet's record, from the one link of
  // its holder that passes -- and, where every packet is a unicast, (3) for the crossings
  // into the part's own nodes (the other parts' crossings never name that record in a run
  // that passes, and where one does, it reads a place that refuses it: its holder's or a
  // node of the holder's part). Receivers take a range of nodes from a multiple of 64, so
  // their words of `held` are theirs alone; a unicast packet passes (2) on one link at
  // most, so its record has one writer. (Taking the receptions inside a part at once left
  // the receivers a link or two a step on a line, where they had taken a record apiece:
  // bench/results.md, "The receptions inside a part taken by its senders".)
  // A part's links and nodes, as its senders were given them.
  struct Share {
    size_t first_link = 0, last_link = 0;
    int first_node = 0, last_node = 0;
    bool operator==(const Share& o) const {
      return first_link == o.first_link && last_link == o.last_link && first_node == o.first_node &&
             last_node == o.last_node;
    }
  };
  struct alignas(64) Part {  // a line each: the parts' threads write theirs every step
    std::vector<Failure> failures;
    int64_t unlisted = 0, crossings = 0, deliveries = 0;
    Share share;
  };
  std::vector<Part> parts;
  std::optional<LinkStep> ranged_step;
  int64_t ranged_at = 0;
  // Per node, the links into it, in increasing order -- so that of two crossings bringing
  // a node one packet, the later in link order is the one refused, as the whole check
  // does: in_links[in_first[v] .. in_first[v + 1]).
  std::vector<uint32_t> in_first, in_links;
  // Per part, where every packet is a unicast: the links into its nodes from the other
  // parts' links, the only receptions its senders did not take (unicast_crossings). Made
  // by middle() where a part's share is new (its first step), on the engine's thread (an
  // allocation on a part's thread would give the allocator an arena for it: 2-4 MB).
  struct Inward {
    Share share;
    std::vector<uint32_t> links;
  };
  std::vector<Inward> inward;
  Inward inward_links(const Share& share) const {
    Inward made{share, {}};
    for (uint32_t j = in_first[static_cast<size_t>(share.first_node)]; j < in_first[static_cast<size_t>(share.last_node)]; ++j)
      if (in_links[j] < share.first_link || in_links[j] >= share.last_link) made.links.push_back(in_links[j]);
    return made;
  }
  void begin_parts(int64_t at, const LinkStep& crossings, int count) {
    check_size(at, crossings);
    next_step(at);
    ranged_step = crossings;
    ranged_at = at;
    parts.assign(static_cast<size_t>(count), Part{});
    inward.resize(static_cast<size_t>(count));
    packet_of.resize(crossings.links);
    if (mix == Mix::Mixed) dest_of.resize(crossings.links);
    if (in_first.empty()) {
      in_first.assign(nodes + 1, 0);
      for (int32_t to : link_to)
        if (to >= 0) ++in_first[static_cast<size_t>(to) + 1];
      for (size_t v = 0; v < nodes; ++v) in_first[v + 1] += in_first[v];
      in_links.resize(in_first[nodes]);
      std::vector<uint32_t> next(in_first.begin(), in_first.end() - 1);
      for (size_t link = 0; link < link_to.size(); ++link)
        if (link_to[link] >= 0) in_links[next[static_cast<size_t>(link_to[link])]++] = static_cast<uint32_t>(link);
    }
  }
  template <class F>
  void in_mix(F&& f) {  // f(Mix constant) for this run's mix
    if (mix == Mix::Broadcast) return f(std::integral_constant<Mix, Mix::Broadcast>{});
    if (mix == Mix::Unicast) return f(std::integral_constant<Mix, Mix::Unicast>{});
    return f(std::integral_constant<Mix, Mix::Mixed>{});
  }
  void part_senders(int part, size_t first_link, size_t last_link, int first_node, int last_node) {
    Part& p = parts[static_cast<size_t>(part)];
    Failures failures{*this, &p.failures};
    const Links in{*this, *ranged_step};
    if (mix == Mix::Unicast) {
      const Counts counts =
          direct ? unicast_crossings<true, true, true>(ranged_at, in, first_link, last_link, failures, first_node, last_node)
                 : unicast_crossings<true, false, true>(ranged_at, in, first_link, last_link, failures, first_node, last_node);
      p.crossings = counts.crossings;
      p.deliveries = counts.deliveries;
      p.share = Share{first_link, last_link, first_node, last_node};
    } else {
      in_mix([&](auto kMix) {
        if constexpr (decltype(kMix)::value != Mix::Unicast)
          p.crossings = senders<decltype(kMix)::value, true>(ranged_at, in, first_link, last_link, failures, false);
      });
    }
    p.unlisted += failures.unlisted;
  }
  void middle_parts() {
    const Links in{*this, *ranged_step};
    for (Part& p : parts) word_unheld(in, p.failures);
    if (mix == Mix::Unicast)
      for (size_t k = 0; k < parts.size(); ++k)
        if (!(inward[k].share == parts[k].share)) inward[k] = inward_links(parts[k].share);
  }
  void part_receivers(int part, int first_node, int last_node) {
    if (first_node % 64 != 0 && first_node != static_cast<int>(nodes))
      throw std::logic_error("the scoreboard's receivers are checked in parts from a multiple of 64 nodes");
    Part& p = parts[static_cast<size_t>(part)];
    const uint32_t first = in_first[static_cast<size_t>(first_node)], last = in_first[static_cast<size_t>(last_node)];
    Failures failures{*this, &p.failures};
    const Links in{*this, *ranged_step};
    in_mix([&](auto kMix) {
      constexpr Mix kM = decltype(kMix)::value;
      // every packet a unicast: the links from the other parts only (the rest were taken
      // by this part's senders); else every link into the part's nodes
      const uint32_t* links = in_links.data() + first;
      size_t count = last - first;
      if constexpr (kM == Mix::Unicast) {
        const Inward& own = inward[static_cast<size_t>(part)];
        if (own.share.first_node != first_node || own.share.last_node != last_node)
          throw std::logic_error("the scoreboard's receivers take the nodes their part's senders were given");
        links = own.links.data();
        count = own.links.size();
      }
      int64_t deliveries = 0;
      for (size_t j = 0; j < count; ++j) {
        if (j + kLookahead < count) prefetch_reception<kM>(in, links[j + kLookahead]);
        const size_t k = links[j];
        if (in.present(k) && packet_of[k] >= 0) deliveries += receive<kM>(ranged_at, in, k, failures) ? 1 : 0;
      }
      p.deliveries += deliveries;
    });
    p.unlisted += failures.unlisted;
  }
  void end_parts() {
    std::vector<Failure> failures;
    int64_t crossings = 0, deliveries = 0, unlisted = 0;
    for (Part& p : parts) {
      crossings += p.crossings;
      deliveries += p.deliveries;
      unlisted += p.unlisted;
      for (Failure& f : p.failures) failures.push_back(std::move(f));
    }
    report_listed(failures, unlisted);
    count_step(ranged_at, crossings, deliveries);
    ranged_step.reset();
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
      if (!packets[i].broadcast()) {
        seen = packets[i].since == 0 ? fmt::format("never left node {}", packets[i].place)
                                     : fmt::format("last seen at node {}, step {}", packets[i].place,
                                                   static_cast<int64_t>(packets[i].since));
      } else {
        size_t holders = 0;
        for (size_t v = 0; v < nodes; ++v) holders += holds(packets[i], v) ? 1 : 0;
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
      if (!packets[i].broadcast()) {
        if (!packets[i].delivered) missed(i, static_cast<size_t>(p.dest));
        continue;
      }
      for (size_t node = 0; node < nodes && !all_held; ++node)
        if (!holds(packets[i], node)) missed(i, node);
    }
    if (missing > 0) error(fmt::format("{} needed receptions never happened (first: {})", missing, first));
    return report;
  }
};

PacketScoreboard::PacketScoreboard(const Topology& topology, const PortModel& model, std::vector<DemandPacket> demand)
    : state_(std::make_unique<State>(topology, model, std::move(demand))) {}
PacketScoreboard::~PacketScoreboard() = default;
void PacketScoreboard::step(int64_t step, const std::vector<TraceEvent>& events) { state_->step(step, events); }
void PacketScoreboard::links(int64_t step, const LinkStep& crossings) { state_->links(step, crossings); }
RangedLinkCheck* PacketScoreboard::ranged() { return state_->plain_ports() ? this : nullptr; }
void PacketScoreboard::begin(int64_t step, const LinkStep& crossings, int parts) {
  state_->begin_parts(step, crossings, parts);
}
void PacketScoreboard::senders(int part, size_t first_link, size_t last_link, int first_node, int last_node) {
  state_->part_senders(part, first_link, last_link, first_node, last_node);
}
void PacketScoreboard::middle() { state_->middle_parts(); }
void PacketScoreboard::receivers(int part, int first_node, int last_node) {
  state_->part_receivers(part, first_node, last_node);
}
void PacketScoreboard::end() { state_->end_parts(); }
ScoreboardReport PacketScoreboard::finish() { return state_->finish(); }

ScoreboardReport score_trace(const Topology& topology, const PortModel& model, const std::vector<DemandPacket>& demand,
                             const std::vector<TraceEvent>& trace) {
  PacketScoreboard board(topology, model, demand);
  replay_steps(trace, board);
  return board.finish();
}

}  // namespace fixroute
