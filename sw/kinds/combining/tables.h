// Combining tables: the send program of each combining router (docs/table-format.md,
// "Combining tables"; the all-to-all broadcast paper, "SF switching with packet
// combining"). A router holds the set of origins it has learnt; in round t it sends that
// whole set, as one packet, on every port its row (t-1) mod `rounds` names, and merges
// whatever arrives. The rows repeat: a time-independent algorithm has one or two rows, a
// time-dependent one a row per round of its schedule.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;

constexpr const char* kCombiningKind = "combining";
constexpr int kCombiningTableVersion = 1;  // of the memory images (network.json: kManifestVersion)
constexpr int kMaxCombiningRounds = 65536;
constexpr int kMaxCombiningPorts = 16;  // a row is a port mask of one 16-bit field

struct CombiningTables : Tables {
  const char* kind() const override { return kCombiningKind; }
  int nodes = 0;
  int ports = 0;
  int rounds = 0;              // rows per router
  std::vector<uint16_t> send;  // send[node * rounds + row]: bit p set = send on port p
  uint16_t row(int node, int64_t round) const {  // round from 1
    return send[static_cast<size_t>(node) * static_cast<size_t>(rounds) + static_cast<size_t>((round - 1) % rounds)];
  }
  std::vector<uint16_t> router_rows(int node) const;
};

// Tables of `rounds` rows for every router of `topology`, all sending nowhere yet.
CombiningTables empty_combining_tables(const Topology& topology, int rounds);

// Refuses (InputError) tables a router cannot carry out: sizes, ports out of range or
// without a link. What the port model allows is the scoreboard's to judge on the run.
void validate_combining(const CombiningTables& tables, const Topology& topology, const std::string& what);

// One router's memory image: magic, version, node, ports, nodes (the origins its bit set
// holds), rounds, one word per row (its port mask), CRC-32.
std::vector<uint32_t> encode_combining_image(const CombiningTables& tables, int node);
std::vector<uint16_t> decode_combining_image(const std::vector<uint32_t>& words, const CombiningTables& tables, int node,
                                             const std::string& what);
int64_t combining_table_bits(const CombiningTables& tables);

void write_combining_tables(const CombiningTables& tables, const std::string& dir, TableForm form);
CombiningTables load_combining_tables(const std::string& dir);  // validates everything, or throws

}  // namespace fixroute
