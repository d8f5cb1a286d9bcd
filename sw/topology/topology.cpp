#include "topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <numeric>
#include <stdexcept>

#include "sw/core/errors.h"
#include "sw/topology/listing_file.h"

namespace fixroute {
namespace {

constexpr const char* kAccepted =
    "accepted: line:N (N>=2), ring:N (N>=3), mesh:RxC[xD...] (each >=2), torus:AxB[xC...] "
    "(2 or more sizes, each >=3), hypercube:D (1<=D<=16), complete:N (N>=2), bsn:BASE, otis:BASE "
    "(BASE one of the others), graph:FILE (a list of links, docs/topologies.md); at most 4194304 nodes";

// Part of a spec as errors quote it: at most 64 characters, a longer one cut with its length said.
std::string cut(const std::string& text) {
  constexpr size_t kShown = 64;
  if (text.size() <= kShown) return text;
  return fmt::format("{}... ({} characters)", text.substr(0, kShown), text.size());
}

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
  throw InputError(fmt::format("bad topology '{}': {}; {}", cut(spec), why, kAccepted));
}

// A strictly positive decimal number without sign, spaces or suffix.
long parse_size(const std::string& spec, const std::string& text) {
  if (text.empty()) bad_spec(spec, "a size is missing");
  if (text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    bad_spec(spec, fmt::format("size '{}' is not a whole number up to {}", cut(text), Topology::kMaxNodes));
  return std::strtol(text.c_str(), nullptr, 10);
}

std::vector<long> parse_sizes(const std::string& spec, const std::string& text) {
  std::vector<long> out;
  size_t start = 0;
  while (true) {
    size_t x = text.find('x', start);
    out.push_back(parse_size(spec, text.substr(start, x == std::string::npos ? std::string::npos : x - start)));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  return out;
}

}  // namespace

Topology Topology::parse(const std::string& spec) { return parse(spec, kMaxNodes); }

Topology Topology::parse(const std::string& spec, int max_nodes) {
  const int64_t max_node_ports = kMaxNodePorts / kMaxNodes * std::clamp(max_nodes, 1, kMaxNodes);
  Topology t;
  size_t colon = spec.find(':');
  if (colon == std::string::npos) bad_spec(spec, "expected KIND:SIZE");
  std::string kind = spec.substr(0, colon);
  std::string args = spec.substr(colon + 1);
  if (kind == "bsn" || kind == "otis") {
    // A swapped network over any other topology (the biswapped-network paper, section 2).
    Topology base;
    try {
      base = parse(args, max_nodes);
    } catch (const InputError&) {
      bad_spec(spec, fmt::format("its base '{}' is not a topology", cut(args)));
    }
    if (base.swapped()) bad_spec(spec, "the base of a swapped network cannot be swapped itself");
    const int64_t n = base.num_nodes();
    const int64_t nodes = (kind == "bsn" ? 2 : 1) * n * n;
    if (nodes > max_nodes) bad_spec(spec, fmt::format("more than {} nodes", max_nodes));
    if (nodes * (base.num_ports() + 1) > max_node_ports)
      bad_spec(spec, fmt::format("more than {} node ports", max_node_ports));
    t.kind_ = kind == "bsn" ? TopologyKind::Biswapped : TopologyKind::Swapped;
    t.kind_name_ = kind;
    t.num_nodes_ = static_cast<int>(nodes);
    t.dims_ = {static_cast<int>(n)};
    t.spec_ = kind + ":" + base.spec();
    t.base_ = std::make_shared<const Topology>(std::move(base));
    t.build_swapped();
    return t;
  }
  if (kind == "graph") {
    if (args.empty()) bad_spec(spec, "graph: needs a FILE");
    t.kind_ = TopologyKind::Graph;
    t.kind_name_ = kind;
    t.build_graph(args, max_nodes);
    return t;
  }
  std::vector<long> sizes;
  if (kind == "complete") {
    sizes.push_back(parse_size(spec, args));
    if (sizes[0] < 2) bad_spec(spec, "a complete graph needs N>=2");
    if (sizes[0] * (sizes[0] - 1) > max_node_ports) bad_spec(spec, fmt::format("more than {} node ports", max_node_ports));
  } else if (kind == "line" || kind == "ring" || kind == "hypercube") {
    sizes.push_back(parse_size(spec, args));
  } else if (kind == "mesh" || kind == "torus") {
    sizes = parse_sizes(spec, args);
  } else {
    bad_spec(spec, fmt::format("unknown kind '{}'", cut(kind)));
  }

  long nodes = 1;
  if (kind == "complete") {
    t.kind_ = TopologyKind::Complete;
    nodes = sizes[0];
  } else if (kind == "line") {
    if (sizes[0] < 2) bad_spec(spec, "a line needs N>=2");
    t.kind_ = TopologyKind::Line;
    nodes = sizes[0];
  } else if (kind == "ring") {
    if (sizes[0] < 3) bad_spec(spec, "a ring needs N>=3");
    t.kind_ = TopologyKind::Ring;
    nodes = sizes[0];
  } else if (kind == "hypercube") {
    if (sizes[0] < 1 || sizes[0] > kMaxHypercubeDimension)
      bad_spec(spec, fmt::format("a hypercube needs 1<=D<={}", kMaxHypercubeDimension));
    t.kind_ = TopologyKind::Hypercube;
    nodes = 1L << sizes[0];
  } else if (kind == "mesh") {
    if (sizes.size() < 2) bad_spec(spec, "a mesh takes two or more sizes RxC[xD...]");
    t.kind_ = TopologyKind::Mesh;
  } else {
    if (sizes.size() < 2) bad_spec(spec, "a torus takes two or more sizes AxB[xC...]");
    t.kind_ = TopologyKind::Torus;
  }
  if (t.kind_ == TopologyKind::Mesh || t.kind_ == TopologyKind::Torus) {
    long min_size = t.kind_ == TopologyKind::Mesh ? 2 : 3;
    for (long s : sizes) {
      if (s < min_size) bad_spec(spec, fmt::format("every size of a {} must be >={}", kind, min_size));
      nodes *= s;
      if (nodes > max_nodes) break;
    }
  }
  if (nodes > max_nodes) bad_spec(spec, fmt::format("more than {} nodes", max_nodes));

  t.kind_name_ = kind;
  for (long s : sizes) t.dims_.push_back(static_cast<int>(s));
  t.num_nodes_ = static_cast<int>(nodes);
  t.spec_ = kind + ":" + fmt::format("{}", fmt::join(t.dims_, "x"));
  t.build();
  return t;
}

void Topology::build() {
  if (kind_ == TopologyKind::Complete) {
    num_ports_ = num_nodes_ - 1;
    nbr_.resize(static_cast<size_t>(num_nodes_) * num_ports_);
    rev_.resize(nbr_.size());
    for (int node = 0; node < num_nodes_; ++node)
      for (int k = 0; k < num_ports_; ++k) {
        nbr_[index(node, k)] = (node + k + 1) % num_nodes_;
        rev_[index(node, k)] = num_nodes_ - k - 2;
      }
    return;
  }
  if (kind_ == TopologyKind::Hypercube) {
    num_ports_ = dims_[0];
  } else {
    num_ports_ = 2 * static_cast<int>(dims_.size());
  }
  nbr_.assign(static_cast<size_t>(num_nodes_) * num_ports_, -1);
  rev_.assign(nbr_.size(), -1);
  const bool wraps = kind_ == TopologyKind::Ring || kind_ == TopologyKind::Torus;
  for (int node = 0; node < num_nodes_; ++node) {
    if (kind_ == TopologyKind::Hypercube) {
      for (int b = 0; b < num_ports_; ++b) {
        nbr_[index(node, b)] = node ^ (1 << b);
        rev_[index(node, b)] = b;
      }
      continue;
    }
    std::vector<int> c = coords(node);
    int stride = 1;
    for (int k = static_cast<int>(dims_.size()) - 1; k >= 0; --k) {
      for (int dir = 0; dir < 2; ++dir) {
        int step = dir == 0 ? 1 : -1;
        int v = c[k] + step;
        if (v < 0 || v >= dims_[k]) {
          if (!wraps) continue;
          v = (v + dims_[k]) % dims_[k];
        }
        int port = 2 * k + dir;
        nbr_[index(node, port)] = node + (v - c[k]) * stride;
        rev_[index(node, port)] = 2 * k + (1 - dir);
      }
      stride *= dims_[k];
    }
  }
}

void Topology::build_swapped() {
  const Topology& b = *base_;
  const int swap = b.num_ports();
  num_ports_ = swap + 1;
  nbr_.assign(static_cast<size_t>(num_nodes_) * num_ports_, -1);
  rev_.assign(nbr_.size(), -1);
  for (int node = 0; node < num_nodes_; ++node) {
    const SwappedNode at = place(node);
    for (int q = 0; q < swap; ++q) {
      const int other = b.neighbour(at.proc, q);
      if (other < 0) continue;
      nbr_[index(node, q)] = node_at({at.group, other, at.part});
      rev_[index(node, q)] = b.reverse_port(at.proc, q);
    }
    // The swap links: <g,p,0> -- <p,g,1> (biswapped); <g,p> -- <p,g> for g != p (OTIS).
    if (kind_ == TopologyKind::Swapped && at.group == at.proc) continue;
    nbr_[index(node, swap)] = node_at({at.proc, at.group, kind_ == TopologyKind::Biswapped ? 1 - at.part : 0});
    rev_[index(node, swap)] = swap;
  }
}

void Topology::build_graph(const std::string& path, int max_nodes) {
  const ListingFile listing(path, "bad graph file", kMaxGraphFileBytes);
  spec_ = "graph:" + listing.absolute();
  struct End {
    int node = 0;
    int port = -1;  // -1: numbered in order
  };
  struct Link {
    End a, b;
    int line = 0;
  };
  std::vector<Link> links;
  int declared = -1, declared_line = 0, highest = -1, with_ports = 0;
  for (const auto& [number, w] : listing.lines()) {
    if (w[0] == "nodes") {
      if (w.size() != 2) listing.fail(number, "expected 'nodes N'");
      if (declared >= 0) listing.fail(number, fmt::format("'nodes' again (line {})", declared_line));
      declared = listing.number(number, w[1], 0, int64_t{max_nodes} + 1, "node count");
      declared_line = number;
      continue;
    }
    if (w.size() != 2) listing.fail(number, "expected a link 'A B' or 'A:PORT B:PORT'");
    Link link;
    link.line = number;
    End* ends[2] = {&link.a, &link.b};
    for (int e = 0; e < 2; ++e) {
      const std::string& word = w[static_cast<size_t>(e)];
      const size_t colon = word.find(':');
      ends[e]->node = listing.number(number, word.substr(0, colon), 0, max_nodes, "node");
      if (colon != std::string::npos) {
        ends[e]->port = listing.number(number, word.substr(colon + 1), 0, kMaxGraphPorts, "port");
        ++with_ports;
      }
      highest = std::max(highest, ends[e]->node);
    }
    if (link.a.node == link.b.node) listing.fail(number, fmt::format("a self-loop at node {}", link.a.node));
    links.push_back(link);
  }
  if (links.empty()) listing.fail("no links");
  if (with_ports != 0 && with_ports != static_cast<int>(2 * links.size()))
    listing.fail("ports are numbered at some link ends and not others: number all or none");
  const int nodes = declared >= 0 ? declared : highest + 1;
  if (highest >= nodes) listing.fail(fmt::format("node {} is not below the {} nodes of line {}", highest, nodes, declared_line));
  if (nodes < 2) listing.fail("fewer than 2 nodes");
  // Repeated links, ports used twice, then ports numbered in order where the file gives none.
  std::map<std::pair<int, int>, int> link_line;
  std::vector<std::map<int, int>> port_line(static_cast<size_t>(nodes));
  for (const Link& l : links) {
    const auto key = std::minmax(l.a.node, l.b.node);
    const auto [at, fresh] = link_line.emplace(key, l.line);
    if (!fresh)
      listing.fail(l.line, fmt::format("the link {}-{} again (line {})", key.first, key.second, at->second));
    for (const End& e : {l.a, l.b}) {
      if (e.port < 0) continue;
      const auto [used, first] = port_line[static_cast<size_t>(e.node)].emplace(e.port, l.line);
      if (!first)
        listing.fail(l.line, fmt::format("port {} of node {} is used again (line {})", e.port, e.node, used->second));
    }
  }
  std::vector<int> next_port(static_cast<size_t>(nodes), 0);
  for (Link& l : links)
    for (End* e : {&l.a, &l.b})
      if (e->port < 0) {
        e->port = next_port[static_cast<size_t>(e->node)]++;
        if (e->port >= kMaxGraphPorts)
          listing.fail(fmt::format("node {} has more than {} links", e->node, kMaxGraphPorts));
      }
  num_nodes_ = nodes;
  num_ports_ = 0;
  for (const Link& l : links) num_ports_ = std::max({num_ports_, l.a.port + 1, l.b.port + 1});
  dims_ = {nodes};
  nbr_.assign(static_cast<size_t>(num_nodes_) * static_cast<size_t>(num_ports_), -1);
  rev_.assign(nbr_.size(), -1);
  for (const Link& l : links) {
    nbr_[index(l.a.node, l.a.port)] = l.b.node;
    rev_[index(l.a.node, l.a.port)] = l.b.port;
    nbr_[index(l.b.node, l.b.port)] = l.a.node;
    rev_[index(l.b.node, l.b.port)] = l.a.port;
  }
  const std::vector<int> reach = breadth_first(0);
  if (const auto lost = std::find(reach.begin(), reach.end(), -1); lost != reach.end())
    listing.fail(fmt::format("not connected: node {} cannot be reached from node 0", lost - reach.begin()));
}

const Topology& Topology::base() const {
  if (!base_) throw std::logic_error(spec_ + " is not a swapped network");
  return *base_;
}

SwappedNode Topology::place(int node) const {
  const int n = base().num_nodes();
  return {(node / n) % n, node % n, node / (n * n)};
}

int Topology::node_at(const SwappedNode& at) const {
  const int n = base().num_nodes();
  return (at.part * n + at.group) * n + at.proc;
}

std::vector<int> Topology::breadth_first(int source) const {
  std::vector<int> dist(static_cast<size_t>(num_nodes_), -1);
  std::vector<int> frontier{source};
  dist[static_cast<size_t>(source)] = 0;
  for (size_t head = 0; head < frontier.size(); ++head) {
    const int u = frontier[head];
    for (int p = 0; p < num_ports_; ++p) {
      const int v = nbr_[index(u, p)];
      if (v >= 0 && dist[static_cast<size_t>(v)] < 0) {
        dist[static_cast<size_t>(v)] = dist[static_cast<size_t>(u)] + 1;
        frontier.push_back(v);
      }
    }
  }
  return dist;
}

std::vector<uint32_t> Topology::ports_by_neighbour() const {
  std::vector<uint32_t> order;
  order.reserve(static_cast<size_t>(num_nodes_) * static_cast<size_t>(num_ports_));
  for (int i = 0; i < num_nodes_; ++i) {
    const size_t from = order.size();
    for (int p = 0; p < num_ports_; ++p) order.push_back(static_cast<uint32_t>(p));
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(from), order.end(),
                     [&](uint32_t a, uint32_t b) { return neighbour(i, static_cast<int>(a)) < neighbour(i, static_cast<int>(b)); });
  }
  return order;
}

int Topology::degree(int node) const {
  int d = 0;
  for (int p = 0; p < num_ports_; ++p) d += nbr_[index(node, p)] >= 0;
  return d;
}

int Topology::min_degree() const {
  int m = num_ports_;
  for (int n = 0; n < num_nodes_; ++n) m = std::min(m, degree(n));
  return m;
}

int64_t Topology::num_arcs() const {
  return std::count_if(nbr_.begin(), nbr_.end(), [](int v) { return v >= 0; });
}

std::vector<int> Topology::coords(int node) const {
  if (kind_ == TopologyKind::Complete || kind_ == TopologyKind::Graph) return {node};
  if (kind_ == TopologyKind::Biswapped || kind_ == TopologyKind::Swapped) {
    const SwappedNode at = place(node);
    if (kind_ == TopologyKind::Swapped) return {at.group, at.proc};
    return {at.part, at.group, at.proc};
  }
  if (kind_ == TopologyKind::Hypercube) {
    std::vector<int> c(static_cast<size_t>(dims_[0]));
    for (int b = 0; b < dims_[0]; ++b) c[static_cast<size_t>(b)] = (node >> b) & 1;
    return c;
  }
  std::vector<int> c(dims_.size());
  for (int k = static_cast<int>(dims_.size()) - 1; k >= 0; --k) {
    c[static_cast<size_t>(k)] = node % dims_[static_cast<size_t>(k)];
    node /= dims_[static_cast<size_t>(k)];
  }
  return c;
}

int Topology::node_at_coords(const std::vector<int>& c) const {
  // coords() in mixed radix, the last coordinate fastest (a hypercube's bits from the lowest)
  std::vector<int> radix = dims_;
  if (kind_ == TopologyKind::Complete || kind_ == TopologyKind::Graph) radix = {num_nodes_};
  if (kind_ == TopologyKind::Hypercube) radix.assign(static_cast<size_t>(dims_[0]), 2);
  if (kind_ == TopologyKind::Swapped) radix = {base().num_nodes(), base().num_nodes()};
  if (kind_ == TopologyKind::Biswapped) radix = {2, base().num_nodes(), base().num_nodes()};
  if (c.size() != radix.size())
    throw std::out_of_range(fmt::format("{} coordinates name no node of {}", c.size(), spec()));
  int node = 0;
  for (size_t k = 0; k < c.size(); ++k) {
    if (c[k] < 0 || c[k] >= radix[k])
      throw std::out_of_range(fmt::format("coordinate {} = {} names no node of {}", k, c[k], spec()));
    node = kind_ == TopologyKind::Hypercube ? node | (c[k] << k) : node * radix[k] + c[k];
  }
  return node;
}

int Topology::distance(int a, int b) const {
  if (kind_ == TopologyKind::Complete) return a == b ? 0 : 1;
  if (swapped() || kind_ == TopologyKind::Graph) return breadth_first(a)[static_cast<size_t>(b)];
  if (kind_ == TopologyKind::Hypercube) return __builtin_popcount(static_cast<unsigned>(a ^ b));
  std::vector<int> ca = coords(a), cb = coords(b);
  int d = 0;
  for (size_t k = 0; k < dims_.size(); ++k) {
    int delta = std::abs(ca[k] - cb[k]);
    if (kind_ == TopologyKind::Ring || kind_ == TopologyKind::Torus) delta = std::min(delta, dims_[k] - delta);
    d += delta;
  }
  return d;
}

int Topology::diameter() const {
  if (kind_ == TopologyKind::Complete) return 1;
  if (kind_ == TopologyKind::Graph) {
    int d = 0;
    for (int n = 0; n < num_nodes_; ++n) d = std::max(d, eccentricity(n));
    return d;
  }
  // The biswapped network's 2 D + 2 ([3] of the biswapped-network paper, quoted in its
  // Theorem 1) and OTIS's 2 D + 1 (Day and Al-Ayyoub); both checked by breadth-first
  // search in tests/test_swapped.cpp.
  if (kind_ == TopologyKind::Biswapped) return 2 * base_->diameter() + 2;
  if (kind_ == TopologyKind::Swapped) return 2 * base_->diameter() + 1;
  if (kind_ == TopologyKind::Hypercube) return dims_[0];
  int d = 0;
  for (int s : dims_) d += (kind_ == TopologyKind::Ring || kind_ == TopologyKind::Torus) ? s / 2 : s - 1;
  return d;
}

int Topology::eccentricity(int node) const {
  if (kind_ == TopologyKind::Complete) return 1;
  if (swapped() || kind_ == TopologyKind::Graph) {
    const std::vector<int> d = breadth_first(node);
    return *std::max_element(d.begin(), d.end());
  }
  if (kind_ == TopologyKind::Hypercube || kind_ == TopologyKind::Ring || kind_ == TopologyKind::Torus) return diameter();
  const std::vector<int> c = coords(node);
  int e = 0;
  for (size_t k = 0; k < dims_.size(); ++k) e += std::max(c[k], dims_[k] - 1 - c[k]);
  return e;
}

Cut Topology::bisection_cut() const {
  Cut cut;
  if (kind_ == TopologyKind::Complete || swapped()) {
    // Complete: any halving. Swapped: the groups of each part halved (a group is never
    // cut); a swap link joins two given groups once, so the cut counts group pairs.
    const int64_t n = swapped() ? base_->num_nodes() : num_nodes_;
    const int64_t low = n / 2, high = n - n / 2;
    const int64_t per_group = swapped() ? n : 1;
    const int64_t parts = kind_ == TopologyKind::Biswapped ? 2 : 1;
    cut.side_a = parts * low * per_group;
    cut.side_b = num_nodes_ - cut.side_a;
    cut.links = parts * low * high;
    return cut;
  }
  if (kind_ == TopologyKind::Hypercube) {
    cut.side_a = cut.side_b = num_nodes_ / 2;
    cut.links = num_nodes_ / 2;
    return cut;
  }
  if (kind_ == TopologyKind::Graph) {
    // Not a minimum bisection (hard in general) but a cut all the same: the half of the
    // nodes nearest a node furthest from node 0, by breadth-first order.
    const std::vector<int> from_zero = breadth_first(0);
    const int far = static_cast<int>(std::max_element(from_zero.begin(), from_zero.end()) - from_zero.begin());
    const std::vector<int> d = breadth_first(far);
    std::vector<int> order(static_cast<size_t>(num_nodes_));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return d[static_cast<size_t>(a)] < d[static_cast<size_t>(b)]; });
    std::vector<char> side(static_cast<size_t>(num_nodes_), 0);
    for (int k = 0; k < num_nodes_ / 2; ++k) side[static_cast<size_t>(order[static_cast<size_t>(k)])] = 1;
    cut.side_a = num_nodes_ / 2;
    cut.side_b = num_nodes_ - cut.side_a;
    for (int n = 0; n < num_nodes_; ++n)
      for (int p = 0; p < num_ports_; ++p) {
        const int v = nbr_[index(n, p)];
        if (v >= 0 && side[static_cast<size_t>(n)] && !side[static_cast<size_t>(v)]) ++cut.links;
      }
    return cut;
  }
  int longest = *std::max_element(dims_.begin(), dims_.end());
  int64_t cross_section = num_nodes_ / longest;
  cut.side_a = static_cast<int64_t>(longest / 2) * cross_section;
  cut.side_b = num_nodes_ - cut.side_a;
  bool wraps = kind_ == TopologyKind::Ring || kind_ == TopologyKind::Torus;
  cut.links = (wraps ? 2 : 1) * cross_section;
  return cut;
}

std::string Topology::port_name(int port) const {
  if (swapped()) return port == swap_port() ? "swap" : base_->port_name(port);
  switch (kind_) {
    case TopologyKind::Complete: return fmt::format("+{}", port + 1);
    case TopologyKind::Line: return port == 0 ? "right" : "left";
    case TopologyKind::Ring: return port == 0 ? "cw" : "ccw";
    case TopologyKind::Hypercube: return fmt::format("bit{}", port);
    case TopologyKind::Graph: return fmt::format("p{}", port);
    default: break;
  }
  if (dims_.size() == 2) {
    static const char* names[] = {"S", "N", "E", "W"};
    return names[port];
  }
  return fmt::format("{}d{}", port % 2 == 0 ? '+' : '-', port / 2);
}

}  // namespace fixroute
