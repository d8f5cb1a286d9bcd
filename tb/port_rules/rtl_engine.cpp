// The `rtl` engine: drives the verilated network tops (rtl/) from the same tables as
// the other engines. It loads each router's memory image through the configuration
// port, resets, runs steps until every router is idle under a watchdog, records the
// trace from the link registers and counts clock cycles (docs/rtl.md).
#include "tb/port_rules/rtl_engine.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

#include <algorithm>
#include <optional>
#include <type_traits>

#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/topology/topology.h"
#include "sw/core/router_kind.h"
#include "sw/kinds/port_rules/link_step.h"
#include "sw/kinds/port_rules/router_rules.h"
#include "tb/verilated_top.h"
#include "tb/router_array.h"
#include "rtl_models.inc"
#include "rtl_routers.inc"
#include "rtl_sizes.inc"

namespace fixroute {

namespace {

// The packet {hops, seq, dest, origin} at bit `lsb` of a link word, fields `field_w` bits
// wide (dest all-ones, the broadcast address, comes back as kBroadcastDest).
template <typename T>
inline Packet packet_at(const T& link_data, unsigned lsb, unsigned field_w) {
  auto field = [&](unsigned k) { return static_cast<int>(bits(link_data, lsb + k * field_w, field_w)); };
  Packet p{field(0), field(1), field(2), field(3)};
  if (p.dest == (1 << field_w) - 1) p.dest = kBroadcastDest;
  return p;
}


constexpr int64_t kWatchdogCycles = 1 << 16;  // cycles without a step (no step_go)
constexpr unsigned kStepBits = 24;

unsigned count_bits(int depth) {  // $clog2(DEPTH + 1), the width of a queue's count
  unsigned w = 0;
  while ((1 << w) < depth + 1) ++w;
  return w;
}

template <class Model>
class VerilatedDriver : public VerilatedTop<Model, RtlDriver> {
  using VerilatedTop<Model, RtlDriver>::model_;
  using VerilatedTop<Model, RtlDriver>::u;

 public:
  explicit VerilatedDriver(const RtlModelInfo& info) : info_(info), count_bits_(count_bits(info.sizes.depth)) {}

  bool step_go() const override { return model_->step_go; }
  bool idle(int node) const override { return bits(model_->idle, u(node), 1); }
  bool fault(int node) const override { return bits(model_->fault, u(node), 1); }
  int64_t step(int node) const override { return static_cast<int64_t>(bits(model_->step, u(node) * kStepBits, kStepBits)); }
  int queue_count(int node, int port) const override {
    return static_cast<int>(bits(model_->queue_count, link(node, port) * count_bits_, count_bits_));
  }
  bool link_valid(int node, int port) const override { return bits(model_->link_valid, link(node, port), 1); }
  Packet link_packet(int node, int port) const override {
    const unsigned f = static_cast<unsigned>(info_.sizes.field_w);
    return packet_at(model_->link_data, link(node, port) * 4 * f, f);
  }

 private:
  unsigned link(int node, int port) const { return u(node * info_.ports + port); }

  const RtlModelInfo info_;
  const unsigned count_bits_;
};

// RtlDriver::append_crossings and idle_and_faults for `Driver`: a router array calls them
// on its own final class, so the per-router and per-port reads are inlined.
template <class Driver>
int step_crossings(const Driver& rtl, int64_t step, const Topology& topology, const std::vector<uint32_t>& send_order,
                   const FaultInjector* faults, std::vector<TraceEvent>& out) {
  const int nodes = topology.num_nodes(), ports = topology.num_ports();
  for (int i = 0; i < nodes; ++i) {
    if (faults && faults->stuck(i, step)) continue;  // frozen at its stuck step, sends nothing
    if (rtl.step(i) != step) return i;
    const uint64_t valid = rtl.valid_links(i, ports);
    if (valid == 0) continue;
    for (int k = 0; k < ports; ++k) {
      const int p = static_cast<int>(send_order[static_cast<size_t>(i * ports + k)]);
      if ((valid >> p) & 1) append_crossing(out, step, i, topology.neighbour(i, p), rtl.link_packet(i, p));
    }
  }
  return -1;
}
template <class Driver>
bool idle_routers_and_faults(const Driver& rtl, int nodes, std::vector<int>& faulty) {
  bool all_idle = true;
  for (int i = 0; i < nodes; ++i) {
    if (rtl.fault(i)) faulty.push_back(i);
    all_idle = all_idle && rtl.idle(i);
  }
  return all_idle;
}

// A network of fr_router builds wired from the topology (router_array.h); the AND of the
// routers' ready is step_go, as in fr_grid_top.
template <class Model>
class PortRuleRouterArray final : public RouterArray<Model, RtlDriver> {
  using Array = RouterArray<Model, RtlDriver>;
  using Array::router;
  using Array::routers_;

