#include "sw/kinds/tdm/link_load_lp.h"

#include <fmt/format.h>
#include <glpk.h>

#include <cmath>
#include <memory>

#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// One commodity per source: its phits flow on the arcs of its shortest-path graph (an arc
// u -> v with dist(s, v) = dist(s, u) + 1; every path of that graph is a shortest path, and
// every shortest path is in it), kept to the nodes on a shortest path to one of its flows'
// destinations. Node v (not s) keeps what reaches it less what leaves it: the phits a
// period of the flow s -> v.
struct Commodity {
  int source = 0;
  std::vector<int64_t> demand;                 // per node: phits a period from the source
  std::vector<std::pair<int, int>> arcs;       // (node, port) on a shortest path to a destination
};

std::vector<Commodity> commodities_of(const Topology& t, const std::vector<TdmFlow>& flows) {
  const int n = t.num_nodes();
  std::vector<std::vector<const TdmFlow*>> by_source(static_cast<size_t>(n));
  std::vector<char> is_destination(static_cast<size_t>(n), 0);
  for (const TdmFlow& f : flows) {
    by_source[static_cast<size_t>(f.src)].push_back(&f);
    is_destination[static_cast<size_t>(f.dst)] = 1;
  }
  std::vector<std::vector<int>> to(static_cast<size_t>(n));  // distances to each destination
  for (int v = 0; v < n; ++v)
    if (is_destination[static_cast<size_t>(v)]) to[static_cast<size_t>(v)] = t.distances_from(v);
  std::vector<Commodity> out;
  for (int s = 0; s < n; ++s) {
    if (by_source[static_cast<size_t>(s)].empty()) continue;
    Commodity c;
    c.source = s;
    c.demand.assign(static_cast<size_t>(n), 0);
    const std::vector<int> from = t.distances_from(s);
    // An arc u -> v serves the flow s -> d where it lies on a shortest path of it.
    std::vector<char> useful(static_cast<size_t>(n) * static_cast<size_t>(t.num_ports()), 0);
    for (const TdmFlow* f : by_source[static_cast<size_t>(s)]) {
      c.demand[static_cast<size_t>(f->dst)] += f->phits;
      const std::vector<int>& back = to[static_cast<size_t>(f->dst)];
      const int length = from[static_cast<size_t>(f->dst)];
      for (int u = 0; u < n; ++u) {
        if (from[static_cast<size_t>(u)] + back[static_cast<size_t>(u)] != length || u == f->dst) continue;
        for (int p = 0; p < t.num_ports(); ++p) {
          const int v = t.neighbour(u, p);
          if (v >= 0 && from[static_cast<size_t>(v)] == from[static_cast<size_t>(u)] + 1 &&
              back[static_cast<size_t>(v)] == back[static_cast<size_t>(u)] - 1)
            useful[static_cast<size_t>(u) * static_cast<size_t>(t.num_ports()) + static_cast<size_t>(p)] = 1;
        }
      }
    }
    for (int u = 0; u < n; ++u)
      for (int p = 0; p < t.num_ports(); ++p)
        if (useful[static_cast<size_t>(u) * static_cast<size_t>(t.num_ports()) + static_cast<size_t>(p)])
          c.arcs.push_back({u, p});
    out.push_back(std::move(c));
  }
  return out;
}

struct ProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

}  // namespace

std::optional<LowerBound> shortest_path_link_load_lp(const Topology& t, const std::vector<TdmFlow>& flows) {
  // Finding the arcs looks at every node and port once a flow: left out where that alone
  // would be long (total exchange beyond about 150 nodes).
  if (static_cast<int64_t>(flows.size()) * t.num_nodes() * t.num_ports() > kMaxLinkLoadLpSearch) return std::nullopt;
  const std::vector<Commodity> commodities = commodities_of(t, flows);
  int64_t variables = 1;
  for (const Commodity& c : commodities) variables += static_cast<int64_t>(c.arcs.size());
  if (variables > kMaxLinkLoadLpVariables || commodities.empty()) return std::nullopt;

  const int n = t.num_nodes(), ports = t.num_ports();
  std::unique_ptr<glp_prob, ProblemDeleter> lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MIN);
  // Column 1: the busiest link's load L; then one per commodity and arc.
  glp_add_cols(lp.get(), static_cast<int>(variables));
  for (int col = 1; col <= variables; ++col) glp_set_col_bnds(lp.get(), col, GLP_LO, 0.0, 0.0);
  glp_set_obj_coef(lp.get(), 1, 1.0);
  // Rows: per arc of the network, its load at most L; per commodity and node but the source,
  // what comes in less what goes out is its demand.
  const int arc_rows = n * ports;
  glp_add_rows(lp.get(), arc_rows + static_cast<int>(commodities.size()) * n);
  for (int a = 0; a < arc_rows; ++a) glp_set_row_bnds(lp.get(), 1 + a, GLP_UP, 0.0, 0.0);
  std::vector<int> rows{0}, cols{0};  // GLPK counts from 1
  std::vector<double> values{0.0};
  auto entry = [&](int row, int col, double value) {
    rows.push_back(row);
    cols.push_back(col);
    values.push_back(value);
  };
  for (int a = 0; a < arc_rows; ++a) entry(1 + a, 1, -1.0);
  int col = 1;
  for (size_t k = 0; k < commodities.size(); ++k) {
    const Commodity& c = commodities[k];
    const int first_row = 1 + arc_rows + static_cast<int>(k) * n;
    for (int v = 0; v < n; ++v) {
      if (v == c.source)
        glp_set_row_bnds(lp.get(), first_row + v, GLP_FR, 0.0, 0.0);  // implied by the others
      else
        glp_set_row_bnds(lp.get(), first_row + v, GLP_FX, static_cast<double>(c.demand[static_cast<size_t>(v)]),
                         static_cast<double>(c.demand[static_cast<size_t>(v)]));
    }
    for (const auto& [u, p] : c.arcs) {
      ++col;
      const int v = t.neighbour(u, p);
      entry(1 + u * ports + p, col, 1.0);
      entry(first_row + v, col, 1.0);
      entry(first_row + u, col, -1.0);
    }
  }
  glp_load_matrix(lp.get(), static_cast<int>(rows.size()) - 1, rows.data(), cols.data(), values.data());
  // The interior-point method: on total exchange several times faster than the simplex
  // here (mesh 10x10: 1.8 s against 2.6 s); the simplex where it stops short.
  double load = 0;
  glp_iptcp interior;
  glp_init_iptcp(&interior);
  interior.msg_lev = GLP_MSG_OFF;
  if (glp_interior(lp.get(), &interior) == 0 && glp_ipt_status(lp.get()) == GLP_OPT) {
    load = glp_ipt_obj_val(lp.get());
  } else {
    glp_smcp simplex;
    glp_init_smcp(&simplex);
    simplex.msg_lev = GLP_MSG_OFF;
    simplex.presolve = GLP_ON;
    if (glp_simplex(lp.get(), &simplex) != 0 || glp_get_status(lp.get()) != GLP_OPT) return std::nullopt;
    load = glp_get_obj_val(lp.get());
  }
  // The least load rounded up (a period carries whole phits), less the solvers' relative
  // tolerance: an optimum of 250 found as 250.000002 is still 250.
  const int64_t bound = static_cast<int64_t>(std::ceil(load * (1.0 - 1e-6) - 1e-6));
  return LowerBound{"link load (LP)", bound,
                    fmt::format("the busiest link carries {:.2f} phits a period at least, however the flows split among "
                                "their shortest paths (linear program, GLPK)",
                                load)};
}

}  // namespace fixroute
