// The waveform of a verilated model (run --vcd, docs/cli.md "Waveforms"): a VCD dumped only
// within the window of clock cycles asked (--vcd-from, --vcd-to) through a file that stops
// growing one byte past --max-output, so a run whose dump would be too large is refused
// by its size (run_case) without filling the disk first.
#pragma once
#include <fmt/format.h>
#include <verilated_vcd_c.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "sw/core/errors.h"
#include "sw/core/router_kind.h"

namespace fixroute {

// Writes at most `max_bytes` + 1 bytes (0: no limit); the rest is dropped.
class CappedVcdFile final : public VerilatedVcdFile {
 public:
  explicit CappedVcdFile(int64_t max_bytes) : max_(max_bytes) {}
  ssize_t write(const char* bufp, ssize_t len) override {
    if (max_ <= 0) return VerilatedVcdFile::write(bufp, len);
    const int64_t room = std::max<int64_t>(0, max_ + 1 - written_);
    const ssize_t taken = static_cast<ssize_t>(std::min<int64_t>(room, len));
    if (taken > 0) written_ += VerilatedVcdFile::write(bufp, taken);
    return len;
  }

 private:
  int64_t max_;
  int64_t written_ = 0;
};

class VerilatedWaveform {
 public:
  // Opens the dump at `path`; `trace(VerilatedVcdC*)` adds the models to it.
  template <class Trace>
  void open(const std::string& path, const WaveformLimits& limits, Trace trace) {
    file_ = std::make_unique<CappedVcdFile>(limits.max_bytes);
    vcd_ = std::make_unique<VerilatedVcdC>(file_.get());
    trace(vcd_.get());
    vcd_->open(path.c_str());
    if (!vcd_->isOpen()) throw InputError(fmt::format("cannot write waveform '{}'", path));
    // Time counts half cycles: cycle c is times 2c (falling edge) and 2c + 1 (rising).
    from_ = static_cast<uint64_t>(std::max<int64_t>(0, limits.from_cycle)) * 2;
    to_ = limits.to_cycle < 0 ? UINT64_MAX : static_cast<uint64_t>(limits.to_cycle) * 2 + 1;
  }
  explicit operator bool() const { return vcd_ != nullptr; }
  void dump(uint64_t time) {
    if (time >= from_ && time <= to_) vcd_->dump(time);
  }
  void close() {
    if (vcd_) vcd_->close();
  }

 private:
  std::unique_ptr<CappedVcdFile> file_;  // outlives vcd_, which writes through it
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t from_ = 0, to_ = UINT64_MAX;
};

}  // namespace fixroute
