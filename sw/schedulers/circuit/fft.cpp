// fft [divide-and-conquer]: the phases of fft.h, each a permutation of the whole mesh,
// scheduled by the better of edge-colouring (1R-1C) and first-fit (link-disjoint
// packing). The paper states O(n) routing steps and no constant; the run reports the
// measured count beside the lower bound (the sum over phases of each phase's busiest
// link), not a formula (docs/circuit-switching.md).
#include "fft.h"

#include <fmt/format.h>

#include "sw/topology/topology.h"
#include "edge_colouring.h"
#include "first_fit.h"
#include "permutation.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

namespace {
constexpr const char* kZOrderName = "z-order";
}

FftLayout fft_layout_of(const std::string& algorithm) {
  return algorithm == kZOrderName ? FftLayout::ZOrder : FftLayout::RowMajor;
}

std::vector<FftPhase> fft_phases(const Topology& mesh, const std::string& algorithm) {
  return fft_phases(mesh, fft_layout(mesh, fft_layout_of(algorithm)));
}

std::string fft_unsupported(const Topology& mesh, FftLayout layout) {
  require_mesh(mesh, "fft");
  const int rows = mesh.dims()[0], cols = mesh.dims()[1];
  if (log2_exact(rows) < 0 || log2_exact(cols) < 0 || mesh.num_nodes() < 4)
    return "needs rows and columns powers of two, at least 4 nodes";
  if (layout == FftLayout::ZOrder && rows != cols && rows != 2 * cols) return "needs R = C or R = 2C (Z order)";
  return "";
}

std::vector<int> fft_layout(const Topology& mesh, FftLayout layout) {
  const int nodes = mesh.num_nodes(), cols = mesh.dims()[1];
  std::vector<int> node(static_cast<size_t>(nodes));
  for (int i = 0; i < nodes; ++i) {
    if (layout == FftLayout::RowMajor) {
      node[static_cast<size_t>(i)] = i;
      continue;
    }
    // Bits of i from the lowest: column bit, row bit, column bit, ... (the highest is a
    // row bit when R = 2C), so the top bit of a block always halves it.
    const int col_bits = log2_exact(cols);
    int row = 0, col = 0;
    for (int b = 0; (i >> b) != 0; ++b) {
      const int bit = (i >> b) & 1;
      if (b >= 2 * col_bits) row |= bit << (col_bits + b - 2 * col_bits);  // R = 2C: the top bit
      else if (b % 2 == 0) col |= bit << (b / 2);
      else row |= bit << (b / 2);
    }
    node[static_cast<size_t>(i)] = row * cols + col;
  }
  return node;
}

std::vector<FftPhase> fft_phases(const Topology& mesh, const std::vector<int>& node_of_point) {
  const int nodes = mesh.num_nodes();
  const int bits = log2_exact(nodes);
  auto rotate = [&](int m, bool right) {  // on point indices, then as nodes
    std::vector<int> dest(static_cast<size_t>(nodes));
    const int low = (1 << m) - 1;
    for (int x = 0; x < nodes; ++x) {
      const int v = x & low;
      const int r = right ? (v >> 1) | ((v & 1) << (m - 1)) : ((v << 1) & low) | (v >> (m - 1));
      dest[static_cast<size_t>(node_of_point[static_cast<size_t>(x)])] = node_of_point[static_cast<size_t>((x & ~low) | r)];
    }
    return dest;
  };
  std::vector<FftPhase> phases;
  for (int m = bits; m >= 2; --m) phases.push_back({fmt::format("split 2^{}", m), rotate(m, true)});
  for (int m = 2; m <= bits; ++m) phases.push_back({fmt::format("merge 2^{}", m), rotate(m, false)});
  return phases;
}

namespace {

CircuitSchedule fft_schedule(const Topology& mesh, FftLayout layout) {
  CircuitSchedule s;
  std::vector<std::string> used;
  for (const FftPhase& p : fft_phases(mesh, fft_layout(mesh, layout))) {
    std::vector<std::vector<Circuit>> coloured = colour_rows_by_columns(mesh, p.dest);
    std::vector<std::vector<Circuit>> packed = pack_first_fit(mesh, p.dest);
    const bool pack = packed.size() < coloured.size();
    s.phase_starts.push_back(static_cast<int>(s.steps.size()) + 1);
    for (auto& step : pack ? packed : coloured) s.steps.push_back(std::move(step));
    used.push_back(fmt::format("{}: {} {}", p.name, pack ? packed.size() : coloured.size(), pack ? "first-fit" : "edge-colouring"));
  }
  s.construction = fmt::format("{}", fmt::join(used, ", "));
  return s;
}

std::vector<std::pair<std::string, std::string>> fft_sweep(int max_side, const char* oblong) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= max_side; n *= 2) out.emplace_back(fmt::format("mesh:{}x{}", n, n), "");
  out.emplace_back(oblong, "");
  return out;
}

Algorithm fft_algorithm(const char* name, const char* summary, FftLayout layout, const char* oblong, bool is_default) {
  Algorithm a;
  a.name = name;
  a.collective = "fft";
  a.router_kind = kCrossbarKind;
  a.summary = summary;
  a.unsupported = on_mesh([layout](const Topology& t, const CircuitDemand&) { return fft_unsupported(t, layout); });
  a.is_default = [is_default](const Problem&) { return is_default; };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  schedule_circuits(a, [layout](const Topology& t, const CircuitDemand&) { return fft_schedule(t, layout); });
  a.sweep = mesh_sweep([oblong](int max_side) { return fft_sweep(max_side, oblong); });
  return a;
}

const AlgorithmRegistrar kRowMajor(fft_algorithm(
    "divide-and-conquer",
    "FFT data movement, points in row-major order: a splitting BPC and a perfect shuffle per recursion level "
    "(section 5.3)",
    FftLayout::RowMajor, "mesh:2x8", true));

const AlgorithmRegistrar kZOrder(fft_algorithm(
    kZOrderName,
    "FFT data movement, points in Z (Morton) order: every recursion level works on square sub-meshes (beyond the "
    "paper)",
    FftLayout::ZOrder, "mesh:8x4", false));

}  // namespace

}  // namespace fixroute