 public:
  PortRuleRouterArray(const RtlModelInfo& info, const Topology& topology)
      : Array(topology, 4 * static_cast<unsigned>(info.sizes.field_w)), info_(info), count_bits_(count_bits(info.sizes.depth)) {
    this->data_where_valid_ = true;  // fr_router looks at in_data only under in_valid
    this->ask_arrives_ = false;      // until faults are injected
    for (int i = 0; i < topology.num_nodes(); ++i)
      for (int p = 0; p < topology.num_ports(); ++p) neighbour_.push_back(topology.neighbour(i, p));
  }

  void tick() override {
    Array::tick();
    go_ = true;  // step_go for the next edge, read by the harness and by global_inputs
    for (const auto& r : routers_) go_ = go_ && r->ready;
  }
  bool step_go() const override { return go_; }
  bool idle(int node) const override { return router(node).idle; }
  bool fault(int node) const override { return router(node).fault; }
  int64_t step(int node) const override { return static_cast<int64_t>(router(node).step); }
  int queue_count(int node, int port) const override {
    return static_cast<int>(bits(router(node).queue_count, static_cast<unsigned>(port) * count_bits_, count_bits_));
  }
  int max_queue_count(int /*nodes*/, int ports) const override {
    int most = 0;
    for (const auto& r : routers_)
      for (int p = 0; p < ports; ++p)
        most = std::max(most, static_cast<int>(bits(r->queue_count, static_cast<unsigned>(p) * count_bits_, count_bits_)));
    return most;
  }
  uint64_t valid_links(int node, int ports) const override {
    if (faults_) return RtlDriver::valid_links(node, ports);
    return static_cast<uint64_t>(router(node).out_valid);
  }
  // What arrives: a packet a fault takes was sent but is not on the link.
  bool link_valid(int node, int port) const override {
    if (!bits(router(node).out_valid, static_cast<unsigned>(port), 1)) return false;
    return !faults_ || !faults_->loses(static_cast<int64_t>(router(node).step), node,
                                       neighbour_[static_cast<size_t>(node * info_.ports + port)]);
  }
  Packet link_packet(int node, int port) const override {
    const unsigned f = static_cast<unsigned>(info_.sizes.field_w);
    if constexpr (is_wide<std::remove_reference_t<decltype(router(node).out_data)>>::value) {
      if (f == 16) {  // every array build: a packet is two whole words of the link
        const auto& data = router(node).out_data;
        const uint32_t low = data[2 * static_cast<unsigned>(port)], high = data[2 * static_cast<unsigned>(port) + 1];
        Packet p{static_cast<int>(low & 0xFFFF), static_cast<int>(low >> 16), static_cast<int>(high & 0xFFFF),
                 static_cast<int>(high >> 16)};
        if (p.dest == 0xFFFF) p.dest = kBroadcastDest;
        return p;
      }
    }
    return packet_at(router(node).out_data, static_cast<unsigned>(port) * 4 * f, f);
  }
  int append_crossings(int64_t step, const Topology& topology, const std::vector<uint32_t>& send_order,
                       const FaultInjector* faults, std::vector<TraceEvent>& out) const override {
    return step_crossings(*this, step, topology, send_order, faults, out);
  }
  bool idle_and_faults(int nodes, std::vector<int>& faulty) const override {
    return idle_routers_and_faults(*this, nodes, faulty);
  }
  bool takes_faults() const override { return true; }
  void inject(FaultInjector* faults) override {
    faults_ = faults;
    this->ask_arrives_ = faults != nullptr;
  }
  // The forward-mask bit of in-port q's rule word, by back-door (the configuration port
  // takes words only before cfg_done): in the table's port registers and in their
  // transposed copy the out-port queues read (fr_table_mem's out_rules).
  void flip_forward_bit(int node, int in_port, int out_port) override {
    auto& root = *router(node).rootp;
    root.fr_router__DOT__u_table__DOT__port_regs[static_cast<size_t>(3 * in_port)] ^= 1u << out_port;
    using Rules = std::remove_reference_t<decltype(root.fr_router__DOT__out_rules)>;
    root.fr_router__DOT__out_rules ^= static_cast<Rules>(Rules{1} << (out_port * info_.ports + in_port));
  }

