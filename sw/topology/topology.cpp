#include "topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "sw/core/errors.h"

namespace fixroute {
namespace {

constexpr const char* kAccepted =
    "accepted: line:N (N>=2), ring:N (N>=3), mesh:RxC (R,C>=2), torus:AxB[xC...] "
    "(2 or more sizes, each >=3), hypercube:D (1<=D<=16); at most 4194304 nodes";

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
  throw InputError(fmt::format("bad topology '{}': {}; {}", spec, why, kAccepted));
}

// A strictly positive decimal number without sign, spaces or suffix.
long parse_size(const std::string& spec, const std::string& text) {
  if (text.empty()) bad_spec(spec, "a size is missing");
  if (text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    bad_spec(spec, fmt::format("size '{}' is not a whole number up to {}", text, Topology::kMaxNodes));
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

Topology Topology::parse(const std::string& spec) {
  Topology t;
  size_t colon = spec.find(':');
  if (colon == std::string::npos) bad_spec(spec, "expected KIND:SIZE");
  std::string kind = spec.substr(0, colon);
  std::string args = spec.substr(colon + 1);
  std::vector<long> sizes;
  if (kind == "line" || kind == "ring" || kind == "hypercube") {
    sizes.push_back(parse_size(spec, args));
  } else if (kind == "mesh" || kind == "torus") {
    sizes = parse_sizes(spec, args);
  } else {
    bad_spec(spec, fmt::format("unknown kind '{}'", kind));
  }

  long nodes = 1;
  if (kind == "line") {
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
    if (sizes.size() != 2) bad_spec(spec, "a mesh takes two sizes RxC");
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
      if (nodes > kMaxNodes) break;
    }
  }
  if (nodes > kMaxNodes) bad_spec(spec, fmt::format("more than {} nodes", kMaxNodes));

  t.kind_name_ = kind;
  for (long s : sizes) t.dims_.push_back(static_cast<int>(s));
  t.num_nodes_ = static_cast<int>(nodes);
  t.spec_ = kind + ":" + fmt::format("{}", fmt::join(t.dims_, "x"));
  t.build();
  return t;
}

void Topology::build() {
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

int Topology::port_towards(int node, int other) const {
  for (int p = 0; p < num_ports_; ++p)
    if (nbr_[index(node, p)] == other) return p;
  return -1;
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

int Topology::distance(int a, int b) const {
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
  if (kind_ == TopologyKind::Hypercube) return dims_[0];
  int d = 0;
  for (int s : dims_) d += (kind_ == TopologyKind::Ring || kind_ == TopologyKind::Torus) ? s / 2 : s - 1;
  return d;
}

int Topology::eccentricity(int node) const {
  if (kind_ == TopologyKind::Hypercube || kind_ == TopologyKind::Ring || kind_ == TopologyKind::Torus) return diameter();
  const std::vector<int> c = coords(node);
  int e = 0;
  for (size_t k = 0; k < dims_.size(); ++k) e += std::max(c[k], dims_[k] - 1 - c[k]);
  return e;
}

Cut Topology::bisection_cut() const {
  Cut cut;
  if (kind_ == TopologyKind::Hypercube) {
    cut.side_a = cut.side_b = num_nodes_ / 2;
    cut.links = num_nodes_ / 2;
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
  switch (kind_) {
    case TopologyKind::Line: return port == 0 ? "right" : "left";
    case TopologyKind::Ring: return port == 0 ? "cw" : "ccw";
    case TopologyKind::Hypercube: return fmt::format("bit{}", port);
    default: break;
  }
  if (dims_.size() == 2) {
    static const char* names[] = {"S", "N", "E", "W"};
    return names[port];
  }
  return fmt::format("{}d{}", port % 2 == 0 ? '+' : '-', port / 2);
}

}  // namespace fixroute
