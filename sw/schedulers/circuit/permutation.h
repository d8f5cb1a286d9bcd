// Permutations of a mesh's nodes for the `permutation` collective, parsed from the
// --permutation values (docs/circuit-switching.md):
//   bpc:PI:A        f(x)_i = x_{PI(i)} xor a_i (circuit-switched mesh paper, section 2);
//                   PI = pi(0),...,pi(2k-1), A = the bits a_{2k-1}..a_0
//   transpose, bit-reversal, perfect-shuffle, bit-complement   named BPC permutations
//   omega:FILE      an Omega- or inverse-Omega-realizable permutation (section 4)
//   file:FILE       any permutation: one destination per line, in source order
//   random:SEED     a seeded uniformly random permutation (mt19937, Fisher-Yates)
// Anything that is not a permutation of the mesh's nodes is refused (InputError).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fixroute {

class Topology;

// A bit-permute-complement permutation on 2k-bit node labels.
struct Bpc {
  std::vector<int> pi;  // pi[i]: the source bit that becomes bit i
  uint32_t a = 0;       // complement mask
  int bits() const { return static_cast<int>(pi.size()); }
  int apply(int x) const;
};

struct Permutation {
  std::string kind;       // "bpc", "omega" or "file"
  std::string text;       // as given
  std::vector<int> dest;  // dest[x]: where node x's message goes
  std::optional<Bpc> bpc; // for bpc: and the named ones
};

// log2(n) when n is a power of two >= 2, else -1.
int log2_exact(int64_t n);

// Parses a --permutation value for `mesh` (an n x n mesh, n = 2^k, for the BPC forms).
Permutation parse_permutation(const std::string& text, const Topology& mesh);

// Whether `dest` is realizable by an Omega network of N = dest.size() = 2^m terminals
// (destination-tag routing meets no switch conflict), and by its inverse.
bool omega_realizable(const std::vector<int>& dest);
bool inverse_omega_realizable(const std::vector<int>& dest);

}  // namespace fixroute
