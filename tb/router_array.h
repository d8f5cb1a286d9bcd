// A network of single verilated routers (rtl/port_rules/fr_router.v or rtl/crossbar/fr_xbar_router.v, each
// verilated on its own as the top) wired by the harness from any topology's adjacency:
// in-port q of router i receives what neighbour(i, q) sends on reverse_port(i, q), as the
// curated network tops wire it in Verilog. One clock edge of the network is every router's
// inputs taken from its neighbours' link registers, then every router's falling and rising
// edge. Each router keeps its own configuration port, so all tables load in the same cycles
// (docs/rtl.md, "Any network"). With set_threads(N), N threads share each clock, each a
// contiguous range of routers: a router's inputs come from the copy every router keeps of
// its link registers as the last clock left them, so what any router sees is what it sees
// on one thread.
#pragma once
#include <fmt/format.h>
#include <verilated.h>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sw/core/errors.h"
#include "tb/verilated_waveform.h"
#include "sw/engines/step_threads.h"
#include "sw/topology/topology.h"
#include "verilated_top.h"

namespace fixroute {

// Writes bits [lsb, lsb+width) of a Verilator port (width <= 32 for wide ports).
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline void set_bits(T& port, unsigned lsb, unsigned width, uint64_t value) {
  const uint64_t mask = ((width >= 64) ? ~0ull : ((1ull << width) - 1)) << lsb;
  port = static_cast<T>((static_cast<uint64_t>(port) & ~mask) | ((value << lsb) & mask));
}
template <std::size_t W>
inline void set_bits(VlWide<W>& port, unsigned lsb, unsigned width, uint64_t value) {
  for (unsigned done = 0; done < width;) {  // at most one 32-bit word at a time
    const unsigned bit = lsb + done, word = bit / 32, shift = bit % 32;
    const unsigned n = std::min(width - done, 32 - shift);
    const uint32_t mask = static_cast<uint32_t>(((n >= 32) ? 0xFFFFFFFFull : ((1ull << n) - 1)) << shift);
    port[word] = (port[word] & ~mask) | (static_cast<uint32_t>((value >> done) << shift) & mask);
    done += n;
  }
}

template <typename T>
struct is_wide : std::false_type {};
template <std::size_t W>
struct is_wide<VlWide<W>> : std::true_type {};

// Whether a verilated model's root (its generated ___024root.h included) shows the value of
// `clk` its last eval() saw (Verilator 5's __Vtrigrprev__TOP__clk). Where it does, a clock
// of routers whose logic is all on the rising edge takes one eval() instead of two: the
// falling edge's eval runs nothing of theirs, only Verilator's edge bookkeeping, so the
// harness sets that bookkeeping to "clk was 0" and evaluates the rising edge. Where the
// model does not show it (another Verilator, or a root header not included), two evals.
template <class Model, class = void>
struct shows_last_clk : std::false_type {};
template <class Model>
struct shows_last_clk<Model, std::void_t<decltype(std::declval<Model&>().rootp->__Vtrigrprev__TOP__clk)>>
    : std::true_type {};

// Clock, reset, configuration ports, waveform and the neighbour wiring of an array of
// `Model` routers (both router modules name their links in_valid, in_data, out_valid,
// out_data); Interface is RtlDriver or XbarRtlDriver. A kind's driver adds the network's
// one AND gate (step_go or start) and reads its routers' outputs.
template <class Model, class Interface>
class RouterArray : public Interface {
 public:
  // link_bits: the width of one port's slice of in_data / out_data.
  RouterArray(const Topology& topology, unsigned link_bits)
      : ctx_(std::make_unique<VerilatedContext>()), ports_(topology.num_ports()), link_bits_(link_bits) {
    ctx_->traceEverOn(true);
    const int n = topology.num_nodes();
    routers_.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) routers_.push_back(std::make_unique<Model>(ctx_.get(), fmt::format("router{}", i).c_str()));
    sources_.assign(static_cast<size_t>(n) * static_cast<size_t>(ports_), Source{});
    for (int i = 0; i < n; ++i)
      for (int q = 0; q < ports_; ++q)
        if (int j = topology.neighbour(i, q); j >= 0)
          sources_[link(i, q)] = {routers_[static_cast<size_t>(j)].get(), static_cast<unsigned>(topology.reverse_port(i, q)), j};
  }
  ~RouterArray() override {
    vcd_.close();
    for (auto& r : routers_) r->final();
  }

