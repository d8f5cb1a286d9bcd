#include "sw/kinds/port_rules/ref_routers.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "sw/kinds/port_rules/port_queue.h"
#include "sw/engines/step_threads.h"
#include "sw/core/faults.h"
#include "sw/kinds/port_rules/router_rules.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// A run that has not drained after this many steps is reported as stuck.
constexpr int64_t kMaxSteps = int64_t{1} << 26;

// A run in which no packet crossed a link for this many steps, every release done, is
// reported as stuck (the rtl and systemc harnesses' watchdog).

// A range of routers, the queues of their ports and what their step did: what one thread
// of a step owns (all the routers where the run is not split).
struct alignas(64) RouterRange {  // a line each: the ranges' threads write theirs every step
  int first = 0, last = 0;  // routers [first, last)
  size_t slot0 = 0;         // the first router's first slot
  std::optional<PortQueues> queues;  // its routers' slots, indexed from slot0
  int64_t queued = 0;                 // packets this step added to the network's queues (pushes - pops)
  int64_t max_queue = 0;
  bool crossed = false;  // some packet crossed a link this step
  std::string failure;   // a stranded packet: the range's first
};

// What a step is compiled for (run_ref_engine's `plain`, PortQueues::all()).
template <bool plain, PortQueues::All all>
struct StepShape {
  static constexpr bool kPlain = plain;
  static constexpr PortQueues::All kAll = all;
};

}  // namespace

