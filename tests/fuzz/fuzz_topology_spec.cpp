// Fuzz target: the topology spec parser (docs/topologies.md). Any input either parses into
// a topology whose wiring is consistent or is refused with an InputError; anything else (a
// crash, another exception) is a bug. Specs are capped at kMaxNodes nodes, refused before
// the wiring is built: without the cap most of an input's time went to wiring the millions
// of nodes mutated sizes ask for (the full-size checks run the same code with the default cap).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace {
constexpr int kMaxNodes = 256;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  try {
    const fixroute::Topology t = fixroute::Topology::parse(spec, kMaxNodes);
    if (t.num_nodes() > kMaxNodes) std::abort();
    for (int n = 0; n < t.num_nodes(); ++n)
      for (int p = 0; p < t.num_ports(); ++p) {
        const int m = t.neighbour(n, p);
        if (m < 0) continue;
        if (m >= t.num_nodes()) std::abort();
        const int back = t.reverse_port(n, p);
        if (back < 0 || back >= t.num_ports() || t.neighbour(m, back) != n) std::abort();
      }
    // The canonical spec parses to the same network.
    if (fixroute::Topology::parse(t.spec(), kMaxNodes).num_nodes() != t.num_nodes()) std::abort();
  } catch (const fixroute::InputError&) {
  }
  return 0;
}
