// The biswapped network's basic operations (the biswapped-network paper, section 3) as
// programs for summing routers: broadcast (Table 1's four steps), prefix sum (Table 2's
// eight steps) and data sum (Table 3). Node <g,p,s> is group g, processor p, part s.
#include <fmt/format.h>

#include "sw/core/formulas.h"
#include "sw/schedulers/swapped.h"

namespace fixroute {
namespace {

// Table 1. The root u = <g,p,s> passes its value across its swap link to v = <p,g,1-s>
// (step 1); u's and v's groups broadcast it (step 2); each of their nodes passes it across
// its swap link (step 3) and those groups broadcast it (step 4). Each move is made as soon
// as its datum is there, so the steps overlap and it ends at ecc(p) + ecc(g) + 2.
const AlgorithmRegistrar biswapped_broadcast_registrar([] {
  Algorithm a = swapped_algorithm("biswapped", "broadcast", TopologyKind::Biswapped,
                                  "biswapped network, the root's value to every node: Table 1's four steps, "
                                  "2 D + 2 at worst (biswapped-network paper, 3.1, Theorem 1)");
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    const SwappedNode u = p.topology.place(p.root);
    return formulas::bsn_broadcast(p.topology.base(), u.group, u.proc);
  };
  a.paper_formula = [](const Problem& p) -> std::optional<int64_t> {
    return formulas::bsn_broadcast_paper(p.topology.base());
  };
  a.build = [](const Problem& problem) {
    const Topology& t = problem.topology;
    const Topology& base = t.base();
    const SwappedNode u = t.place(problem.root);
    SumProgram program(t);
    StepRegisters regs(program);
    const RegisterMask held = regs[0];
    program.send(1, problem.root, t.swap_port(), kOwn, held);
    group_broadcast(program, regs, group_nodes(t, u.part, u.group), 0, u.proc, kOwn);
    group_broadcast(program, regs, group_nodes(t, 1 - u.part, u.proc), 1, u.group, held);
    for (int x = 0; x < base.num_nodes(); ++x) {
      if (x != u.proc) {  // <g,x,s> has it after d(p,x) rounds
        const int64_t at = base.distance(u.proc, x);
        program.send(at + 1, t.node_at({u.group, x, u.part}), t.swap_port(), held, held);
        group_broadcast(program, regs, group_nodes(t, 1 - u.part, x), at + 1, u.group, held);
      }
      if (x != u.group) {  // <p,x,1-s> has it after 1 + d(g,x) rounds
        const int64_t at = 1 + base.distance(u.group, x);
        program.send(at + 1, t.node_at({u.proc, x, 1 - u.part}), t.swap_port(), held, held);
        group_broadcast(program, regs, group_nodes(t, u.part, x), at + 1, u.proc, held);
      }
    }
    for (int n = 0; n < t.num_nodes(); ++n) program.set_result(n, n == problem.root ? kOwn : held);
    return program_tables(program, problem, "biswapped", fmt::format("root <{},{},{}>", u.group, u.proc, u.part));
  };
  return a;
}());

// Table 2. Groups are numbered part * n + g, so node <g,p,s> is the paper's processor
// (s n + g) n + p; PS = SD (the groups before) + LS (the local prefix).
const AlgorithmRegistrar biswapped_prefix_registrar([] {
  Algorithm a = swapped_algorithm("biswapped", "prefix", TopologyKind::Biswapped,
                                  "biswapped network, prefix sums in group-major order: Table 2's eight steps, "
                                  "2 P + 2 B + 3 (biswapped-network paper, 3.2)");
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return formulas::bsn_prefix(p.topology.base()); };
  a.paper_formula = [](const Problem& p) { return stated_count(formulas::bsn_table4("prefix", p.topology.base())); };
  a.build = [](const Problem& problem) {
    const Topology& t = problem.topology;
    const int n = t.base().num_nodes(), last = n - 1;
    SumProgram program(t);
    const std::vector<RegisterMask> own(static_cast<size_t>(n), kOwn);
    // Step 1: the local prefix LS in every group.
    StepRegisters local(program);
    std::vector<RegisterMask> local_sum(static_cast<size_t>(t.num_nodes()));
    int64_t end = 0;
    for (int s = 0; s < 2; ++s)
      for (int g = 0; g < n; ++g) {
        const std::vector<int> group = group_nodes(t, s, g);
        const GroupResult r = group_prefix(program, local, group, 0, own, false);
        record_answer(r, group, local_sum);
        end = r.rounds;
      }
    auto ls = [&](int g, int p, int s) { return local_sum[static_cast<size_t>(t.node_at({g, p, s}))]; };
    // Step 2: the group totals (LS of processor n-1) across the swap links into groups
    // <n-1,*,1> (part 0's totals) and <n-1,*,0> (part 1's but the last group's).
    StepRegisters gathered(program);
    const RegisterMask total = gathered[0];
    for (int g = 0; g < n; ++g) program.send(end + 1, t.node_at({g, last, 0}), t.swap_port(), ls(g, last, 0), total);
    for (int g = 0; g < last; ++g) program.send(end + 1, t.node_at({g, last, 1}), t.swap_port(), ls(g, last, 1), total);
    end += 1;
    // Step 3: their exclusive prefix in the two collecting groups.
    StepRegisters before(program);
    std::vector<std::vector<RegisterMask>> groups_before(2);
    int64_t step3 = 0;
    for (int s = 0; s < 2; ++s) {
      const GroupResult r = group_prefix(program, before, group_nodes(t, s, last), end,
                                         std::vector<RegisterMask>(static_cast<size_t>(n), total), true);
      groups_before[static_cast<size_t>(s)] = r.answer;
      step3 = r.rounds;
    }
    end += step3;
    // Step 4: part 0's whole total (<n-1,n-1,1>'s prefix and its own datum) to <n-1,n-1,0>;
    // step 5: broadcast there in group <n-1,*,0>.
    StepRegisters part0(program);
    const RegisterMask part0_total = part0[0];
    program.send(end + 1, t.node_at({last, last, 1}), t.swap_port(),
                 static_cast<RegisterMask>(groups_before[1][static_cast<size_t>(last)] | total), part0_total);
    end += 1;
    end += group_broadcast(program, part0, group_nodes(t, 0, last), end, last, part0_total).rounds;
    // Step 6: each group's SD to its processor n-1 (part 1's: part 0's total + its groups before).
    StepRegisters offset(program);
    const RegisterMask sd = offset[0];
    for (int g = 0; g < n; ++g) {
      program.send(end + 1, t.node_at({last, g, 0}), t.swap_port(),
                   static_cast<RegisterMask>(groups_before[0][static_cast<size_t>(g)] | part0_total), sd);
      program.send(end + 1, t.node_at({last, g, 1}), t.swap_port(), groups_before[1][static_cast<size_t>(g)], sd);
    }
    end += 1;
    // Step 7: SD broadcast in every group; step 8: PS = LS + SD.
    for (int s = 0; s < 2; ++s)
      for (int g = 0; g < n; ++g) group_broadcast(program, offset, group_nodes(t, s, g), end, last, sd);
    for (int node = 0; node < t.num_nodes(); ++node)
      program.set_result(node, static_cast<RegisterMask>(local_sum[static_cast<size_t>(node)] | sd));
    return program_tables(program, problem, "biswapped");
  };
  return a;
}());

