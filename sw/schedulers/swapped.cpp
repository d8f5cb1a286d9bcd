#include "swapped.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sw/core/errors.h"

namespace fixroute {

SumProgram::SumProgram(const Topology& topology)
    : topology_(topology), result_(static_cast<size_t>(topology.num_nodes()), 1) {}

int SumProgram::new_register() {
  if (registers_ >= kMaxSumRegisters)
    throw InputError(fmt::format("the program on {} needs more than {} registers per router", topology_.spec(),
                                 kMaxSumRegisters));
  return registers_++;
}

void SumProgram::send(int64_t round, int node, int port, RegisterMask send, RegisterMask add) {
  if (round < 1 || !send || topology_.neighbour(node, port) < 0)
    throw std::logic_error(fmt::format("program: no send from node {} port {} in round {}", node, port, round));
  entries_.push_back({round, node, port, send, add});
  rounds_ = std::max(rounds_, round);
}

CombiningSumTables SumProgram::tables(const Problem& problem, const std::string& algorithm) const {
  if (rounds_ > kMaxSumRounds)
    throw InputError(fmt::format("the program on {} takes {} rounds; at most {}", topology_.spec(), rounds_, kMaxSumRounds));
  if (topology_.num_nodes() > kMaxSumNodes || topology_.num_ports() > kMaxSumPorts)
    throw InputError(fmt::format("summing routers take at most {} nodes of at most {} ports; {} has {} of {}",
                                 kMaxSumNodes, kMaxSumPorts, topology_.spec(), topology_.num_nodes(),
                                 topology_.num_ports()));
  CombiningSumTables t = empty_combining_sum_tables(topology_, registers_, static_cast<int>(std::max<int64_t>(rounds_, 1)));
  t.collective = problem.collective;
  t.algorithm = algorithm;
  t.port_model = problem.port_model;
  t.root = problem.root;
  t.result = result_;
  for (const Entry& e : entries_) {
    uint32_t& out = t.entries[t.at(e.node, e.round, e.port)];
    if (out & 0xFFFFu) throw std::logic_error(fmt::format("program: node {} sends twice on port {} in round {}", e.node, e.port, e.round));
    out |= e.send;
    const int to = topology_.neighbour(e.node, e.port);
    t.entries[t.at(to, e.round, topology_.reverse_port(e.node, e.port))] |= static_cast<uint32_t>(e.add) << 16;
  }
  validate_combining_sum(t, topology_, "the built program");
  return t;
}

void record_answer(const GroupResult& result, const std::vector<int>& group, std::vector<RegisterMask>& per_node) {
  for (size_t p = 0; p < group.size(); ++p) per_node[static_cast<size_t>(group[p])] = result.answer[p];
}

std::shared_ptr<const Tables> program_tables(const SumProgram& program, const Problem& problem,
                                             const std::string& algorithm, const std::string& construction) {
  auto tables = std::make_shared<CombiningSumTables>(program.tables(problem, algorithm));
  tables->construction = construction;
  return tables;
}

std::optional<int64_t> stated_count(int64_t count) { return count < 0 ? std::nullopt : std::optional<int64_t>(count); }

RegisterMask StepRegisters::operator[](size_t i) {
  while (regs_.size() <= i) regs_.push_back(program_.new_register());
  return static_cast<RegisterMask>(1u << regs_[i]);
}

std::vector<int> group_nodes(const Topology& swapped, int part, int group) {
  std::vector<int> out;
  for (int p = 0; p < swapped.base().num_nodes(); ++p) out.push_back(swapped.node_at({group, p, part}));
  return out;
}

namespace {

// The bases the group operations below are written for (group_prefix and the others):
// every family but graph files (a base is never swapped itself: the parser refuses it).
bool has_group_operations(const Topology& base) { return base.kind() != TopologyKind::Graph; }
std::string no_group_operation(const Topology& base) { return fmt::format("no group operation on a base {}", base.spec()); }

}  // namespace

Algorithm swapped_algorithm(const std::string& name, const std::string& collective, TopologyKind network,
                            const std::string& summary) {
  Algorithm a;
  a.name = name;
  a.collective = collective;
  a.router_kind = kCombiningSumKind;
  a.summary = summary;
  a.unsupported = [network, name](const Problem& p) -> std::string {
    if (p.topology.kind() != network) return fmt::format("{} runs on {}:BASE networks", name, name == "otis" ? "otis" : "bsn");
    if (p.port_model.one_port || p.port_model.half_duplex || p.port_model.combining)
      return "the swapped-network operations are all-port full-duplex";
    if (!has_group_operations(p.topology.base())) return no_group_operation(p.topology.base());
    return "";  // a program beyond the routers' registers is refused as it is built
  };
  a.is_default = [network](const Problem& p) { return p.topology.kind() == network; };  // the paper's on its network
  const std::string prefix = network == TopologyKind::Biswapped ? "bsn:" : "otis:";
  // Every base of up to 16 nodes the group operations run on (BSN: up to 2 n^2 = 512 nodes
  // at the default --max-size 64; a smaller --max-size M keeps bases of up to M / 4 nodes),
  // and at the default a 3D torus.
  a.sweep = [prefix](int max_size) {
    std::vector<SweepCase> out;
    const int top = std::clamp(max_size / 4, 2, 16);
    for (int n = 2; n <= top; ++n) out.push_back({prefix + "line:" + std::to_string(n), {}, ""});
    for (int n = 3; n <= top; ++n) out.push_back({prefix + "ring:" + std::to_string(n), {}, ""});
    for (int n = 2; n <= top; ++n) out.push_back({prefix + "complete:" + std::to_string(n), {}, ""});
    for (int d = 1; (1 << d) <= top; ++d) out.push_back({prefix + "hypercube:" + std::to_string(d), {}, ""});
    for (const char* grid : {"mesh:2x2", "mesh:2x3", "mesh:3x3", "mesh:3x4", "mesh:4x4", "torus:3x3", "torus:3x4"})
      if (Topology::parse(grid).num_nodes() <= top) out.push_back({prefix + grid, {}, ""});
    if (top >= 16) out.push_back({prefix + "torus:3x3x3", {}, ""});
    return out;
  };
  return a;
}

namespace {

// Ports of the 2D grids (topology.h): 0 S (+row), 1 N, 2 E (+column), 3 W.
constexpr int kSouth = 0, kNorth = 1, kEast = 2, kWest = 3;

bool is_path(const Topology& base) { return base.kind() == TopologyKind::Line || base.kind() == TopologyKind::Ring; }
bool is_grid(const Topology& base) { return base.kind() == TopologyKind::Mesh || base.kind() == TopologyKind::Torus; }

[[noreturn]] void unsupported_base(const Topology& base) {
  throw InputError(no_group_operation(base));
}

// The registers grid_prefix takes on a grid of `dims` dimensions.
size_t grid_prefix_registers(size_t dims) { return dims <= 2 ? 3 : grid_prefix_registers(dims - 1) + 2; }

// Inclusive prefix sums in row-major order over a sub-grid of the base: `procs` its
// processors in row-major order, `dims` its sizes (the base's dimensions from `first_dim`
// on), x[i] the operand of procs[i]; registers regs[first_reg...]. The answer and x are
// indexed as procs.
GroupResult grid_prefix(SumProgram& program, StepRegisters& regs, size_t first_reg, const std::vector<int>& group,
                        const std::vector<int>& procs, const std::vector<int>& dims, int first_dim, int64_t start,
                        const std::vector<RegisterMask>& x) {
  const Topology& base = program.topology().base();
  const size_t n = procs.size();
  auto node = [&](size_t i) { return group[static_cast<size_t>(procs[i])]; };
  GroupResult out;
  out.answer.resize(n);
  if (dims.size() == 2) {
    // Each column's prefix of the rows above pipelined down (R-1 rounds), then along each
    // row the operands and column prefixes to the right and the column prefixes to the
    // left (C-1 rounds): x + above + left(x + above) + right(above).
    const int rows = dims[0], cols = dims[1];
    const int down = 2 * first_dim, east = 2 * (first_dim + 1), west = east + 1;
    const RegisterMask above = regs[first_reg], from_left = regs[first_reg + 1], from_right = regs[first_reg + 2];
    for (int r = 0; r + 1 < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const size_t i = static_cast<size_t>(r * cols + c);
        program.send(start + r + 1, node(i), down, x[i] | above, above);
      }
    const int64_t row_start = start + rows - 1;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const size_t i = static_cast<size_t>(r * cols + c);
        if (c + 1 < cols) program.send(row_start + c + 1, node(i), east, x[i] | above | from_left, from_left);
        if (c > 0) program.send(row_start + (cols - 1 - c) + 1, node(i), west, above | from_right, from_right);
        out.answer[i] = static_cast<RegisterMask>(x[i] | above | from_left | from_right);
      }
    out.rounds = rows + cols - 2;
    return out;
  }
  // More dimensions: the prefix in every slice of the first dimension (the slices share
  // registers: their processors differ), each slice's total -- its last processor's
  // prefix -- passed on along the first dimension as the offset of the slices after, and
  // that offset broadcast through the slice down a breadth-first tree of its links.
  const std::vector<int> sub_dims(dims.begin() + 1, dims.end());
  const size_t slice = n / static_cast<size_t>(dims[0]);
  const size_t sub_regs = grid_prefix_registers(sub_dims.size());
  const RegisterMask before = regs[first_reg + sub_regs], offset = regs[first_reg + sub_regs + 1];
  int64_t slice_rounds = 0, spread = 0;
  for (size_t s = 0; s < static_cast<size_t>(dims[0]); ++s) {
    const auto from = static_cast<std::ptrdiff_t>(s * slice), to = static_cast<std::ptrdiff_t>((s + 1) * slice);
    const GroupResult r = grid_prefix(program, regs, first_reg, group, {procs.begin() + from, procs.begin() + to},
                                      sub_dims, first_dim + 1, start, {x.begin() + from, x.begin() + to});
    std::copy(r.answer.begin(), r.answer.end(), out.answer.begin() + from);
    slice_rounds = r.rounds;
  }
  const int64_t along = start + slice_rounds, spread_start = along + dims[0] - 1;
  for (size_t s = 0; s < static_cast<size_t>(dims[0]); ++s) {
    const size_t last = s * slice + slice - 1;
    if (s + 1 < static_cast<size_t>(dims[0]))
      program.send(along + static_cast<int64_t>(s) + 1, node(last), 2 * first_dim, out.answer[last] | before, before);
    if (s == 0) continue;
    // The broadcast of `before` from the slice's last processor over the links of the later dimensions.
    std::vector<int> depth(static_cast<size_t>(base.num_nodes()), -1), order{procs[last]};
    depth[static_cast<size_t>(procs[last])] = 0;
    for (size_t head = 0; head < order.size(); ++head) {
      const int u = order[head];
      for (int port = 2 * (first_dim + 1); port < 2 * static_cast<int>(base.dims().size()); ++port) {
        const int v = base.neighbour(u, port);
        if (v < 0 || depth[static_cast<size_t>(v)] >= 0) continue;
        depth[static_cast<size_t>(v)] = depth[static_cast<size_t>(u)] + 1;
        order.push_back(v);
        program.send(spread_start + depth[static_cast<size_t>(v)], group[static_cast<size_t>(u)], port,
                     order.front() == u ? before : offset, offset);
        spread = std::max<int64_t>(spread, depth[static_cast<size_t>(v)]);
      }
    }
    for (size_t i = s * slice; i < last; ++i) out.answer[i] = static_cast<RegisterMask>(out.answer[i] | offset);
    out.answer[last] = static_cast<RegisterMask>(out.answer[last] | before);
  }
  out.rounds = slice_rounds + dims[0] - 1 + spread;
  return out;
}

}  // namespace