  void tick() override {
    // Every input is read from the link registers before any router takes the edge.
    global_inputs();
    if (threads_ && !vcd_) {
      // One phase a clock: each thread takes its routers' inputs from the link registers
      // as the last clock left them (a copy each router made of its own), then evaluates
      // their edge and copies their new link registers for the next clock.
      const std::vector<Links>& before = links_[time_ / 2 % 2];
      std::vector<Links>& after = links_[(time_ / 2 + 1) % 2];
      threads_->run([this, &before, &after](int part) {
        for (size_t i = part_begin(part); i < part_begin(part + 1); ++i) {
          Model& r = *routers_[i];
          connect(static_cast<int>(i), [&before](const Source& s) -> const Links& { return before[static_cast<size_t>(s.node)]; });
          rising_edge(r);
          keep_links(after[i], r);
        }
      });
      time_ += 2;
      return;
    }
    for (size_t i = 0; i < routers_.size(); ++i) connect(static_cast<int>(i), [](const Source& s) -> const Model& { return *s.router; });
    if (!vcd_) {  // a waveform dumps both levels
      for (auto& r : routers_) rising_edge(*r);
      time_ += 2;
      return;
    }
    for (int level = 0; level < 2; ++level) {
      for (auto& r : routers_) edge(*r, level);
      if (vcd_) vcd_.dump(time_);
      ++time_;
    }
    if (threads_) save_links();  // a waveform's clocks on one thread: the copies kept current
  }
  // Without faults only (the harness's fault hooks read the routers on one thread); a
  // waveform evaluates on the calling thread.
  void set_threads(int threads) override {
    const int parts = std::clamp(threads, 1, static_cast<int>(routers_.size()));
    if (parts == (threads_ ? threads_->parts() : 1)) return;
    threads_ = parts > 1 ? std::make_unique<StepThreads>(parts) : nullptr;
    if (threads_) save_links();
  }
  void set_reset(bool on) override {
    for (auto& r : routers_) r->rst = on;
  }
  bool config_port_per_router() const override { return true; }
  void set_config(int node, bool write, uint32_t addr, uint32_t data, bool done) override {
    Model& r = router(node);
    r.cfg_we = write;
    r.cfg_addr = addr;
    r.cfg_wdata = data;
    r.cfg_done = done;
  }
  bool table_ok(int node) const override { return router(node).table_ok; }
  int table_error(int node) const override { return router(node).table_error; }
  void open_vcd(const std::string& path, const WaveformLimits& limits) override {
    vcd_.open(path, limits, [&](VerilatedVcdC* vcd) { for (auto& r : routers_) r->trace(vcd, 99); });
  }

 protected:
  // Sets the inputs every router shares (the top's AND gate) from the routers' outputs.
  virtual void global_inputs() = 0;
  // Whether what `sender` (node `from`) drives on `port` reaches node `to` (fault injection).
  virtual bool arrives(const Model& /*sender*/, int /*from*/, unsigned /*port*/, int /*to*/) { return true; }

  Model& router(int node) const { return *routers_[static_cast<size_t>(node)]; }

  // Set by a kind whose routers read a link's data only where the link is valid: the
  // harness then copies only those links' data (half a clock's copies, or more, skipped).
  bool data_where_valid_ = false;
  // Whether arrives() may keep a packet off its link; a kind clears it while it injects no
  // faults (a call per packet saved).
  bool ask_arrives_ = true;