// Table 3. Group sums (step 1), swapped (step 2), summed in the groups (step 3: a part-0
// node then holds part 1's total and vice versa), swapped (step 4): every node holds both
// parts' totals, added without a move (step 5). 2 S + 2 rounds; the paper counts step 5
// as a third data sum, 3 S + 2.
const AlgorithmRegistrar biswapped_data_sum_registrar([] {
  Algorithm a = swapped_algorithm("biswapped", "data-sum", TopologyKind::Biswapped,
                                  "biswapped network, every node the sum of all values: Table 3's steps, "
                                  "2 S + 2 (biswapped-network paper, 3.3, which counts 3 S + 2)");
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return formulas::bsn_data_sum(p.topology.base()); };
  a.paper_formula = [](const Problem& p) { return stated_count(formulas::bsn_table4("data-sum", p.topology.base())); };
  a.build = [](const Problem& problem) {
    const Topology& t = problem.topology;
    const int n = t.base().num_nodes();
    SumProgram program(t);
    std::vector<RegisterMask> sums(static_cast<size_t>(t.num_nodes()), kOwn);
    int64_t end = 0;
    for (int round = 0; round < 2; ++round) {
      StepRegisters in_group(program), swapped(program);
      int64_t rounds = 0;
      for (int s = 0; s < 2; ++s)
        for (int g = 0; g < n; ++g) {
          const std::vector<int> group = group_nodes(t, s, g);
          std::vector<RegisterMask> operand;
          for (int node : group) operand.push_back(sums[static_cast<size_t>(node)]);
          const GroupResult r = group_data_sum(program, in_group, group, end, operand);
          record_answer(r, group, sums);
          rounds = r.rounds;
        }
      end += rounds + 1;
      for (int node = 0; node < t.num_nodes(); ++node) program.send(end, node, t.swap_port(), sums[static_cast<size_t>(node)], swapped[0]);
      // After the first swap a node sums what came across; after the second it adds it to its own.
      for (int node = 0; node < t.num_nodes(); ++node)
        sums[static_cast<size_t>(node)] = round == 0 ? swapped[0] : static_cast<RegisterMask>(sums[static_cast<size_t>(node)] | swapped[0]);
    }
    for (int node = 0; node < t.num_nodes(); ++node) program.set_result(node, sums[static_cast<size_t>(node)]);
    return program_tables(program, problem, "biswapped");
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
