// What every verilated-top driver shares: reading fields out of Verilator's port types,
// and the clock, reset and configuration port of a top with the ports clk, rst, cfg_node,
// cfg_we, cfg_addr, cfg_wdata, cfg_done, table_ok, table_error. The network tops are
// verilated without waveform code (rtl/CMakeLists.txt): a run with a waveform takes the
// router array of the same routers instead.
#pragma once
#include <fmt/format.h>
#include <verilated.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sw/core/errors.h"
#include "tb/verilated_waveform.h"  // WaveformLimits

namespace fixroute {

// Bits [lsb, lsb+width) of a Verilator port, whatever C type its width gave it.
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
inline uint64_t bits(T value, unsigned lsb, unsigned width) {
  return (static_cast<uint64_t>(value) >> lsb) & ((width >= 64) ? ~0ull : ((1ull << width) - 1));
}
template <std::size_t W>
inline uint64_t bits(const VlWide<W>& value, unsigned lsb, unsigned width) {  // width <= 32
  const unsigned word = lsb / 32, shift = lsb % 32;
  uint64_t both = value[word];
  if (word + 1 < W) both |= static_cast<uint64_t>(value[word + 1]) << 32;
  return (both >> shift) & ((1ull << width) - 1);
}

// The RtlConfigPort part of a driver (Interface derives from RtlConfigPort) for Model.
template <class Model, class Interface>
class VerilatedTop : public Interface {
 public:
  VerilatedTop() : ctx_(std::make_unique<VerilatedContext>()) {
    model_ = std::make_unique<Model>(ctx_.get());
  }
  ~VerilatedTop() override { model_->final(); }
  void tick() override {
    for (int level = 0; level < 2; ++level) {  // falling, then rising edge
      model_->clk = level;
      model_->eval();
    }
  }
  void set_reset(bool on) override { model_->rst = on; }
  void set_config(int node, bool write, uint32_t addr, uint32_t data, bool done) override {
    model_->cfg_node = static_cast<uint32_t>(node);
    model_->cfg_we = write;
    model_->cfg_addr = addr;
    model_->cfg_wdata = data;
    model_->cfg_done = done;
  }
  bool table_ok(int node) const override { return bits(model_->table_ok, u(node), 1); }
  int table_error(int node) const override { return static_cast<int>(bits(model_->table_error, u(node) * 3, 3)); }
  void open_vcd(const std::string& /*path*/, const WaveformLimits& /*limits*/) override {
    throw std::logic_error("a network top has no waveform code: a run with --vcd takes the router array");
  }

 protected:
  static unsigned u(int v) { return static_cast<unsigned>(v); }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
};

}  // namespace fixroute
