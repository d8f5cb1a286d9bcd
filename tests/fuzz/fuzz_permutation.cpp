// Fuzz target: every --permutation form (docs/circuit-switching.md). The first byte picks
// the mesh and how the rest is used: as the option's text, or as the contents of the file
// an `omega:` or `file:` option names. A parse either gives a permutation of the mesh's
// nodes or is refused with an InputError.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sw/core/errors.h"
#include "sw/schedulers/circuit/permutation.h"
#include "sw/topology/topology.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const meshes[] = {"mesh:4x4", "mesh:8x8", "mesh:2x2", "mesh:3x5", "mesh:16x16", "mesh:2x8"};
  static const std::string file =
      (std::filesystem::temp_directory_path() / ("fixroute_fuzz_perm_" + std::to_string(::getpid()))).string();
  const fixroute::Topology mesh = fixroute::Topology::parse(meshes[data[0] % 6]);
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string text = rest;
  const int form = (data[0] / 6) % 3;  // 0: the option's text; 1: omega:FILE; 2: file:FILE
  if (form != 0) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << rest;
    text = (form == 1 ? "omega:" : "file:") + file;
  }
  try {
    const fixroute::Permutation p = fixroute::parse_permutation(text, mesh);
    std::vector<bool> hit(static_cast<size_t>(mesh.num_nodes()), false);
    if (p.dest.size() != hit.size()) std::abort();
    for (int d : p.dest) {
      if (d < 0 || d >= mesh.num_nodes() || hit[static_cast<size_t>(d)]) std::abort();
      hit[static_cast<size_t>(d)] = true;
    }
  } catch (const fixroute::InputError&) {
  }
  return 0;
}