 private:
  void global_inputs() override {
    for (size_t i = 0; i < routers_.size(); ++i) {
      Model& r = *routers_[i];
      r.step_go = go_ && !(faults_ && faults_->stuck(static_cast<int>(i), static_cast<int64_t>(r.step)));
    }
  }
  bool arrives(const Model& sender, int from, unsigned port, int to) override {
    if (!faults_) return true;
    const unsigned f = static_cast<unsigned>(info_.sizes.field_w);
    const Packet p = packet_at(sender.out_data, port * 4 * f, f);
    return faults_->arrives(static_cast<int64_t>(sender.step), from, to, p.origin, p.dest, p.seq);
  }

  const RtlModelInfo info_;
  const unsigned count_bits_;
  bool go_ = false;  // AND of every router's ready after the last edge
  FaultInjector* faults_ = nullptr;
  std::vector<int> neighbour_;  // per (node, port)
};

std::string queue_report(const RtlDriver& rtl, const RtlModelInfo& m) {
  std::string out;
  for (int i = 0; i < m.nodes; ++i)
    for (int p = 0; p < m.ports; ++p)
      if (int c = rtl.queue_count(i, p)) out += fmt::format("{}router {} port {}: {}", out.empty() ? "" : ", ", i, p, c);
  return out.empty() ? "all empty" : out;
}

}  // namespace

int RtlDriver::append_crossings(int64_t step, const Topology& topology, const std::vector<uint32_t>& send_order,
                                const FaultInjector* faults, std::vector<TraceEvent>& out) const {
  return step_crossings(*this, step, topology, send_order, faults, out);
}
bool RtlDriver::idle_and_faults(int nodes, std::vector<int>& faulty) const {
  return idle_routers_and_faults(*this, nodes, faulty);
}

EngineResult rtl_run_loaded(RtlDriver& rtl, const RtlModelInfo& m, const Topology& topo, const EngineOptions& options) {
  EngineResult result;
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  if (faults && !rtl.takes_faults())
    throw InputError(fmt::format("--fault: the verilated {} wires its links in Verilog; faults need a router array", m.spec));
  if (faults) rtl.inject(faults);
  rtl.set_threads(array_threads(options));
  auto flip_due = [&](int64_t step) {  // before the step's RECEIVE cycle, as on every engine
    if (faults)
      for (const Fault& f : faults->flips_at(step)) rtl.flip_forward_bit(f.a, f.in_port, f.out_port);
  };
  flip_due(1);
  StepRecorder<TraceEvent> recorder(options);
  result.streamed = recorder.streamed();
  std::vector<TraceEvent> crossings;  // this step's, sorted, handed on as the run goes
  std::vector<int> faulty;            // the routers with a fault after a step
  // Each router's ports in the order of the neighbours they lead to: its crossings come
  // out in trace order (by from, then to), and sorting them only checks that.
  const std::vector<uint32_t> send_order = topo.ports_by_neighbour();
  int64_t cycles = 0, steps = 0, last_crossing_step = 0, cycles_without_step = 0;
  while (true) {
    const bool go = rtl.step_go();
    if (go) result.max_queue = std::max<int64_t>(result.max_queue, rtl.max_queue_count(m.nodes, m.ports));
    rtl.tick();
    ++cycles;
    if (!go) {
      if (++cycles_without_step > kWatchdogCycles) {
        result.failure = fmt::format("watchdog: no step started for {} clock cycles (step {}): a router is never ready",
                                     kWatchdogCycles, steps);
        break;
      }
      continue;
    }
    cycles_without_step = 0;
    ++steps;
    crossings.clear();
    if (const int behind = rtl.append_crossings(steps, topo, send_order, faults, crossings); behind >= 0)
      result.failure = fmt::format("router {} is at step {}, the network at step {}", behind, rtl.step(behind), steps);
    if (!crossings.empty()) last_crossing_step = steps;
    sort_trace(crossings);
    recorder.record(steps, crossings);
    rtl.tick();  // the RECEIVE cycle
    ++cycles;
    flip_due(steps + 1);
    if (!result.failure.empty()) break;
    faulty.clear();
    const bool all_idle = rtl.idle_and_faults(m.nodes, faulty);
    if (!faulty.empty()) {
      result.failure = fmt::format(
          "step {}: fault (queue of depth {} overflowed, or a packet had no forwarding rule) at router(s) {}; queues: {}",
          steps, m.sizes.depth, fmt::join(faulty, ", "), queue_report(rtl, m));
      break;
    }
    if (all_idle) break;
    if (router_rules::watchdog_fires(steps, last_crossing_step)) {
      result.failure = router_rules::watchdog_failure(steps, queue_report(rtl, m));
      break;
    }
  }
  result.steps_simulated = steps;
  result.clock_cycles = cycles;
  result.trace = recorder.take_trace();
  return result;
}

const std::vector<std::string>& rtl_curated_sizes() {
  static const std::vector<std::string> sizes = {FIXROUTE_RTL_CURATED_SIZES};
  return sizes;
}

const std::vector<RtlModelInfo>& rtl_models() {
  static const std::vector<RtlModelInfo> models = {
#define FIXROUTE_RTL_MODEL(spec, cls, ports, nodes, depth, addr_w, entries, switches, furthest_first, field_w)     \
  {spec, ports, nodes, {depth, addr_w, entries, switches, furthest_first != 0, field_w},                          \
   [](const RtlModelInfo& info) -> std::unique_ptr<RtlDriver> { return std::make_unique<VerilatedDriver<cls>>(info); }, \
   fmt::format("fr_grid_top {} ({})", spec,                                                                       \
               RtlRouterSizes{depth, addr_w, entries, switches, furthest_first != 0, field_w}.text())},
      FIXROUTE_RTL_MODELS(FIXROUTE_RTL_MODEL)
#undef FIXROUTE_RTL_MODEL
  };
  return models;
}

const RtlModelInfo& find_rtl_model(const Topology& topology) {
  std::string built;
  for (const RtlModelInfo& m : rtl_models()) {
    if (m.spec == topology.spec()) return m;
    built += (built.empty() ? "" : ", ") + m.spec;
  }
  throw InputError(fmt::format("the rtl engine has no verilated {}; built sizes: {} (add sizes in rtl/CMakeLists.txt)",
                               topology.spec(), built));
}

const std::vector<RtlRouterBuild>& rtl_router_builds() {
  static const std::vector<RtlRouterBuild> builds = {
#define FIXROUTE_RTL_ROUTER(cls, ports, depth, addr_w, entries, switches, furthest_first, field_w)            \
  {ports, {depth, addr_w, entries, switches, furthest_first != 0, field_w},                                 \
   [](const RtlModelInfo& info, const Topology& topology) -> std::unique_ptr<RtlDriver> {                   \
     return std::make_unique<PortRuleRouterArray<cls>>(info, topology);                                   \
   }},
#define FIXROUTE_RTL_XBAR_ROUTER(...)
      FIXROUTE_RTL_ROUTERS(FIXROUTE_RTL_ROUTER, FIXROUTE_RTL_XBAR_ROUTER)
#undef FIXROUTE_RTL_ROUTER
#undef FIXROUTE_RTL_XBAR_ROUTER
  };
  return builds;
}

namespace {

// What the tables need of a router.
struct TableNeeds {
  int64_t words = 0;     // the largest memory image
  int64_t entries = 0;   // the most initial packets of one router
  int64_t switches = 0;  // the most tap switch steps of one port
  bool taps = false;            // a port taps
  bool furthest_first = false;  // a port's queue pops furthest-first
  int64_t field = 0;     // the largest node id, seq or hop count a field must hold
  int64_t depth = 0;     // the largest queue
};

TableNeeds table_needs(const Topology& topology, const NetworkTables& tables, int64_t depth) {
  TableNeeds needs;
  needs.field = topology.num_nodes() - 1;
  needs.depth = depth;
  for (const RouterTable& r : tables.routers) {
    for (const InitialPacket& ip : r.initial) needs.field = std::max<int64_t>({needs.field, ip.packet.seq, ip.packet.hops - 1});
    needs.entries = std::max<int64_t>(needs.entries, static_cast<int64_t>(r.initial.size()));
    for (const PortRule& p : r.ports) {
      needs.switches = std::max<int64_t>(needs.switches, static_cast<int64_t>(p.switch_steps.size()));
      needs.taps = needs.taps || p.tap_first >= 0 || p.tap_second >= 0 || !p.switch_steps.empty();
      needs.furthest_first = needs.furthest_first || p.discipline == Discipline::FurthestFirst;
    }
    needs.words = std::max<int64_t>(needs.words, table_bits(r, topology.num_ports()) / 32);
  }
  return needs;
}

// Why a router of these sizes cannot run the tables, or "" when it can. All-ones is the
// broadcast address, so a field holds values up to 2^field_w - 2 (a hop count one more).
std::string misfit(const TableNeeds& needs, const RtlRouterSizes& s) {
  const int64_t field_max = (int64_t{1} << s.field_w) - 2;
  if (needs.field > field_max)
    return fmt::format("node ids, seq or hop counts up to {} do not fit {}-bit fields", needs.field, s.field_w);
  if (needs.words > (int64_t{1} << s.addr_w))
    return fmt::format("images of {} words, the configuration port takes {}", needs.words, int64_t{1} << s.addr_w);
  if (needs.entries > s.entry_words)
    return fmt::format("{} initial packets in a router, the table holds {}", needs.entries, s.entry_words);
  if (needs.taps && s.switch_words == 0) return "out-port taps, the routers have none";
  if (needs.switches > s.switch_words)
    return fmt::format("{} switch steps on a port, the table holds {}", needs.switches, s.switch_words);
  if (needs.furthest_first && !s.furthest_first) return "furthest-first queues, the routers' are FIFO";
  if (needs.depth > s.depth) return fmt::format("queues of {} packets, the routers hold {}", needs.depth, s.depth);
  return "";
}

// A build's cost, to take the smallest that fits: its table and queue bits, and the
// furthest-first selection as one more queue's worth.
int64_t router_bits(int ports, const RtlRouterSizes& s) {
  const int64_t queue = int64_t{s.depth} * 4 * s.field_w;
  return int64_t{s.entry_words} * 96 + int64_t{ports} * (int64_t{s.switch_words} * 24 + queue * (s.furthest_first ? 2 : 1));
}

}  // namespace

std::string RtlRouterSizes::text() const {
  return fmt::format("DEPTH={}, ENTRY_WORDS={}, {}, FURTHEST_FIRST={}, ADDR_W={}, FIELD_W={}", depth, entry_words,
                     switch_words == 0 ? std::string("TAPS=0") : fmt::format("SWITCH_WORDS={}", switch_words),
                     furthest_first ? 1 : 0, addr_w, field_w);
}

RtlModelInfo rtl_array_model(const Topology& topology, const NetworkTables& tables, int64_t depth) {
  const TableNeeds needs = table_needs(topology, tables, depth);
  const RtlRouterBuild* best = nullptr;
  std::string built;
  for (const RtlRouterBuild& b : rtl_router_builds()) {
    built += fmt::format("{}{}:{}:{}:{}:{}", built.empty() ? "" : " ", b.ports, b.sizes.depth, b.sizes.entry_words,
                         b.sizes.switch_words, b.sizes.furthest_first ? "ff" : "fifo");
    if (b.ports != topology.num_ports() || !misfit(needs, b.sizes).empty()) continue;
    if (!best || router_bits(b.ports, b.sizes) < router_bits(best->ports, best->sizes)) best = &b;
  }
  if (!best)
    throw InputError(fmt::format(
        "no verilated router holds the tables of {}: they need {} ports, queues of {}{}, {} initial packets, {} switch "
        "steps per port{}, fields up to {}; built (ports:depth:entries:switches:queues): {} (add one to "
        "FIXROUTE_RTL_ROUTER_BUILDS in rtl/CMakeLists.txt)",
        topology.spec(), topology.num_ports(), needs.depth, needs.furthest_first ? " (furthest-first)" : "", needs.entries,
        needs.switches, needs.taps ? " (taps)" : "", needs.field, built));
  RtlModelInfo info{topology.spec(), best->ports, topology.num_nodes(), best->sizes, nullptr,
                    fmt::format("fr_router array (P={}, {})", best->ports, best->sizes.text())};
  info.make = [make = best->make_array, topology](const RtlModelInfo& m) { return make(m, topology); };
  return info;
}

RtlModelInfo rtl_model_for(const Topology& topology, const NetworkTables& tables, const FaultInjector* faults,
                           bool waveform) {
  // The queue depth the tables need is what the reference routers' queues reach (their
  // crossings are not kept), under the same faults (a fresh copy of the injector).
  struct Discard : PacketSink {
    void step(int64_t, const std::vector<TraceEvent>&) override {}
  } discard;
  std::optional<FaultInjector> probe;
  if (faults && faults->any()) probe.emplace(*faults);
  EngineOptions options;
  options.sink = &discard;
  options.keep_trace = false;
  options.faults = probe ? &*probe : nullptr;
  const int64_t depth = run_ref_engine(topology, tables, options).max_queue;
  if (needs_router_array(faults, waveform)) return rtl_array_model(topology, tables, depth);
  for (const RtlModelInfo& m : rtl_models())
    if (m.spec == topology.spec() && misfit(table_needs(topology, tables, depth), m.sizes).empty()) return m;
  return rtl_array_model(topology, tables, depth);
}

std::vector<std::vector<uint32_t>> rtl_images(const RtlModelInfo& m, const Topology& topology,
                                              const NetworkTables& tables) {
  if (std::string why = misfit(table_needs(topology, tables, 0), m.sizes); !why.empty())
    throw InputError(fmt::format("the verilated {} ({}) cannot run these tables: {}", m.spec, m.hardware, why));
  std::vector<std::vector<uint32_t>> images;
  for (const RouterTable& r : tables.routers) images.push_back(encode_image(r, topology.num_ports()));
  return images;
}


EngineResult run_rtl_model(const RtlModelInfo& m, const Topology& topology,
                           const std::vector<std::vector<uint32_t>>& images, const EngineOptions& options) {
  if (static_cast<int>(images.size()) != m.nodes)
    throw InputError(fmt::format("{} memory images for the {} routers of {}", images.size(), m.nodes, m.spec));
  std::unique_ptr<RtlDriver> rtl = m.make(m);
  rtl->set_threads(array_threads(options));  // the load's clocks too
  if (!options.vcd_path.empty()) rtl->open_vcd(options.vcd_path, options.waveform);
  int64_t overhead = rtl_reset_and_load(*rtl, images) + 1;
  rtl->tick();  // the routers start on their loaded tables
  for (int i = 0; i < m.nodes; ++i)
    if (!rtl->table_ok(i)) {
      EngineResult failed;
      failed.failure = fmt::format("router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      failed.overhead_cycles = overhead;
      return failed;
    }
  EngineResult result = rtl_run_loaded(*rtl, m, topology, options);
  result.overhead_cycles = overhead;
  result.hardware = m.hardware;
  return result;
}

EngineResult run_rtl_images(const Topology& topology, const std::vector<std::vector<uint32_t>>& images,
                            const EngineOptions& options) {
  return run_rtl_model(find_rtl_model(topology), topology, images, options);
}

EngineResult run_rtl_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options) {
  const RtlModelInfo m = rtl_model_for(topology, tables, options.faults, !options.vcd_path.empty());
  return run_rtl_model(m, topology, rtl_images(m, topology, tables), options);
}

namespace {

const KindRoutersRegistrar rtl_port_rules(
    KindRouters::of(kPortRulesKind, "rtl")
        .supporting([](const Topology& t) {
          return in_curated_sizes(rtl_curated_sizes(), t);
        })
        .taking_faults().streaming().at_most(2e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& o) {
          return port_rules_output(
              run_rtl_engine(topology, as_kind<NetworkTables>(t), o));
        }));

}  // namespace

}  // namespace fixroute
