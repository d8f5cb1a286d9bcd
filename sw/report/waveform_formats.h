// Waveform formats beside VCD: FST, GTKWave's compressed format (`run --vcd W.fst`), made
// from the finished VCD by GTKWave's own converter, vcd2fst (Debian's gtkwave package,
// which scripts/install-deps.sh installs); read back by fst2vcd in the tests.
#pragma once
#include <string>

namespace fixroute {

// Converts the VCD at `vcd` into the FST file `fst`; throws InputError (vcd2fst missing or
// failing, with what it said).
void convert_vcd_to_fst(const std::string& vcd, const std::string& fst);

}  // namespace fixroute