GroupResult group_prefix(SumProgram& program, StepRegisters& regs, const std::vector<int>& group, int64_t start,
                         const std::vector<RegisterMask>& x, bool exclusive) {
  const Topology& base = program.topology().base();
  const int n = base.num_nodes();
  GroupResult out;
  out.answer.resize(static_cast<size_t>(n));
  auto node = [&](int p) { return group[static_cast<size_t>(p)]; };
  auto op = [&](int p) { return x[static_cast<size_t>(p)]; };
  if (is_path(base)) {
    // Along the path 0, 1, ..., n-1: processor i passes on the prefix through i in round i + 1.
    const RegisterMask left = regs[0];
    for (int i = 0; i + 1 < n; ++i) program.send(start + i + 1, node(i), 0, op(i) | left, left);
    for (int i = 0; i < n; ++i) out.answer[static_cast<size_t>(i)] = static_cast<RegisterMask>((exclusive ? 0 : op(i)) | left);
    out.rounds = n - 1;
  } else if (is_grid(base)) {
    std::vector<int> procs(static_cast<size_t>(n));
    for (int p = 0; p < n; ++p) procs[static_cast<size_t>(p)] = p;
    const GroupResult r = grid_prefix(program, regs, 0, group, procs, base.dims(), 0, start, x);
    for (int p = 0; p < n; ++p)
      out.answer[static_cast<size_t>(p)] = static_cast<RegisterMask>(r.answer[static_cast<size_t>(p)] & (exclusive ? ~op(p) : 0xFFFF));
    out.rounds = r.rounds;
  } else if (base.kind() == TopologyKind::Hypercube) {
    // Recursive doubling: in round k+1 partners across bit k swap subcube totals; the
    // upper one adds the lower's into its prefix too.
    const int dims = base.dims()[0];
    const RegisterMask total = regs[0], prefix = regs[1];
    for (int k = 0; k < dims; ++k)
      for (int i = 0; i < n; ++i) {
        const int partner = i ^ (1 << k);
        program.send(start + k + 1, node(i), k, op(i) | total, static_cast<RegisterMask>(total | ((partner >> k) & 1 ? prefix : 0)));
      }
    for (int i = 0; i < n; ++i) out.answer[static_cast<size_t>(i)] = static_cast<RegisterMask>((exclusive ? 0 : op(i)) | prefix);
    out.rounds = dims;
  } else if (base.kind() == TopologyKind::Complete) {
    const RegisterMask prefix = regs[0];
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) program.send(start + 1, node(i), j - i - 1, op(i), prefix);
    for (int i = 0; i < n; ++i) out.answer[static_cast<size_t>(i)] = static_cast<RegisterMask>((exclusive ? 0 : op(i)) | prefix);
    out.rounds = 1;
  } else {
    unsupported_base(base);
  }
  return out;
}

