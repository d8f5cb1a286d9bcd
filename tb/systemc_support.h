// Helpers for SystemC runs: one elaboration per process, the clock, VCD files.
#pragma once
#include <systemc>

#include <string>

namespace fixroute {

inline const sc_core::sc_time kClockPeriod(10, sc_core::SC_NS);

// SystemC elaborates once per process (E529 on a second run): the second call throws a
// clear error instead.
void claim_systemc_elaboration();

// An sc_trace VCD file at exactly `path` (SystemC appends ".vcd" itself); closed on
// destruction. No file when `path` is empty.
class VcdFile {
 public:
  explicit VcdFile(const std::string& path);
  ~VcdFile();
  VcdFile(const VcdFile&) = delete;
  VcdFile& operator=(const VcdFile&) = delete;
  sc_core::sc_trace_file* file() const { return file_; }

 private:
  sc_core::sc_trace_file* file_ = nullptr;
};

}  // namespace fixroute