EngineResult run_ref_engine(const Topology& topology, const NetworkTables& given, const EngineOptions& options) {
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  // A flipped table bit changes the router's table from its step on: a copy to change.
  std::optional<NetworkTables> flipped;
  if (faults && faults->has_flips()) flipped = given;
  const NetworkTables& tables = flipped ? *flipped : given;
  const int n = topology.num_nodes();
  const size_t ports = static_cast<size_t>(topology.num_ports());
  const size_t slots = static_cast<size_t>(n) * ports;  // one per (node, port): index node * ports + port
  EngineResult result;
  int64_t queued = 0;  // packets in all queues, plus those not yet released
  int64_t last_release = 0;  // no router releases anything after this step
  for (const RouterTable& r : tables.routers) {
    for (const InitialPacket& ip : r.initial) {
      last_release = std::max<int64_t>(last_release, ip.release);
    }
    queued += static_cast<int64_t>(r.initial.size());
  }
  // The tables and the wiring as flat arrays per (node, port), read every step.
  std::vector<PortQueues::Kind> kinds(slots);
  std::vector<int32_t> send_period(slots), send_phase(slots), neighbour(slots);
  if (slots > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw std::length_error(fmt::format("ref engine: {} ports in all; it takes fewer than 2^31", slots));
  std::vector<int32_t> sender(slots, -1);  // in-port (node, port): the slot of the out-port across the link
  std::vector<uint32_t> forward_mask(slots);     // in-port (node, port): its rule's forward_mask
  std::vector<uint8_t> taps(static_cast<size_t>(n), 0);  // a router some port of which taps (the arrivals' slow path)
  // Tables whose every port sends in every step, with no taps, in a run without faults
  // (gossip's Hamiltonian cycles, the total exchanges): the step compiled without the tests
  // these never pass (StepShape).
  bool plain = faults == nullptr;
  for (int i = 0; i < n; ++i)
    for (size_t p = 0; p < ports; ++p) {
      const size_t s = static_cast<size_t>(i) * ports + p;
      const PortRule& rule = tables.routers[static_cast<size_t>(i)].ports[p];
      forward_mask[s] = rule.forward_mask;
      if (rule.taps()) taps[static_cast<size_t>(i)] = 1;
      plain = plain && !rule.taps() && rule.send_period == 1 && rule.send_phase == 0;
      kinds[s] = rule.discipline == Discipline::Fifo ? PortQueues::Kind::Fifo : PortQueues::Kind::FurthestFirst;
      send_period[s] = rule.send_period;
      send_phase[s] = rule.send_phase;
      neighbour[s] = topology.neighbour(i, static_cast<int>(p));
      if (neighbour[s] >= 0)
        sender[s] = neighbour[s] * static_cast<int32_t>(ports) +
                    topology.reverse_port(i, static_cast<int>(p));
    }
  // A sink that takes a step as links reads the wires themselves after the sends (the
  // scoreboard: no row per crossing); rows are made then only for a kept trace. Any other
  // sink gets the step's rows. Where it can check a step in parts, the step's threads do
  // (`checking_threads`), else its own thread or the engine's.
  LinkStepSink* link_sink = dynamic_cast<LinkStepSink*>(options.sink);
  if (link_sink && !link_sink->takes_links()) link_sink = nullptr;
  RangedLinkCheck* ranged =
      link_sink && !faults && options.checking_threads >= 2 && n >= 2 ? link_sink->ranged() : nullptr;
  // The routers in contiguous ranges, one per thread (`threads`; one where faults are
  // injected: the injector records what it takes in order).
  const int parts = faults ? 1 : std::clamp(ranged ? options.checking_threads : options.threads, 1, std::max(1, n));
  std::vector<RouterRange> ranges(static_cast<size_t>(parts));
  for (int k = 0; k < parts; ++k) {
    RouterRange& r = ranges[static_cast<size_t>(k)];
    // checked in parts: from multiples of 64 nodes (the scoreboard's receivers' words apart)
    auto bound = [&](int part) {
      const int64_t at = static_cast<int64_t>(n) * part / parts;
      return static_cast<int>(part == parts || !ranged ? at : at / 64 * 64);
    };
    r.first = bound(k);
    r.last = bound(k + 1);
    r.slot0 = static_cast<size_t>(r.first) * ports;
    r.queues.emplace(std::vector<PortQueues::Kind>(kinds.begin() + static_cast<std::ptrdiff_t>(r.slot0),
                                                   kinds.begin() + static_cast<std::ptrdiff_t>(r.last) * static_cast<std::ptrdiff_t>(ports)));
    size_t released = 0;
    for (int i = r.first; i < r.last; ++i) released += tables.routers[static_cast<size_t>(i)].initial.size();
    r.queues->expect(released);
  }
  std::vector<size_t> next_release(static_cast<size_t>(n), 0);  // initial packets are in release order
  const std::vector<uint32_t> send_order = topology.ports_by_neighbour();  // per router its ports by neighbour id

  // wire[slot]: the packet the out-port sends in this step, where on_wire[slot]
  std::vector<Packet> wire(slots);
  std::vector<uint8_t> on_wire(slots, 0);
  StepRecorder<TraceEvent> recorder(options);
  result.streamed = link_sink != nullptr || recorder.streamed();
  std::vector<TraceEvent> crossings;  // this step's rows, where a sink takes rows

  // (1) releases (a stuck router still releases in the step it stops at, as the hardware
  // does), then (2) sends onto the wires, each router's ports taken in the order of the
  // neighbours they lead to (trace order, by from and then to: the order a fault injector
  // is asked in; the step's rows are made from the wires, append_link_rows) -- plain
  // tables, where nothing is asked per send, in slot order. A router's releases and sends
  // touch only its own queues.
  // The step's shape: plain tables (above) or not, and what all queues are where alike.
  // Compiled for plain tables with each kind of queues, and for any other tables.
  using All = PortQueues::All;
  auto release_and_send = [&](RouterRange& range, int64_t step, auto shape) {
    constexpr bool kPlain = decltype(shape)::kPlain;
    constexpr All kAll = decltype(shape)::kAll;
    PortQueues& queues = *range.queues;
    range.queued = 0;
    range.crossed = false;
    for (int i = range.first; i < range.last && step <= last_release; ++i) {
      if (!kPlain && faults && faults->stuck(i, step - 1)) continue;
      const std::vector<InitialPacket>& initial = tables.routers[static_cast<size_t>(i)].initial;
      size_t& next = next_release[static_cast<size_t>(i)];
      while (next < initial.size() && initial[next].release == step) {
        const InitialPacket& ip = initial[next++];
        const size_t q = static_cast<size_t>(i) * ports + static_cast<size_t>(ip.out_port) - range.slot0;
        range.max_queue = std::max<int64_t>(range.max_queue, queues.push<kAll>(q, ip.packet));
      }
    }
    // The arrays as local pointers: on_wire's stores are of a char type, which may alias
    // anything, so the compiler would reload every vector's data after each of them.
    const uint32_t* const order = send_order.data();
    const int32_t* const period = send_period.data();
    const int32_t* const phase = send_phase.data();
    const int32_t* const across = neighbour.data();
    Packet* const link_packet = wire.data();
    uint8_t* const link_used = on_wire.data();
    // and what the loop reads of the captured references, in locals for the same reason
    const size_t nports = ports, slot0 = range.slot0;
    int64_t pops = 0, sent = 0;
    if constexpr (kPlain) {
      // Plain tables: every port sends whenever its queue holds a packet and nothing is
      // asked in between, so the order of a router's sends changes nothing -- the range's
      // ports in slot order, each wire written whether used or not (no clearing first).
      const size_t last = static_cast<size_t>(range.last) * nports;
      for (size_t s = slot0; s < last; ++s) {
        const size_t q = s - slot0;
        const bool sends = !queues.empty<kAll>(q);
        link_used[s] = sends ? 1 : 0;
        if (!sends) continue;
        link_packet[s] = queues.pop<kAll>(q);
        ++pops;
      }
      sent = pops;
    } else {
      // every wire of the range empty before its sends (the last step's arrivals only read
      // them: a store of a char type there would make the compiler reload every array)
      std::memset(link_used + range.slot0, 0, static_cast<size_t>(range.last - range.first) * ports);
      for (int i = range.first; i < range.last; ++i) {
        if (faults && faults->stuck(i, step)) continue;
        const size_t s0 = static_cast<size_t>(i) * nports;
        for (size_t k = 0; k < nports; ++k) {
          const size_t s = s0 + order[s0 + k], q = s - slot0;
          if (queues.empty<kAll>(q) || !router_rules::may_send(period[s], phase[s], step)) continue;
          const Packet pkt = queues.pop<kAll>(q);
          ++pops;
          // a packet a fault takes leaves its sender and never arrives: no crossing
          if (faults && !faults->arrives(step, i, across[s], pkt.origin, pkt.dest, pkt.seq)) continue;
          link_packet[s] = pkt;
          link_used[s] = 1;
          ++sent;
        }
      }
    }
    range.queued -= pops;
    range.crossed = sent > 0;
    if (ranged)
      ranged->senders(static_cast<int>(&range - ranges.data()), range.slot0, static_cast<size_t>(range.last) * ports,
                      range.first, range.last);
  };
  // (3) arrivals, in in-port order: a router takes what crossed into it (each out-port has
  // one receiver) and queues it on its own ports.
  auto arrive = [&](RouterRange& range, int64_t step, auto shape) {
    constexpr bool kPlain = decltype(shape)::kPlain;
    constexpr All kAll = decltype(shape)::kAll;
    PortQueues& queues = *range.queues;
    // local pointers and counters, as in the sends (the arrivals store no chars: the
    // senders clear their wires)
    const int32_t* const from_slot = sender.data();
    const Packet* const link_packet = wire.data();
    const uint8_t* const link_used = on_wire.data();
    const uint32_t* const masks = forward_mask.data();
    const uint8_t* const tapping = taps.data();
    // the check's receivers with the arrivals (the wires keep the step's packets until the
    // next step's sends clear them)
    if (ranged) ranged->receivers(static_cast<int>(&range - ranges.data()), range.first, range.last);
    // locals the loop keeps in registers (captured by reference, they would be read again
    // after every store of a packet's ints)
    const size_t nports = ports, slot0 = range.slot0;
    int64_t pushes = 0;
    uint32_t longest = 0;  // the longest queue a push left
    for (int i = range.first; i < range.last; ++i) {
      const size_t s0 = static_cast<size_t>(i) * nports;
      for (size_t q = 0; q < nports; ++q) {
        const int32_t from = from_slot[s0 + q];
        if (from < 0 || !link_used[from]) continue;
        const Packet& pkt = link_packet[from];  // read in place (a copy would be made on the stack)
        auto push = [&](int out, const Packet& copy) {
          longest = std::max(longest, queues.push<kAll>(s0 + static_cast<size_t>(out) - slot0, copy));
          ++pushes;
        };
        const router_rules::Arrival what =
            !kPlain && tapping[i]
                ? router_rules::handle_arrival(pkt, i, tables.routers[static_cast<size_t>(i)].ports, static_cast<int>(q),
                                               step, push)
                : router_rules::handle_arrival_without_taps(pkt, i, masks[s0 + q], push);
        if (what == router_rules::Arrival::Stranded) {
          range.failure = router_rules::stranded_message(step, i, pkt, static_cast<int>(q));
          i = range.last;  // the range's first stranded packet ends its arrivals
          break;
        }
      }
    }
    range.queued = pushes;
    range.max_queue = std::max<int64_t>(range.max_queue, longest);
  };
  std::optional<StepThreads> threads;
  if (parts > 1) threads.emplace(parts);
  auto each_range = [&](const auto& phase, int64_t step) {
    auto run = [&](RouterRange& range) {
      if (!plain) return phase(range, step, StepShape<false, All::Mixed>{});
      switch (range.queues->all()) {
        case All::Fifo: return phase(range, step, StepShape<true, All::Fifo>{});
        case All::FurthestFirst: return phase(range, step, StepShape<true, All::FurthestFirst>{});
        case All::Mixed: return phase(range, step, StepShape<true, All::Mixed>{});
      }
    };
    if (!threads) {
      run(ranges.front());
      return;
    }
    threads->run([&](int k) { run(ranges[static_cast<size_t>(k)]); });
  };

  int64_t step = 0, last_crossing_step = 0;
  while (queued > 0) {
    ++step;
    if (step > kMaxSteps) {
      result.failure = fmt::format("still {} packets queued after {} steps", queued, kMaxSteps);
      break;
    }
    if (step > last_release && router_rules::watchdog_fires(step - 1, last_crossing_step)) {
      std::string queues_held;
      for (const RouterRange& r : ranges)
        for (size_t s = r.slot0; s < static_cast<size_t>(r.last) * ports; ++s)
          if (!r.queues->empty(s - r.slot0))
            queues_held += fmt::format("{}router {} port {}: {}", queues_held.empty() ? "" : ", ", s / ports, s % ports,
                                       r.queues->size(s - r.slot0));
      result.failure = router_rules::watchdog_failure(step - 1, queues_held);
      --step;
      break;
    }
    if (flipped)
      for (const Fault& f : faults->flips_at(step)) {
        router_rules::apply_flip(*flipped, f);
        const size_t s = static_cast<size_t>(f.a) * ports + static_cast<size_t>(f.in_port);
        forward_mask[s] = flipped->routers[static_cast<size_t>(f.a)].ports[static_cast<size_t>(f.in_port)].forward_mask;
      }
    if (ranged) ranged->begin(step, LinkStep{wire.data(), on_wire.data(), slots}, parts);
    each_range(release_and_send, step);
    for (const RouterRange& r : ranges) {
      queued += r.queued;
      if (r.crossed) last_crossing_step = step;
    }
    const LinkStep links{wire.data(), on_wire.data(), slots};
    if (link_sink) {
      if (options.keep_trace) append_link_rows(topology, send_order, step, links, result.trace);
      if (ranged) {  // checked in parts: the senders with the sends, the receivers with the arrivals
        ranged->middle();
      } else {
        link_sink->links(step, links);
      }
    } else {
      append_link_rows(topology, send_order, step, links, crossings);  // the links in trace order
      recorder.record_and_clear(step, crossings);
    }
    each_range(arrive, step);
    if (ranged) ranged->end();
    for (const RouterRange& r : ranges) {
      queued += r.queued;
      result.max_queue = std::max(result.max_queue, r.max_queue);
    }
    for (const RouterRange& r : ranges)
      if (!r.failure.empty()) {  // the lowest router's, as one thread would find it
        result.failure = r.failure;
        break;
      }
    if (!result.failure.empty()) break;
  }
  result.steps_simulated = step;
  if (!link_sink) result.trace = recorder.take_trace();
  return result;  // sorted: steps in order, each sorted
}

}  // namespace fixroute
