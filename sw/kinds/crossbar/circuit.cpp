#include "sw/kinds/crossbar/circuit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

void require_mesh(const Topology& topology, const std::string& what) {
  if (topology.kind() != TopologyKind::Mesh || topology.dims().size() != 2)
    throw InputError(fmt::format("{} runs on a circuit-switched mesh:RxC, not {}", what, topology.spec()));
}

std::vector<Hop> row_column_route(const Topology& mesh, int source, int dest) {
  std::vector<Hop> hops;
  const int cols = mesh.dims()[1];
  for_each_hop(cols, source, dest, [&](int row, int col, int in, int out) { hops.push_back({row * cols + col, in, out}); });
  return hops;
}

namespace {

// The claims of a circuit as runs of one kind of port along one line of the mesh: the
// east (west) out-ports of consecutive routers of its row, the south (north) out-ports of
// consecutive routers of its column, and its source's local in-port and its destination's
// local out-port as runs of one. Two circuits conflict exactly when two runs of one line
// overlap, so a step is checked with a sort of its circuits' runs, not of their hops.
struct ClaimRun {
  uint64_t line;  // which port kind on which row, column or node
  int begin, end;  // positions [begin, end) along the line
  bool operator<(const ClaimRun& o) const { return line != o.line ? line < o.line : begin < o.begin; }
};

template <class Emit>
void claim_runs(int rows, int cols, const Circuit& c, Emit&& emit) {
  const int row = c.source / cols, col = c.source % cols, dest_row = c.dest / cols, dest_col = c.dest % cols;
  const uint64_t r = static_cast<uint64_t>(rows), k = static_cast<uint64_t>(cols);
  const uint64_t nodes = r * k;
  // line ids: per row east, west; per column south, north; per node local in, local out
  if (dest_col > col) emit(ClaimRun{static_cast<uint64_t>(row), col, dest_col});
  if (dest_col < col) emit(ClaimRun{r + static_cast<uint64_t>(row), dest_col + 1, col + 1});
  if (dest_row > row) emit(ClaimRun{2 * r + static_cast<uint64_t>(dest_col), row, dest_row});
  if (dest_row < row) emit(ClaimRun{2 * r + k + static_cast<uint64_t>(dest_col), dest_row + 1, row + 1});
  emit(ClaimRun{2 * r + 2 * k + static_cast<uint64_t>(c.source), 0, 1});
  emit(ClaimRun{2 * r + 2 * k + nodes + static_cast<uint64_t>(c.dest), 0, 1});
}

bool any_link_conflict(const Topology& mesh, const std::vector<Circuit>& step) {
  std::vector<ClaimRun> runs;
  runs.reserve(step.size() * 4);
  for (const Circuit& c : step) claim_runs(mesh.dims()[0], mesh.dims()[1], c, [&](const ClaimRun& run) { runs.push_back(run); });
  std::sort(runs.begin(), runs.end());
  for (size_t i = 1; i < runs.size(); ++i)
    if (runs[i].line == runs[i - 1].line && runs[i].begin < runs[i - 1].end) return true;  // sorted: no run begins inside an earlier one otherwise
  return false;
}

}  // namespace

