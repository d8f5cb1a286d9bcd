// bpc-self-schedule: a BPC permutation f_{pi,a} on an n x n mesh, n = 2^k, in n routing
// steps (circuit-switched mesh paper, section 3, SELF-SCHEDULE-BPC). Every node computes
// its own step t(x) = ([x]_F' xor [f(x)]_G') . [x]_F''; Theorem 2: the sources of one
// step lie in distinct rows and their destinations in distinct columns (1R-1C), so the
// circuits of a step are link-disjoint.
#include <fmt/format.h>

#include "sw/core/formulas.h"
#include "sw/topology/topology.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

namespace {

// [x]_S: the bits of x at the positions in S, highest position first.
uint32_t select_bits(uint32_t x, const std::vector<int>& positions_high_first) {
  uint32_t out = 0;
  for (int p : positions_high_first) out = (out << 1) | ((x >> p) & 1u);
  return out;
}

// t(x) in 0..n-1 (section 3): F' = {pi(i) | i >= k, pi(i) >= k}, F'' = {pi(i) | i >= k,
// pi(i) < k}, G' = {i | i < k, pi(i) < k}.
int send_time(const Bpc& f, int x) {
  const int k = f.bits() / 2;
  std::vector<int> f1, f2, g1;  // F', F'', G', highest position first
  for (int p = f.bits() - 1; p >= 0; --p) {
    for (int i = k; i < f.bits(); ++i) {
      if (f.pi[static_cast<size_t>(i)] != p) continue;
      (p >= k ? f1 : f2).push_back(p);
    }
    if (p < k && f.pi[static_cast<size_t>(p)] < k) g1.push_back(p);
  }
  const uint32_t ux = static_cast<uint32_t>(x);
  const uint32_t fx = static_cast<uint32_t>(f.apply(x));
  const uint32_t head = select_bits(ux, f1) ^ select_bits(fx, g1);
  return static_cast<int>((head << f2.size()) | select_bits(ux, f2));
}

CircuitSchedule bpc_self_schedule_schedule(const Topology& mesh, const CircuitDemand& demand) {
  const Bpc& f = *demand.permutation.bpc;
  const int n = mesh.dims()[0];
  CircuitSchedule s;
  s.steps.resize(static_cast<size_t>(n));
  for (int x = 0; x < mesh.num_nodes(); ++x)
    s.steps[static_cast<size_t>(send_time(f, x))].push_back({x, f.apply(x)});
  return s;
}

std::vector<std::pair<std::string, std::string>> bpc_self_schedule_sweep(int max_side) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= max_side; n *= 2)
    for (const char* p : {"transpose", "bit-reversal", "perfect-shuffle", "bit-complement"})
      out.emplace_back(fmt::format("mesh:{}x{}", n, n), p);
  out.emplace_back("mesh:4x4", "bpc:1,3,2,0:1010");  // the paper's Figure 1
  return out;
}

const AlgorithmRegistrar bpc_self_schedule_registrar([] {
  Algorithm a;
  a.name = "bpc-self-schedule";
  a.collective = "permutation";
  a.router_kind = kCrossbarKind;
  a.summary = "BPC permutation, each node computes its own step t(x): n routing steps (circuit-switched mesh paper, section 3)";
  a.unsupported = on_mesh([](const Topology&, const CircuitDemand& d) -> std::string {
    return d.permutation.bpc ? "" : "needs a BPC permutation (bpc:PI:A or a named one)";
  });
  a.is_default = [](const Problem& p) { return circuit_demand(p).permutation.kind == "bpc"; };
  a.formula = on_mesh_count([](const Topology& t) -> std::optional<int64_t> { return formulas::circuit_bpc(t.dims()[0]); });
  schedule_circuits(a, bpc_self_schedule_schedule);
  a.sweep = mesh_sweep(bpc_self_schedule_sweep);
  return a;
}());

}  // namespace

}  // namespace fixroute