GroupResult group_data_sum(SumProgram& program, StepRegisters& regs, const std::vector<int>& group, int64_t start,
                           const std::vector<RegisterMask>& x) {
  const Topology& base = program.topology().base();
  const int n = base.num_nodes();
  GroupResult out;
  out.answer.resize(static_cast<size_t>(n));
  auto node = [&](int p) { return group[static_cast<size_t>(p)]; };
  auto op = [&](int p) { return x[static_cast<size_t>(p)]; };
  // Along a path of `len` processors p(0..len-1) joined by ports fwd/back: the sums from
  // either end pipelined towards the other at once (len-1 rounds).
  auto path_sum = [&](auto proc, int len, int fwd, int back, RegisterMask from_front, RegisterMask from_back,
                      const std::vector<RegisterMask>& operand, int64_t first) {
    for (int i = 0; i < len; ++i) {
      const int p = proc(i);
      if (i + 1 < len) program.send(first + i + 1, node(p), fwd, operand[static_cast<size_t>(p)] | from_front, from_front);
      if (i > 0) program.send(first + (len - 1 - i) + 1, node(p), back, operand[static_cast<size_t>(p)] | from_back, from_back);
    }
  };
  if (is_path(base)) {
    path_sum([](int i) { return i; }, n, 0, 1, regs[0], regs[1], x, start);
    for (int i = 0; i < n; ++i) out.answer[static_cast<size_t>(i)] = static_cast<RegisterMask>(op(i) | regs[0] | regs[1]);
    out.rounds = n - 1;
  } else if (is_grid(base)) {
    // Dimension by dimension from the last: along every line of the dimension the sums
    // from either end at once; what a processor then holds is the next dimension's operand.
    const std::vector<int>& dims = base.dims();
    const int k = static_cast<int>(dims.size());
    std::vector<RegisterMask> partial = x;
    int64_t at = start;
    int stride = 1;  // of dimension d in row-major order
    for (int d = k - 1; d >= 0; --d) {
      const RegisterMask front = regs[static_cast<size_t>(2 * (k - 1 - d))], back = regs[static_cast<size_t>(2 * (k - 1 - d) + 1)];
      const int len = dims[static_cast<size_t>(d)];
      for (int p = 0; p < n; ++p)
        if ((p / stride) % len == 0) path_sum([&](int i) { return p + i * stride; }, len, 2 * d, 2 * d + 1, front, back, partial, at);
      for (RegisterMask& m : partial) m = static_cast<RegisterMask>(m | front | back);
      at += len - 1;
      stride *= len;
    }
    out.answer = partial;
    out.rounds = at - start;
  } else if (base.kind() == TopologyKind::Hypercube) {
    const int dims = base.dims()[0];
    for (int k = 0; k < dims; ++k)
      for (int i = 0; i < n; ++i) program.send(start + k + 1, node(i), k, op(i) | regs[0], regs[0]);
    for (int i = 0; i < n; ++i) out.answer[static_cast<size_t>(i)] = static_cast<RegisterMask>(op(i) | regs[0]);
    out.rounds = dims;
  } else if (base.kind() == TopologyKind::Complete) {
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n - 1; ++k) program.send(start + 1, node(i), k, op(i), regs[0]);
    for (int i = 0; i < n; ++i) out.answer[static_cast<size_t>(i)] = static_cast<RegisterMask>(op(i) | regs[0]);
    out.rounds = 1;
  } else {
    unsupported_base(base);
  }
  return out;
}

