// The OTIS (swapped) network's basic operations for summing routers, beside the
// biswapped ones (Table 4's first column: Wang and Sahni's OTIS-Mesh counts). Node <g,p>
// is processor p of group g; its swap link goes to <p,g> (none where g = p).
#include <fmt/format.h>

#include "sw/core/formulas.h"
#include "sw/schedulers/swapped.h"

namespace fixroute {
namespace {

// The root's group broadcasts; each of its nodes <g,x> passes the value across its swap
// link as soon as it has it, and group x broadcasts it from processor g.
const AlgorithmRegistrar otis_broadcast_registrar([] {
  Algorithm a = swapped_algorithm("otis", "broadcast", TopologyKind::Swapped,
                                  "OTIS network, the root's value to every node: group, swap, group (Table 4's OTIS "
                                  "column, Wang and Sahni)");
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    const SwappedNode u = p.topology.place(p.root);
    return formulas::otis_broadcast(p.topology.base(), u.group, u.proc);
  };
  a.paper_formula = [](const Problem& p) { return stated_count(formulas::otis_mesh_table4("broadcast", p.topology.base())); };
  a.build = [](const Problem& problem) {
    const Topology& t = problem.topology;
    const Topology& base = t.base();
    const SwappedNode u = t.place(problem.root);
    SumProgram program(t);
    StepRegisters regs(program);
    const RegisterMask held = regs[0];
    group_broadcast(program, regs, group_nodes(t, 0, u.group), 0, u.proc, kOwn);
    for (int x = 0; x < base.num_nodes(); ++x) {
      if (x == u.group) continue;
      const int64_t at = base.distance(u.proc, x);
      program.send(at + 1, t.node_at({u.group, x, 0}), t.swap_port(), x == u.proc ? kOwn : held, held);
      group_broadcast(program, regs, group_nodes(t, 0, x), at + 1, u.group, held);
    }
    for (int n = 0; n < t.num_nodes(); ++n) program.set_result(n, n == problem.root ? kOwn : held);
    return program_tables(program, problem, "otis", fmt::format("root <{},{}>", u.group, u.proc));
  };
  return a;
}());

// Local prefixes; the group totals (processor n-1's) across the swap links into group
// n-1; their exclusive prefix there; back across; broadcast from processor n-1 in every
// group. Node <g,p> is processor g n + p.
const AlgorithmRegistrar otis_prefix_registrar([] {
  Algorithm a = swapped_algorithm("otis", "prefix", TopologyKind::Swapped,
                                  "OTIS network, prefix sums in group-major order: local prefix, totals swapped, "
                                  "their prefix, swapped back, broadcast: 2 P + B + 2");
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return formulas::otis_prefix(p.topology.base()); };
  a.paper_formula = [](const Problem& p) { return stated_count(formulas::otis_mesh_table4("prefix", p.topology.base())); };
  a.build = [](const Problem& problem) {
    const Topology& t = problem.topology;
    const int n = t.base().num_nodes(), last = n - 1;
    SumProgram program(t);
    StepRegisters local(program);
    std::vector<RegisterMask> local_sum(static_cast<size_t>(t.num_nodes()));
    int64_t end = 0;
    for (int g = 0; g < n; ++g) {
      const std::vector<int> group = group_nodes(t, 0, g);
      const GroupResult r = group_prefix(program, local, group, 0, std::vector<RegisterMask>(static_cast<size_t>(n), kOwn), false);
      record_answer(r, group, local_sum);
      end = r.rounds;
    }
    StepRegisters gathered(program);
    const RegisterMask total = gathered[0];
    for (int g = 0; g < last; ++g)
      program.send(end + 1, t.node_at({g, last, 0}), t.swap_port(), local_sum[static_cast<size_t>(t.node_at({g, last, 0}))], total);
    end += 1;
    StepRegisters before(program);
    const GroupResult prefixes = group_prefix(program, before, group_nodes(t, 0, last), end,
                                              std::vector<RegisterMask>(static_cast<size_t>(n), total), true);
    end += prefixes.rounds + 1;
    StepRegisters offset(program);
    const RegisterMask sd = offset[0];
    for (int g = 0; g < last; ++g) program.send(end, t.node_at({last, g, 0}), t.swap_port(), prefixes.answer[static_cast<size_t>(g)], sd);
    std::vector<RegisterMask> answer(static_cast<size_t>(t.num_nodes()), sd);
    for (int g = 0; g < n; ++g) {
      const RegisterMask operand = g == last ? prefixes.answer[static_cast<size_t>(last)] : sd;
      group_broadcast(program, offset, group_nodes(t, 0, g), end, last, operand);
      answer[static_cast<size_t>(t.node_at({g, last, 0}))] = operand;
    }
    for (int node = 0; node < t.num_nodes(); ++node)
      program.set_result(node, static_cast<RegisterMask>(local_sum[static_cast<size_t>(node)] | answer[static_cast<size_t>(node)]));
    return program_tables(program, problem, "otis");
  };
  return a;
}());

// Group sums; across the swap links (a node <g,g> keeps its own); group sums again:
// <g,p> then holds the sum over all groups. 2 S + 1.
const AlgorithmRegistrar otis_data_sum_registrar([] {
  Algorithm a = swapped_algorithm("otis", "data-sum", TopologyKind::Swapped,
                                  "OTIS network, every node the sum of all values: group sums, swap, group sums: 2 S + 1");
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return formulas::otis_data_sum(p.topology.base()); };
  a.paper_formula = [](const Problem& p) { return stated_count(formulas::otis_mesh_table4("data-sum", p.topology.base())); };
  a.build = [](const Problem& problem) {
    const Topology& t = problem.topology;
    const int n = t.base().num_nodes();
    SumProgram program(t);
    StepRegisters first(program), across(program), second(program);
    std::vector<RegisterMask> sums(static_cast<size_t>(t.num_nodes()), kOwn);
    int64_t rounds = 0;
    for (int g = 0; g < n; ++g) {
      const std::vector<int> group = group_nodes(t, 0, g);
      const GroupResult r = group_data_sum(program, first, group, 0, std::vector<RegisterMask>(static_cast<size_t>(n), kOwn));
      record_answer(r, group, sums);
      rounds = r.rounds;
    }
    std::vector<RegisterMask> operand(static_cast<size_t>(t.num_nodes()));
    for (int node = 0; node < t.num_nodes(); ++node) {
      const SwappedNode at = t.place(node);
      if (at.group == at.proc) {
        operand[static_cast<size_t>(node)] = sums[static_cast<size_t>(node)];
      } else {
        program.send(rounds + 1, node, t.swap_port(), sums[static_cast<size_t>(node)], across[0]);
        operand[static_cast<size_t>(node)] = across[0];
      }
    }
    for (int g = 0; g < n; ++g) {
      const std::vector<int> group = group_nodes(t, 0, g);
      std::vector<RegisterMask> x;
      for (int node : group) x.push_back(operand[static_cast<size_t>(node)]);
      const GroupResult r = group_data_sum(program, second, group, rounds + 1, x);
      for (int p = 0; p < n; ++p) program.set_result(group[static_cast<size_t>(p)], r.answer[static_cast<size_t>(p)]);
    }
    return program_tables(program, problem, "otis");
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
