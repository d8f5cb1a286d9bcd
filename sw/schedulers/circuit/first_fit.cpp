// first-fit (beyond the paper): ANY permutation on ANY mesh:RxC by greedy link-disjoint
// packing. No step bound is proved (it can exceed edge-colouring's max(R, C)); it wins
// where messages travel short row segments, e.g. permutations inside row blocks, as in
// the FFT's lower recursion levels (fft.cpp takes the better of the two per phase).
#include "first_fit.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "sw/topology/topology.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

std::vector<std::vector<Circuit>> pack_first_fit(const Topology& mesh, const std::vector<int>& dest) {
  struct Placed {
    std::vector<Circuit> circuits;
    std::set<std::pair<int, int>> claimed;  // (node, out-port), the local ones included
    std::set<int> sources;
  };
  std::vector<std::pair<std::vector<Hop>, Circuit>> moving;
  std::vector<Circuit> staying;
  for (int x = 0; x < mesh.num_nodes(); ++x) {
    const int d = dest[static_cast<size_t>(x)];
    if (d == x) staying.push_back({x, d});
    else moving.push_back({row_column_route(mesh, x, d), Circuit{x, d}});
  }
  std::stable_sort(moving.begin(), moving.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::vector<Placed> steps;
  for (const auto& [hops, circuit] : moving) {
    auto fits = [&, &hops = hops, &circuit = circuit](const Placed& s) {
      if (s.sources.count(circuit.source)) return false;
      for (const Hop& h : hops)
        if (s.claimed.count({h.node, h.out_port})) return false;
      return true;
    };
    auto at = std::find_if(steps.begin(), steps.end(), fits);
    if (at == steps.end()) at = steps.insert(steps.end(), Placed{});
    at->circuits.push_back(circuit);
    at->sources.insert(circuit.source);
    for (const Hop& h : hops) at->claimed.insert({h.node, h.out_port});
  }
  if (steps.empty() && !staying.empty()) steps.emplace_back();
  std::vector<std::vector<Circuit>> out;
  for (Placed& s : steps) out.push_back(std::move(s.circuits));
  for (const Circuit& c : staying) out.front().push_back(c);
  return out;
}

namespace {

std::vector<std::pair<std::string, std::string>> first_fit_sweep(int max_side) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= max_side; n *= 2) out.emplace_back(fmt::format("mesh:{}x{}", n, n), "random:1");
  out.emplace_back("mesh:3x5", "random:2");
  out.emplace_back("mesh:8x8", "perfect-shuffle");
  return out;
}

const AlgorithmRegistrar first_fit_registrar([] {
  Algorithm a;
  a.name = "first-fit";
  a.collective = "permutation";
  a.router_kind = kCrossbarKind;
  a.summary = "any permutation, any mesh: greedy link-disjoint packing, longest path first; no step bound (beyond the paper)";
  a.unsupported = on_mesh([](const Topology&, const CircuitDemand&) { return std::string(); });
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  schedule_circuits(a, [](const Topology& mesh, const CircuitDemand& d) {
    CircuitSchedule s;
    s.steps = pack_first_fit(mesh, d.permutation.dest);
    return s;
  });
  a.sweep = mesh_sweep(first_fit_sweep);
  return a;
}());

}  // namespace

}  // namespace fixroute