GroupResult group_broadcast(SumProgram& program, StepRegisters& regs, const std::vector<int>& group, int64_t start,
                            int source, RegisterMask operand) {
  const Topology& base = program.topology().base();
  const int n = base.num_nodes();
  const RegisterMask held = regs[0];
  GroupResult out;
  out.answer.assign(static_cast<size_t>(n), held);
  out.answer[static_cast<size_t>(source)] = operand;
  // A breadth-first tree: each processor hears it once, from its parent, in the round of its depth.
  std::vector<int> depth(static_cast<size_t>(n), -1), order{source};
  depth[static_cast<size_t>(source)] = 0;
  for (size_t head = 0; head < order.size(); ++head) {
    const int u = order[head];
    for (int port = 0; port < base.num_ports(); ++port) {
      const int v = base.neighbour(u, port);
      if (v < 0 || depth[static_cast<size_t>(v)] >= 0) continue;
      depth[static_cast<size_t>(v)] = depth[static_cast<size_t>(u)] + 1;
      order.push_back(v);
      program.send(start + depth[static_cast<size_t>(v)], group[static_cast<size_t>(u)], port, u == source ? operand : held, held);
      out.rounds = std::max<int64_t>(out.rounds, depth[static_cast<size_t>(v)]);
    }
  }
  return out;
}

}  // namespace fixroute