std::vector<std::string> link_conflicts(const Topology& mesh, const std::vector<Circuit>& step) {
  if (!any_link_conflict(mesh, step)) return {};
  // Conflicts are rare (a bad schedule or trace): name them from the hops.
  // Every out-port of every router (the local one included: one delivery per node) and
  // every local in-port (one message sent per node) may be claimed once. Claims are
  // sorted by what they claim (memory grows with the step's hops, not with the mesh);
  // conflicts come out in the order the later claim appears in the step.
  struct Claim {
    uint64_t what;   // out-port: node * 5 + port; local in-port: nodes * 5 + node
    uint64_t order;  // 2 x the hop's place in the step, +1 for its out-port
    size_t circuit;
  };
  const uint64_t local_in_base = static_cast<uint64_t>(mesh.num_nodes()) * (kLocalPort + 1);
  const int cols = mesh.dims()[1];
  size_t hops = 0;  // a row-column path has a hop per router it passes
  for (const Circuit& c : step)
    hops += static_cast<size_t>(std::abs(c.source / cols - c.dest / cols) + std::abs(c.source % cols - c.dest % cols) + 1);
  std::vector<Claim> claims;
  std::vector<Hop> hops_of_claim;  // by order / 2
  claims.reserve(hops + step.size());
  hops_of_claim.reserve(hops);
  for (size_t c = 0; c < step.size(); ++c)
    for (const Hop& h : row_column_route(mesh, step[c].source, step[c].dest)) {
      const uint64_t order = 2 * static_cast<uint64_t>(hops_of_claim.size());
      hops_of_claim.push_back(h);
      if (h.in_port == kLocalPort) claims.push_back({local_in_base + static_cast<uint64_t>(h.node), order, c});
      claims.push_back({static_cast<uint64_t>(h.node) * (kLocalPort + 1) + static_cast<uint64_t>(h.out_port), order + 1, c});
    }
  std::sort(claims.begin(), claims.end(),
            [](const Claim& x, const Claim& y) { return x.what != y.what ? x.what < y.what : x.order < y.order; });
  std::vector<std::pair<uint64_t, std::string>> found;  // (order, description)
  for (size_t i = 1; i < claims.size(); ++i) {
    if (claims[i].what != claims[i - 1].what) continue;
    size_t first = i - 1;
    while (first > 0 && claims[first - 1].what == claims[i].what) --first;
    const Circuit& a = step[claims[first].circuit];
    const Circuit& b = step[claims[i].circuit];
    const Hop& h = hops_of_claim[claims[i].order / 2];
    std::string text;
    if (claims[i].what >= local_in_base) {
      text = fmt::format("circuits {}->{} and {}->{} both start at node {}", a.source, a.dest, b.source, b.dest, h.node);
    } else {
      const std::string where = h.out_port == kLocalPort ? fmt::format("the delivery port of node {}", h.node)
                                                         : fmt::format("link {}->{}", h.node, mesh.neighbour(h.node, h.out_port));
      text = fmt::format("circuits {}->{} and {}->{} both claim {}", a.source, a.dest, b.source, b.dest, where);
    }
    found.emplace_back(claims[i].order, std::move(text));
  }
  std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> conflicts;
  conflicts.reserve(found.size());
  for (auto& f : found) conflicts.push_back(std::move(f.second));
  return conflicts;
}

int64_t max_link_load(const Topology& mesh, const std::vector<Circuit>& circuits) {
  // Each circuit's row and column runs added to per-line difference arrays; a prefix sum
  // along every line gives each link port's load (a pass over the mesh, not the hops).
  const int rows = mesh.dims()[0], cols = mesh.dims()[1];
  const size_t row_lines = 2 * static_cast<size_t>(rows), link_lines = row_lines + 2 * static_cast<size_t>(cols);
  auto start = [&](size_t line) {  // a row's line has cols + 1 slots, a column's rows + 1
    return line < row_lines ? line * static_cast<size_t>(cols + 1)
                            : row_lines * static_cast<size_t>(cols + 1) + (line - row_lines) * static_cast<size_t>(rows + 1);
  };
  std::vector<int32_t> diff(start(link_lines), 0);
  for (const Circuit& c : circuits)
    claim_runs(rows, cols, c, [&](const ClaimRun& run) {
      if (run.line >= link_lines) return;  // the local ports: one each, not links
      ++diff[start(static_cast<size_t>(run.line)) + static_cast<size_t>(run.begin)];
      --diff[start(static_cast<size_t>(run.line)) + static_cast<size_t>(run.end)];
    });
  int64_t most = 0;
  for (size_t line = 0; line < link_lines; ++line) {
    int64_t load = 0;
    for (size_t pos = start(line); pos < start(line + 1); ++pos) most = std::max(most, load += diff[pos]);
  }
  return most;
}

int64_t circuit_count(const CircuitSchedule& schedule) {
  int64_t n = 0;
  for (const auto& s : schedule.steps) n += static_cast<int64_t>(s.size());
  return n;
}

std::vector<std::string> schedule_conflicts(const Topology& mesh, const CircuitSchedule& schedule) {
  std::vector<std::string> out;
  for (size_t t = 0; t < schedule.steps.size(); ++t)
    for (const std::string& c : link_conflicts(mesh, schedule.steps[t]))
      out.push_back(fmt::format("step {}: {}", t + 1, c));
  return out;
}

}  // namespace fixroute
