// A GTKWave save file for a waveform (docs/cli.md, `--vcd`): `run --vcd W.vcd` also writes
// W.gtkw, which opens the dump with its signals grouped per router (the scopes named
// routerN, or g_node[N] in the RTL network tops) and, within a router, per port (in/out/port N in a scope or signal name), the
// rest of a router under "control" and signals outside every router under "network".
// Routers after the first start collapsed. Made from the VCD's own declarations, so it fits
// every engine's dump.
#pragma once
#include <string>

namespace fixroute {

// The save file's text for the dump read from `read_from`, which will be at `dump_path`
// (named absolute in the file; the run writes its dump under a temporary name first), the
// save file itself at `save_path`. Throws InputError when the dump cannot be read.
std::string gtkwave_save_file(const std::string& read_from, const std::string& dump_path, const std::string& save_path);

// W.vcd or W.fst -> W.gtkw (any other name: NAME.gtkw).
std::string gtkwave_save_path(const std::string& vcd_path);

}  // namespace fixroute
