// The combining scoreboard: checks any engine's combining trace (step, node, port, to,
// carried) against the tables, the port model and the rule of combining (the all-to-all
// broadcast paper, "SF switching with packet combining"; docs/combining.md):
//   - every router sends, in each round up to the last one traced, on exactly the ports
//     its table's row names, each packet to the neighbour across that port;
//   - a packet carries the sender's whole set as it stood when the round began: the
//     scoreboard keeps every node's set itself and compares the counts;
//   - 1-port: a node sends at most one packet and receives at most one per round;
//     half-duplex: a link carries packets one way per round;
//   - at the end every node holds every origin.
// `steps` is the last round in which some node learnt an origin; `needed` counts the
// N(N-1) (node, origin) pairs to learn, `deliveries` those learnt; `crossings` the rows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/kinds/combining/engine.h"

namespace fixroute {

class Topology;
struct CombiningTables;

// Every node's set of origins, one bit each, as the scoreboard keeps them.
class CombiningSets {
 public:
  explicit CombiningSets(int nodes) : nodes_(nodes), words_((static_cast<size_t>(nodes) + 63) / 64),
                             bits_(static_cast<size_t>(nodes) * words_, 0), count_(static_cast<size_t>(nodes), 1) {
    for (int n = 0; n < nodes; ++n) bits_[static_cast<size_t>(n) * words_ + static_cast<size_t>(n) / 64] |= 1ull << (n % 64);
  }
  int count(int n) const { return count_[static_cast<size_t>(n)]; }
  // Merges `from`'s set into `into`'s; returns the origins `into` learnt.
  int merge(const CombiningSets& from_sets, int from, int into) {
    const uint64_t* src = &from_sets.bits_[static_cast<size_t>(from) * words_];
    uint64_t* dst = &bits_[static_cast<size_t>(into) * words_];
    int learnt = 0;
    for (size_t w = 0; w < words_; ++w) {
      learnt += __builtin_popcountll(src[w] & ~dst[w]);
      dst[w] |= src[w];
    }
    count_[static_cast<size_t>(into)] += learnt;
    return learnt;
  }
  int first_missing(int n) const {
    for (int o = 0; o < nodes_; ++o)
      if (!((bits_[static_cast<size_t>(n) * words_ + static_cast<size_t>(o) / 64] >> (o % 64)) & 1u)) return o;
    return -1;
  }

 private:
  int nodes_;
  size_t words_;
  std::vector<uint64_t> bits_;
  std::vector<int> count_;
};


// The rules applied round by round, as an engine streams the rounds (a CombiningSink) or a
// whole trace is replayed; finish() adds the end's check and gives the verdict. Rounds
// missing between two handed on had no packets, and are checked as such.
class CombiningScoreboard final : public CombiningSink {
 public:
  CombiningScoreboard(const Topology& topology, const CombiningTables& tables);  // InputError: too large
  ~CombiningScoreboard() override;
  void step(int64_t step, const std::vector<CombiningEvent>& rows) override;
  ScoreboardReport finish();

 private:
  void check_round(int64_t step, const std::vector<CombiningEvent>& rows);
  void error(std::string e);

  const Topology& topology_;
  const CombiningTables& tables_;
  ScoreboardReport report_;
  CombiningSets sets_, before_{0};
  std::vector<int> sent_, received_;
  std::vector<uint32_t> ports_used_;
  int64_t last_ = 0;  // the last round checked
};

// A whole trace scored at once (the rounds replayed into a CombiningScoreboard).
ScoreboardReport score_combining(const Topology& topology, const CombiningTables& tables,
                                 const std::vector<CombiningEvent>& trace);

}  // namespace fixroute
