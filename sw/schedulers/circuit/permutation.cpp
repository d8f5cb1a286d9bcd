#include "permutation.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

int Bpc::apply(int x) const {
  int out = 0;
  for (int i = 0; i < bits(); ++i) out |= ((x >> pi[static_cast<size_t>(i)]) & 1) << i;
  return out ^ static_cast<int>(a);
}

int log2_exact(int64_t n) {
  if (n < 2 || (n & (n - 1)) != 0) return -1;
  int k = 0;
  while ((int64_t{1} << k) < n) ++k;
  return k;
}

namespace {

const char* const kAccepted =
    "accepted: bpc:PI:A, transpose, bit-reversal, perfect-shuffle, bit-complement, omega:FILE, file:FILE, "
    "random:SEED";

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw InputError(fmt::format("bad --permutation '{}': {}", text, why));
}

// 2k for an n x n mesh with n = 2^k; refuses other meshes for the BPC forms.
int bpc_bits(const std::string& text, const Topology& mesh) {
  const int k = log2_exact(mesh.dims()[0]);
  if (mesh.dims()[0] != mesh.dims()[1] || k < 1)
    bad(text, fmt::format("BPC permutations need an n x n mesh with n a power of two, not {}", mesh.spec()));
  return 2 * k;
}

Bpc named_bpc(const std::string& name, int bits) {
  Bpc b;
  b.pi.resize(static_cast<size_t>(bits));
  const int k = bits / 2;
  for (int i = 0; i < bits; ++i) {
    int src = i;
    if (name == "transpose") src = (i + k) % bits;             // row and column bits swap
    else if (name == "bit-reversal") src = bits - 1 - i;
    else if (name == "perfect-shuffle") src = (i + bits - 1) % bits;  // rotate left by one
    b.pi[static_cast<size_t>(i)] = src;
  }
  if (name == "bit-complement") b.a = (1u << bits) - 1;
  return b;
}

Bpc parse_bpc(const std::string& text, const std::string& body, int bits) {
  const size_t colon = body.find(':');
  if (colon == std::string::npos) bad(text, "bpc takes PI:A, e.g. bpc:1,3,2,0:1010");
  Bpc b;
  std::stringstream pis(body.substr(0, colon));
  std::string item;
  std::vector<bool> seen(static_cast<size_t>(bits), false);
  while (std::getline(pis, item, ',')) {
    size_t used = 0;
    int v = -1;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || v < 0 || v >= bits)
      bad(text, fmt::format("PI entries are bit positions 0..{}, not '{}'", bits - 1, item));
    if (seen[static_cast<size_t>(v)]) bad(text, fmt::format("PI lists bit {} twice", v));
    seen[static_cast<size_t>(v)] = true;
    b.pi.push_back(v);
  }
  if (b.bits() != bits) bad(text, fmt::format("PI needs {} entries for this mesh, got {}", bits, b.bits()));
  const std::string a = body.substr(colon + 1);
  if (static_cast<int>(a.size()) != bits || a.find_first_not_of("01") != std::string::npos)
    bad(text, fmt::format("A needs {} binary digits a_{}..a_0", bits, bits - 1));
  for (char ch : a) b.a = (b.a << 1) | static_cast<uint32_t>(ch - '0');
  return b;
}

std::vector<int> read_destinations(const std::string& text, const std::string& path, int nodes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) bad(text, fmt::format("'{}' is a directory, not a permutation file", path));
  std::ifstream in(path);
  if (!in) bad(text, fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  std::vector<int> dest;
  std::vector<bool> hit(static_cast<size_t>(nodes), false);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const size_t last = line.find_last_not_of(" \t\r");
    const std::string word = line.substr(first, last - first + 1);
    size_t used = 0;
    long v = -1;
    try {
      v = std::stol(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size() || v < 0 || v >= nodes)
      bad(text, fmt::format("{} line {}: '{}' is not a node 0..{}", path, line_no, word, nodes - 1));
    if (dest.size() == static_cast<size_t>(nodes))
      bad(text, fmt::format("{} has more than {} destinations", path, nodes));
    if (hit[static_cast<size_t>(v)])
      bad(text, fmt::format("{} line {}: destination {} appears twice, so it is not a permutation", path, line_no, v));
    hit[static_cast<size_t>(v)] = true;
    dest.push_back(static_cast<int>(v));
  }
  if (dest.size() != static_cast<size_t>(nodes))
    bad(text, fmt::format("{} has {} destinations; {} needs {}", path, dest.size(), "this mesh", nodes));
  return dest;
}