 private:
  struct Source {  // the neighbour's out-port that an in-port receives
    const Model* router = nullptr;  // none: a border port, its inputs stay zero
    unsigned port = 0;
    int node = -1;
  };
  size_t link(int node, int port) const { return static_cast<size_t>(node) * static_cast<size_t>(ports_) + static_cast<size_t>(port); }

  static void edge(Model& r, int level) {
    r.clk = static_cast<uint8_t>(level);
    r.eval();
  }
  // A whole clock of a router: falling then rising edge (shows_last_clk: the rising alone).
  static void rising_edge(Model& r) {
    if constexpr (shows_last_clk<Model>::value) {
      r.rootp->__Vtrigrprev__TOP__clk = 0;
      edge(r, 1);
    } else {
      edge(r, 0);
      edge(r, 1);
    }
  }
  // The first router of part k of the threads (k = parts: one past the last router).
  size_t part_begin(int k) const { return routers_.size() * static_cast<size_t>(k) / static_cast<size_t>(threads_->parts()); }

  // The link registers of one router, as the last clock left them (threaded ticks).
  struct Links {
    std::remove_reference_t<decltype(std::declval<Model&>().out_valid)> out_valid{};
    std::remove_reference_t<decltype(std::declval<Model&>().out_data)> out_data{};
  };
  void save_links() {
    for (std::vector<Links>& copy : links_) copy.resize(routers_.size());
    std::vector<Links>& now = links_[time_ / 2 % 2];
    for (size_t i = 0; i < routers_.size(); ++i) keep_links(now[i], *routers_[i]);
  }
  static void keep_links(Links& copy, const Model& r) {
    copy.out_valid = r.out_valid;
    copy.out_data = r.out_data;
  }

  // Router i's link inputs from its neighbours' link registers: sender(source) is the
  // neighbour's model, or its Links copy (the same out_valid and out_data).
  template <class Sender>
  void connect(int i, const Sender& sender) {
    Model& r = router(i);
    uint64_t valid = 0;
    for (int q = 0; q < ports_; ++q) {
      const Source& s = sources_[link(i, q)];
      if (!s.router) continue;
      const auto& from = sender(s);
      if (bits(from.out_valid, s.port, 1) && (!ask_arrives_ || arrives(*s.router, s.node, s.port, i)))
        valid |= uint64_t{1} << q;
      else if (data_where_valid_ && !vcd_)
        continue;  // the router reads no data where the link is not valid (a waveform shows it all)
      if constexpr (is_wide<std::remove_reference_t<decltype(r.in_data)>>::value) {
        if (link_bits_ % 32 == 0) {  // whole words: copied as they are
          const unsigned words = link_bits_ / 32;
          for (unsigned w = 0; w < words; ++w) r.in_data[static_cast<unsigned>(q) * words + w] = from.out_data[s.port * words + w];
          continue;
        }
      }
      for (unsigned b = 0; b < link_bits_; b += 32) {
        const unsigned w = std::min(32u, link_bits_ - b);
        set_bits(r.in_data, static_cast<unsigned>(q) * link_bits_ + b, w, bits(from.out_data, s.port * link_bits_ + b, w));
      }
    }
    r.in_valid = static_cast<std::remove_reference_t<decltype(r.in_valid)>>(valid);
  }

  // Declared first: the routers and the waveform are destroyed before their context.
  std::unique_ptr<VerilatedContext> ctx_;
  const int ports_;

 protected:
  std::vector<std::unique_ptr<Model>> routers_;

 private:
  const unsigned link_bits_;
  std::vector<Source> sources_;
  VerilatedWaveform vcd_;
  uint64_t time_ = 0;
  std::unique_ptr<StepThreads> threads_;  // none: the calling thread evaluates every router
  std::vector<Links> links_[2];           // threaded ticks: read one, write the other, by clock
};

}  // namespace fixroute
