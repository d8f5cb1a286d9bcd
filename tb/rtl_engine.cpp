// The `rtl` engine: drives the verilated network tops (rtl/) from the same tables as
// the other engines. It loads each router's memory image through the configuration
// port, resets, runs steps until every router is idle under a watchdog, records the
// trace from the link registers and counts clock cycles (docs/rtl.md).
#include <fmt/format.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

#include <algorithm>
#include <memory>
#include <type_traits>

#include "../sw/errors.h"
#include "../sw/topology.h"
#include "engines.h"
#include "rtl_engine.h"
#include "rtl_models.inc"

namespace fixroute {

namespace {

constexpr int kResetCycles = 4;
constexpr int64_t kWatchdogSteps = 64;  // steps without a crossing while work remains
constexpr int kStepBits = 24;
constexpr int kErrorBits = 3;

// Bits [lsb, lsb+width) of a Verilator output, whatever C type its width gave it.
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
uint64_t bits(T value, unsigned lsb, unsigned width) {
  return (static_cast<uint64_t>(value) >> lsb) & ((width >= 64) ? ~0ull : ((1ull << width) - 1));
}
template <std::size_t W>
uint64_t bits(const VlWide<W>& value, unsigned lsb, unsigned width) {
  uint64_t out = 0;
  for (unsigned b = 0; b < width; ++b) {
    unsigned at = lsb + b;
    out |= static_cast<uint64_t>((value[at / 32] >> (at % 32)) & 1u) << b;
  }
  return out;
}

const char* table_error_name(uint64_t code) {
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

template <class Model>
class RtlRun {
 public:
  RtlRun(const RtlModelInfo& info, const Topology& topo, const std::vector<std::vector<uint32_t>>& images,
         const EngineOptions& opt)
      : info_(info), topo_(topo), images_(images) {
    ctx_ = std::make_unique<VerilatedContext>();
    if (!opt.vcd_path.empty()) ctx_->traceEverOn(true);
    model_ = std::make_unique<Model>(ctx_.get());
    if (!opt.vcd_path.empty()) {
      vcd_ = std::make_unique<VerilatedVcdC>();
      model_->trace(vcd_.get(), 99);
      vcd_->open(opt.vcd_path.c_str());
      if (!vcd_->isOpen()) throw InputError(fmt::format("cannot write waveform '{}'", opt.vcd_path));
    }
  }
  ~RtlRun() {
    if (vcd_) vcd_->close();
    model_->final();
  }

  EngineResult run() {
    EngineResult result;
    int64_t overhead = reset_and_load(result);
    if (!result.failure.empty()) return result;
    const int n = topo_.num_nodes();
    const int ports = info_.ports;
    const unsigned pkt_w = 4u * static_cast<unsigned>(info_.field_w);
    const uint64_t broadcast = (1ull << info_.field_w) - 1;
    int64_t cycles = 0, steps = 0, last_crossing_step = 0;
    while (true) {
      const bool go = model_->step_go;
      if (go) record_max_queue(result);
      tick();
      ++cycles;
      if (!go) continue;
      ++steps;
      for (int i = 0; i < n; ++i) {
        int64_t step = static_cast<int64_t>(bits(model_->step, static_cast<unsigned>(i) * kStepBits, kStepBits));
        if (step != steps) {
          result.failure = fmt::format("router {} is at step {}, the network at step {}", i, step, steps);
          break;
        }
        for (int p = 0; p < ports; ++p) {
          unsigned link = static_cast<unsigned>(i * ports + p);
          if (!bits(model_->link_valid, link, 1)) continue;
          unsigned base = link * pkt_w;
          const unsigned f = static_cast<unsigned>(info_.field_w);
          uint64_t dest = bits(model_->link_data, base + f, f);
          result.trace.push_back({step, i, topo_.neighbour(i, p), static_cast<int>(bits(model_->link_data, base, f)),
                                  dest == broadcast ? kBroadcastDest : static_cast<int>(dest),
                                  static_cast<int>(bits(model_->link_data, base + 2 * f, f))});
          last_crossing_step = step;
        }
      }
      tick();  // the RECEIVE cycle
      ++cycles;
      if (!result.failure.empty()) break;
      if (bits(model_->fault, 0, static_cast<unsigned>(n))) {
        result.failure = fault_report(steps);
        break;
      }
      if (all_idle()) break;
      if (steps - last_crossing_step > kWatchdogSteps) {
        result.failure = fmt::format("watchdog: no packet moved for {} steps (step {}); stuck queues: {}",
                                     kWatchdogSteps, steps, queue_report());
        break;
      }
    }
    result.steps_simulated = steps;
    result.clock_cycles = cycles;
    result.overhead_cycles = overhead;
    sort_trace(result.trace);
    return result;
  }

 private:
  void tick() {
    model_->clk = 0;
    model_->eval();
    if (vcd_) vcd_->dump(time_);
    ++time_;
    model_->clk = 1;
    model_->eval();
    if (vcd_) vcd_->dump(time_);
    ++time_;
  }

  // Reset, then write every router's memory image word by word; every router checks
  // its own table. Returns the cycles spent.
  int64_t reset_and_load(EngineResult& result) {
    int64_t cycles = 0;
    model_->rst = 1;
    model_->cfg_we = 0;
    model_->cfg_done = 0;
    for (int c = 0; c < kResetCycles; ++c, ++cycles) tick();
    model_->rst = 0;
    for (size_t node = 0; node < images_.size(); ++node) {
      const std::vector<uint32_t>& words = images_[node];
      model_->cfg_node = static_cast<uint32_t>(node);
      model_->cfg_we = 1;
      for (size_t a = 0; a < words.size(); ++a, ++cycles) {
        model_->cfg_addr = static_cast<uint32_t>(a);
        model_->cfg_wdata = words[a];
        tick();
      }
    }
    model_->cfg_we = 0;
    model_->cfg_done = 1;
    tick();
    model_->cfg_done = 0;
    tick();  // routers start running on a loaded table
    cycles += 2;
    const int n = topo_.num_nodes();
    for (int i = 0; i < n; ++i)
      if (!bits(model_->table_ok, static_cast<unsigned>(i), 1)) {
        uint64_t code = bits(model_->table_error, static_cast<unsigned>(i) * kErrorBits, kErrorBits);
        result.failure = fmt::format("router {} did not load its table: {}", i, table_error_name(code));
        break;
      }
    return cycles;
  }

  bool all_idle() const {
    for (int i = 0; i < topo_.num_nodes(); ++i)
      if (!bits(model_->idle, static_cast<unsigned>(i), 1)) return false;
    return true;
  }

  unsigned count_bits() const {
    unsigned w = 0;
    while ((1 << w) < info_.depth + 1) ++w;
    return w;
  }

  void record_max_queue(EngineResult& result) const {
    const unsigned w = count_bits();
    for (unsigned q = 0; q < static_cast<unsigned>(topo_.num_nodes() * info_.ports); ++q)
      result.max_queue = std::max<int64_t>(result.max_queue, static_cast<int64_t>(bits(model_->queue_count, q * w, w)));
  }

  std::string queue_report() const {
    const unsigned w = count_bits();
    std::string out;
    for (int i = 0; i < topo_.num_nodes(); ++i)
      for (int p = 0; p < info_.ports; ++p) {
        uint64_t c = bits(model_->queue_count, static_cast<unsigned>(i * info_.ports + p) * w, w);
        if (c) out += fmt::format("{}router {} port {}: {}", out.empty() ? "" : ", ", i, p, c);
      }
    return out.empty() ? "all empty" : out;
  }

  std::string fault_report(int64_t step) const {
    std::string routers;
    for (int i = 0; i < topo_.num_nodes(); ++i)
      if (bits(model_->fault, static_cast<unsigned>(i), 1)) routers += fmt::format("{}{}", routers.empty() ? "" : ", ", i);
    return fmt::format("step {}: fault (queue of depth {} overflowed, or a packet had no forwarding rule) at router(s) {}; queues: {}",
                       step, info_.depth, routers, queue_report());
  }

  const RtlModelInfo& info_;
  const Topology& topo_;
  const std::vector<std::vector<uint32_t>>& images_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t time_ = 0;
};

template <class Model>
EngineResult run_model(const RtlModelInfo& info, const Topology& topo, const std::vector<std::vector<uint32_t>>& images,
                       const EngineOptions& opt) {
  return RtlRun<Model>(info, topo, images, opt).run();
}

}  // namespace

const std::vector<RtlModelInfo>& rtl_models() {
  static const std::vector<RtlModelInfo> models = {
#define FIXROUTE_RTL_MODEL(spec, cls, ports, nodes, depth, mem_words, field_w) \
  {spec, ports, nodes, depth, mem_words, field_w, run_model<cls>},
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

EngineResult run_rtl_images(const Topology& topology, const std::vector<std::vector<uint32_t>>& images,
                            const EngineOptions& options) {
  const RtlModelInfo& m = find_rtl_model(topology);
  if (static_cast<int>(images.size()) != m.nodes)
    throw InputError(fmt::format("{} memory images for the {} routers of {}", images.size(), m.nodes, m.spec));
  for (size_t node = 0; node < images.size(); ++node)
    if (static_cast<int64_t>(images[node].size()) > m.mem_words)
      throw InputError(fmt::format("router {}'s table needs {} words; the verilated {} holds {}", node,
                                   images[node].size(), m.spec, m.mem_words));
  return m.run(m, topology, images, options);
}

EngineResult run_rtl_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options) {
  const RtlModelInfo& m = find_rtl_model(topology);
  const int64_t field_max = (int64_t{1} << m.field_w) - 2;  // all-ones is the broadcast address
  std::vector<std::vector<uint32_t>> images;
  for (const RouterTable& r : tables.routers) {
    for (const InitialPacket& ip : r.initial)
      if (ip.packet.seq > field_max || ip.packet.hops > field_max + 1)
        throw InputError(fmt::format("router {}'s table has a seq or hop count wider than the verilated {}'s {}-bit fields",
                                     r.node, m.spec, m.field_w));
    images.push_back(encode_image(r, topology.num_ports()));
  }
  return run_rtl_images(topology, images, options);
}

namespace {
EngineRegistrar rtl_registrar({"rtl", "Verilog routers verilated into C++ (curated sizes)", run_rtl_engine,
                               [](const Topology& t) {
                                 for (const RtlModelInfo& m : rtl_models())
                                   if (m.spec == t.spec()) return true;
                                 return false;
                               }});
}  // namespace

}  // namespace fixroute
