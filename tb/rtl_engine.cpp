// The `rtl` engine: drives the verilated network tops (rtl/) from the same tables as
// the other engines. It loads each router's memory image through the configuration
// port, resets, runs steps until every router is idle under a watchdog, records the
// trace from the link registers and counts clock cycles (docs/rtl.md).
#include "rtl_engine.h"

#include <fmt/format.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

#include <algorithm>
#include <type_traits>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "sw/tables/xbar_tables.h"
#include "sw/core/router_kind.h"
#include "xbar_rtl.h"
#include "verilated_top.h"
#include "rtl_models.inc"

namespace fixroute {

namespace {

constexpr int kResetCycles = 4;
constexpr int64_t kWatchdogSteps = 64;  // steps without a crossing while work remains
constexpr int64_t kWatchdogCycles = 1 << 16;  // cycles without a step (no step_go)
constexpr unsigned kStepBits = 24;

template <class Model>
class VerilatedDriver : public VerilatedTop<Model, RtlDriver> {
  using VerilatedTop<Model, RtlDriver>::model_;
  using VerilatedTop<Model, RtlDriver>::u;

 public:
  explicit VerilatedDriver(const RtlModelInfo& info) : info_(info) {
    unsigned w = 0;
    while ((1 << w) < info_.depth + 1) ++w;
    count_bits_ = w;
  }

  bool step_go() const override { return model_->step_go; }
  bool idle(int node) const override { return bits(model_->idle, u(node), 1); }
  bool fault(int node) const override { return bits(model_->fault, u(node), 1); }
  int64_t step(int node) const override { return static_cast<int64_t>(bits(model_->step, u(node) * kStepBits, kStepBits)); }
  int queue_count(int node, int port) const override {
    return static_cast<int>(bits(model_->queue_count, link(node, port) * count_bits_, count_bits_));
  }
  bool link_valid(int node, int port) const override { return bits(model_->link_valid, link(node, port), 1); }
  Packet link_packet(int node, int port) const override {
    const unsigned f = static_cast<unsigned>(info_.field_w);
    const unsigned base = link(node, port) * 4 * f;
    auto field = [&](unsigned k) { return static_cast<int>(bits(model_->link_data, base + k * f, f)); };
    Packet p{field(0), field(1), field(2), field(3)};
    if (p.dest == (1 << info_.field_w) - 1) p.dest = kBroadcastDest;
    return p;
  }

 private:
  unsigned link(int node, int port) const { return u(node * info_.ports + port); }

