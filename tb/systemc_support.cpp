#include "systemc_support.h"

#include <stdexcept>

#include "sw/core/errors.h"

namespace fixroute {

void claim_systemc_elaboration() {
  static bool claimed = false;
  if (claimed) throw std::logic_error("SystemC elaborates once per process: run one SystemC simulation per process");
  claimed = true;
  // sc_stop() ends every run; its "stopped by user" note would land on stdout.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

VcdFile::VcdFile(const std::string& path) {
  if (path.empty()) return;
  std::string stem = path;
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".vcd") == 0) stem.resize(stem.size() - 4);
  file_ = sc_core::sc_create_vcd_trace_file(stem.c_str());
  if (!file_) throw InputError("cannot write waveform '" + path + "'");
  file_->set_time_unit(1, sc_core::SC_NS);
}

VcdFile::~VcdFile() {
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

}  // namespace fixroute
