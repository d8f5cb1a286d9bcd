// The FFT's data movement on the circuit-switched mesh (circuit-switched mesh paper,
// section 5.3): recursive FFT on N = R x C points, one per node in row-major order. A
// block of 2^m nodes (aligned; its halves are its top and bottom rows, and within a row
// its left and right segments) is split by the splitting BPC -- even-indexed points to
// the first half, odd-indexed to the second, i.e. the low m bits of the node id rotated
// right by one -- and after both halves are done merged by the perfect shuffle (rotated
// left). All blocks of one level move at once, so each level is one permutation of the
// whole mesh: the phases are the splits for m = L..2, then the merges for m = 2..L
// (L = log2 N; m = 1 is the identity).
#pragma once
#include <string>
#include <vector>

namespace fixroute {

class Topology;

struct FftPhase {
  std::string name;       // "split 2^m" or "merge 2^m"
  std::vector<int> dest;  // per node: where its point goes
};

// Where point i lives: `row_major` puts it at node i (the paper's layout: a block's
// halves are its top and bottom rows); `z_order` interleaves the index bits into row and
// column bits (Morton order), so the halves of a block are alternately its top and
// bottom and its left and right sub-meshes and every block is a (near-)square sub-mesh.
enum class FftLayout { RowMajor, ZOrder };
std::vector<int> fft_layout(const Topology& mesh, FftLayout layout);  // per point: its node
// The layout each fft algorithm uses (z-order: ZOrder; divide-and-conquer: RowMajor), as
// recorded by name in its tables.
FftLayout fft_layout_of(const std::string& algorithm);

// "" when the mesh's sides are powers of two (N >= 4) -- for z_order also R = C or
// R = 2C --, else why not.
std::string fft_unsupported(const Topology& mesh, FftLayout layout);
// The phases in order, as node permutations for the points laid out by `node_of_point`;
// the one definition the scheduler and the scoreboard use.
std::vector<FftPhase> fft_phases(const Topology& mesh, const std::vector<int>& node_of_point);
std::vector<FftPhase> fft_phases(const Topology& mesh, const std::string& algorithm);

}  // namespace fixroute