  const RtlModelInfo& info_;
  unsigned count_bits_ = 1;
};

std::string queue_report(const RtlDriver& rtl, const RtlModelInfo& m) {
  std::string out;
  for (int i = 0; i < m.nodes; ++i)
    for (int p = 0; p < m.ports; ++p)
      if (int c = rtl.queue_count(i, p)) out += fmt::format("{}router {} port {}: {}", out.empty() ? "" : ", ", i, p, c);
  return out.empty() ? "all empty" : out;
}

}  // namespace

EngineResult rtl_run_loaded(RtlDriver& rtl, const RtlModelInfo& m, const Topology& topo) {
  EngineResult result;
  int64_t cycles = 0, steps = 0, last_crossing_step = 0, cycles_without_step = 0;
  while (true) {
    const bool go = rtl.step_go();
    if (go)
      for (int i = 0; i < m.nodes; ++i)
        for (int p = 0; p < m.ports; ++p) result.max_queue = std::max<int64_t>(result.max_queue, rtl.queue_count(i, p));
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
    for (int i = 0; i < m.nodes && result.failure.empty(); ++i) {
      if (rtl.step(i) != steps) {
        result.failure = fmt::format("router {} is at step {}, the network at step {}", i, rtl.step(i), steps);
        break;
      }
      for (int p = 0; p < m.ports; ++p) {
        if (!rtl.link_valid(i, p)) continue;
        Packet pkt = rtl.link_packet(i, p);
        result.trace.push_back({steps, i, topo.neighbour(i, p), pkt.origin, pkt.dest, pkt.seq});
        last_crossing_step = steps;
      }
    }
    rtl.tick();  // the RECEIVE cycle
    ++cycles;
    if (!result.failure.empty()) break;
    std::string faulty;
    bool all_idle = true;
    for (int i = 0; i < m.nodes; ++i) {
      if (rtl.fault(i)) faulty += fmt::format("{}{}", faulty.empty() ? "" : ", ", i);
      all_idle = all_idle && rtl.idle(i);
    }
    if (!faulty.empty()) {
      result.failure = fmt::format(
          "step {}: fault (queue of depth {} overflowed, or a packet had no forwarding rule) at router(s) {}; queues: {}",
          steps, m.depth, faulty, queue_report(rtl, m));
      break;
    }
    if (all_idle) break;
    if (steps - last_crossing_step > kWatchdogSteps) {
      result.failure = fmt::format("watchdog: no packet moved for {} steps (step {}); queues: {}", kWatchdogSteps,
                                   steps, queue_report(rtl, m));
      break;
    }
  }
  result.steps_simulated = steps;
  result.clock_cycles = cycles;
  sort_trace(result.trace);
  return result;
}

const char* rtl_table_error_name(int code) {
  switch (code) {
    case 1: return "bad magic word";
    case 2: return "unsupported version";
    case 3: return "wrong port count";
    case 4: return "wrong length";
    case 5: return "checksum mismatch";
    case 6: return "words written out of order or past the table memory";
    default: return "unknown";
  }
}

const std::vector<RtlModelInfo>& rtl_models() {
  static const std::vector<RtlModelInfo> models = {
#define FIXROUTE_RTL_MODEL(spec, cls, ports, nodes, depth, mem_words, field_w)            \
  {spec, ports, nodes, depth, mem_words, field_w, [](const RtlModelInfo& info) -> std::unique_ptr<RtlDriver> { \
     return std::make_unique<VerilatedDriver<cls>>(info);                                  \
   }},
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

std::vector<std::vector<uint32_t>> rtl_images(const RtlModelInfo& m, const Topology& topology,
                                              const NetworkTables& tables) {
  const int64_t field_max = (int64_t{1} << m.field_w) - 2;  // all-ones is the broadcast address
  std::vector<std::vector<uint32_t>> images;
  for (const RouterTable& r : tables.routers) {
    for (const InitialPacket& ip : r.initial)
      if (ip.packet.seq > field_max || ip.packet.hops > field_max + 1)
        throw InputError(fmt::format("router {}'s table has a seq or hop count wider than the verilated {}'s {}-bit fields",
                                     r.node, m.spec, m.field_w));
    images.push_back(encode_image(r, topology.num_ports()));
    if (static_cast<int64_t>(images.back().size()) > m.mem_words)
      throw InputError(fmt::format("router {}'s table needs {} words; the verilated {} holds {}", r.node,
                                   images.back().size(), m.spec, m.mem_words));
  }
  return images;
}

int64_t rtl_reset_and_load(RtlConfigPort& rtl, const std::vector<std::vector<uint32_t>>& images) {
  int64_t cycles = 0;
  rtl.set_reset(true);
  rtl.set_config(0, false, 0, 0, false);
  for (int c = 0; c < kResetCycles; ++c, ++cycles) rtl.tick();
  rtl.set_reset(false);
  for (size_t node = 0; node < images.size(); ++node)
    for (size_t a = 0; a < images[node].size(); ++a, ++cycles) {
      rtl.set_config(static_cast<int>(node), true, static_cast<uint32_t>(a), images[node][a], false);
      rtl.tick();
    }
  rtl.set_config(0, false, 0, 0, true);
  rtl.tick();
  rtl.set_config(0, false, 0, 0, false);
  return cycles + 1;
}

EngineResult run_rtl_images(const Topology& topology, const std::vector<std::vector<uint32_t>>& images,
                            const EngineOptions& options) {
  const RtlModelInfo& m = find_rtl_model(topology);
  if (static_cast<int>(images.size()) != m.nodes)
    throw InputError(fmt::format("{} memory images for the {} routers of {}", images.size(), m.nodes, m.spec));
  std::unique_ptr<RtlDriver> rtl = m.make(m);
  if (!options.vcd_path.empty()) rtl->open_vcd(options.vcd_path);
  int64_t overhead = rtl_reset_and_load(*rtl, images) + 1;
  rtl->tick();  // the routers start on their loaded tables
  for (int i = 0; i < m.nodes; ++i)
    if (!rtl->table_ok(i)) {
      EngineResult failed;
      failed.failure = fmt::format("router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      failed.overhead_cycles = overhead;
      return failed;
    }
  EngineResult result = rtl_run_loaded(*rtl, m, topology);
  result.overhead_cycles = overhead;
  return result;
}

EngineResult run_rtl_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options) {
  return run_rtl_images(topology, rtl_images(find_rtl_model(topology), topology, tables), options);
}

namespace {
const EngineRegistrar rtl_engine({"rtl", "Verilog routers verilated into C++ (curated sizes)", false});

const KindRoutersRegistrar rtl_port_rules({kPortRulesKind, "rtl",
                                           [](const Topology& t) {
                                             for (const RtlModelInfo& m : rtl_models())
                                               if (m.spec == t.spec()) return true;
                                             return false;
                                           },
                                           [](const Topology& topology, const Tables& t, const EngineOptions& o) {
                                             return port_rules_output(
                                                 run_rtl_engine(topology, as_kind<NetworkTables>(t), o));
                                           }});

const KindRoutersRegistrar rtl_crossbars({kCrossbarKind, "rtl",
                                          [](const Topology& t) { return find_xbar_model(t) != nullptr; },
                                          [](const Topology& mesh, const Tables& t, const EngineOptions& o) {
                                            return crossbar_output(run_xbar_rtl(mesh, as_kind<XbarTables>(t), o));
                                          }});
}  // namespace

}  // namespace fixroute
