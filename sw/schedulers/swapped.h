// Programs for summing routers on swapped networks (bsn:, otis:; the biswapped-network
// paper, section 3; docs/swapped-networks.md). A SumProgram collects, round by round, the
// packets the routers send (which registers are summed into each, which the receiver adds
// it into) and becomes CombiningSumTables. The group operations run one operation of the
// base network inside groups of a swapped network -- every group given its own start round
// and its own operand (a register mask per processor) -- and say where the answer lies.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/algorithm.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

constexpr RegisterMask kOwn = 1;  // register 0: the router's own value

class SumProgram {
 public:
  explicit SumProgram(const Topology& topology);
  const Topology& topology() const { return topology_; }
  int new_register();  // throws InputError beyond kMaxSumRegisters
  // In `round` (from 1), `node` sends on `port` the sum of its registers `send`; the
  // neighbour adds it into its registers `add`.
  void send(int64_t round, int node, int port, RegisterMask send, RegisterMask add);
  void set_result(int node, RegisterMask mask) { result_[static_cast<size_t>(node)] = mask; }
  int64_t rounds() const { return rounds_; }
  CombiningSumTables tables(const Problem& problem, const std::string& algorithm) const;  // root: problem.root

 private:
  struct Entry {
    int64_t round;
    int node, port;
    RegisterMask send, add;
  };
  const Topology& topology_;
  int registers_ = 1;  // register 0: each router's own value
  int64_t rounds_ = 0;
  std::vector<Entry> entries_;
  std::vector<RegisterMask> result_;
};

// Registers one step of an algorithm allocates once and every group shares.
class StepRegisters {
 public:
  explicit StepRegisters(SumProgram& program) : program_(program) {}
  RegisterMask operator[](size_t i);  // register i of the step (allocated on first use), as a mask

 private:
  SumProgram& program_;
  std::vector<int> regs_;
};

// A group of a swapped network: its nodes in processor order.
std::vector<int> group_nodes(const Topology& swapped, int part, int group);

// One operation in a group, starting after round `start` (its first round is start + 1),
// on operand[p] (a register mask per processor); the answer's masks per processor and the
// rounds it took. Each group operation supports the bases line, ring, mesh and torus (the
// wrap links unused but by a broadcast), hypercube and complete; the others are refused
// (InputError), and so is a program beyond the routers' registers.
struct GroupResult {
  std::vector<RegisterMask> answer;
  int64_t rounds = 0;
};
// Inclusive prefix sum in processor order (row-major on meshes); `exclusive`: of the
// processors before.
GroupResult group_prefix(SumProgram& program, StepRegisters& regs, const std::vector<int>& group, int64_t start,
                         const std::vector<RegisterMask>& operand, bool exclusive);
// Every processor ends with the sum of all operands.
GroupResult group_data_sum(SumProgram& program, StepRegisters& regs, const std::vector<int>& group, int64_t start,
                           const std::vector<RegisterMask>& operand);
// Processor `source`'s operand to every processor, down a breadth-first tree of the base.
GroupResult group_broadcast(SumProgram& program, StepRegisters& regs, const std::vector<int>& group, int64_t start,
                            int source, RegisterMask operand);

// Writes a group operation's answer for each processor into `per_node` (by node id).
void record_answer(const GroupResult& result, const std::vector<int>& group, std::vector<RegisterMask>& per_node);

// The program's tables for `problem` (validated), recording the algorithm, root and construction.
std::shared_ptr<const Tables> program_tables(const SumProgram& program, const Problem& problem,
                                             const std::string& algorithm, const std::string& construction = "");

// A count from formulas.h where -1 means "the paper states none".
std::optional<int64_t> stated_count(int64_t count);

// An algorithm for summing routers on `network` (Biswapped or Swapped): refuses other
// topologies and port models but all-port full-duplex (a program that needs more than the
// routers' registers -- prefix and data sum over a 4D torus -- is refused as it is built);
// the default there; swept over small bases of every kind.
Algorithm swapped_algorithm(const std::string& name, const std::string& collective, TopologyKind network,
                            const std::string& summary);

}  // namespace fixroute