// Destination-tag routing through m stages of shuffle + 2x2 switch: after stage j the
// message from s to d is on line ((s << (j+1)) | (d >> (m-1-j))) mod N. Realizable iff
// no two messages share a line after any stage.
bool omega_lines_distinct(const std::vector<int>& dest) {
  const int m = log2_exact(static_cast<int64_t>(dest.size()));
  if (m < 1) return false;
  const int64_t n = static_cast<int64_t>(dest.size());
  for (int j = 0; j < m; ++j) {
    std::vector<bool> used(dest.size(), false);
    for (int64_t s = 0; s < n; ++s) {
      const int64_t line = ((s << (j + 1)) | (dest[static_cast<size_t>(s)] >> (m - 1 - j))) & (n - 1);
      if (used[static_cast<size_t>(line)]) return false;
      used[static_cast<size_t>(line)] = true;
    }
  }
  return true;
}

}  // namespace

bool omega_realizable(const std::vector<int>& dest) { return omega_lines_distinct(dest); }

bool inverse_omega_realizable(const std::vector<int>& dest) {
  std::vector<int> inverse(dest.size());
  for (size_t s = 0; s < dest.size(); ++s) inverse[static_cast<size_t>(dest[s])] = static_cast<int>(s);
  return omega_lines_distinct(inverse);
}

Permutation parse_permutation(const std::string& text, const Topology& mesh) {
  Permutation p;
  p.text = text;
  const int nodes = mesh.num_nodes();
  const size_t colon = text.find(':');
  const std::string head = text.substr(0, colon);
  const std::string body = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (text == "transpose" || text == "bit-reversal" || text == "perfect-shuffle" || text == "bit-complement") {
    p.kind = "bpc";
    p.bpc = named_bpc(text, bpc_bits(text, mesh));
  } else if (head == "bpc" && colon != std::string::npos) {
    p.kind = "bpc";
    p.bpc = parse_bpc(text, body, bpc_bits(text, mesh));
  } else if ((head == "omega" || head == "file") && colon != std::string::npos && !body.empty()) {
    p.kind = head;
    p.dest = read_destinations(text, body, nodes);
    if (head == "omega" && !omega_realizable(p.dest) && !inverse_omega_realizable(p.dest))
      bad(text, "not realizable by an Omega network nor by its inverse (use file: for any permutation)");
  } else if (head == "random" && colon != std::string::npos && !body.empty() &&
             body.find_first_not_of("0123456789") == std::string::npos && body.size() <= 9) {
    p.kind = "file";  // an arbitrary permutation, as if read from a file
    p.dest.resize(static_cast<size_t>(nodes));
    for (int x = 0; x < nodes; ++x) p.dest[static_cast<size_t>(x)] = x;
    std::mt19937 rng(static_cast<uint32_t>(std::stoul(body)));
    for (int x = nodes - 1; x > 0; --x)  // Fisher-Yates with the engine's raw output: the same on every platform
      std::swap(p.dest[static_cast<size_t>(x)], p.dest[static_cast<size_t>(rng() % static_cast<uint32_t>(x + 1))]);
  } else {
    bad(text, kAccepted);
  }
  if (p.bpc) {
    p.dest.resize(static_cast<size_t>(nodes));
    for (int x = 0; x < nodes; ++x) p.dest[static_cast<size_t>(x)] = p.bpc->apply(x);
  }
  return p;
}

}  // namespace fixroute
