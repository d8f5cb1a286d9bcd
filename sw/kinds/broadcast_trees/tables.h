// Broadcast-tree tables: the send program of each broadcast-tree router (docs/table-format.md,
// "Broadcast-tree tables"; the all-to-all broadcast paper, "All-port full-duplex model",
// "Hypercube" and "1-port model"). All-to-all broadcast without combining: every packet
// travels on its own, down a broadcast tree rooted at its origin, one tree level per round.
// A router stores every packet it receives (the node's memory: a slot per origin) and in
// round r sends, on each port, the packet its row r-1 names for that port, or nothing.
// The rows are the schedule itself and do not repeat: a run lasts `rounds` rounds.
//
// Where the N trees are translations of one generic tree B(*) (tori, hypercubes), every
// router's rows are that tree read at the router: row r, port p names the origin u - a for
// the tree arc a -> a + dir(p) of level r. The router itself holds absolute origins, so it
// does no topology arithmetic; `generic` keeps the shared table (offsets) the rows came
// from, written once to the table directory.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;

constexpr const char* kBroadcastTreeKind = "broadcast-trees";
constexpr int kBroadcastTreeTableVersion = 1;  // of the memory images (network.json: kManifestVersion)
constexpr int kMaxBroadcastTreeRounds = 65536;
// A router stores a packet per origin; the scoreboard keeps two rounds per (node, origin).
constexpr int kMaxBroadcastTreeNodes = 8192;
constexpr int kNoSend = -1;

// One generic tree B(*) rooted at node 0 of a vertex-symmetric topology: its arcs as
// offsets (`from` informed earlier, `to` informed in round `level` across port `port`).
struct GenericArc {
  int level = 0;
  int port = 0;
  int from = 0;
  int to = 0;
  bool operator==(const GenericArc& o) const {
    return level == o.level && port == o.port && from == o.from && to == o.to;
  }
};

struct BroadcastTreeTables : Tables {
  const char* kind() const override { return kBroadcastTreeKind; }
  int nodes = 0;
  int ports = 0;
  int rounds = 0;
  std::vector<int32_t> send;  // send[(node * rounds + round - 1) * ports + port]: origin, or kNoSend
  // The generic tree every router's rows are the translation of (empty where there is none).
  std::vector<GenericArc> generic;
  // Where an exact search proved it (trees-exact): no schedule of these routers gossips in
  // fewer rounds; 0 where none was proven.
  int exact_lower_bound = 0;

  int32_t at(int node, int64_t round, int port) const {
    return send[(static_cast<size_t>(node) * static_cast<size_t>(rounds) + static_cast<size_t>(round - 1)) *
                    static_cast<size_t>(ports) +
                static_cast<size_t>(port)];
  }
  int32_t& at(int node, int64_t round, int port) {
    return send[(static_cast<size_t>(node) * static_cast<size_t>(rounds) + static_cast<size_t>(round - 1)) *
                    static_cast<size_t>(ports) +
                static_cast<size_t>(port)];
  }
  std::vector<int32_t> router_rows(int node) const;  // rounds x ports entries
};

// Tables of `rounds` rows for every router of `topology`, sending nothing yet.
BroadcastTreeTables empty_broadcast_tree_tables(const Topology& topology, int rounds);

// The translation of node `node` by `by` (both ids): coordinate-wise sum modulo the sizes
// on a ring or torus, exclusive or on a hypercube; and the inverse, `node` minus `by`.
// Other topologies have no translations (InputError).
int translate(const Topology& topology, int node, int by);
int translate_back(const Topology& topology, int node, int by);
bool has_translations(const Topology& topology);

// Every router's rows from a generic tree: router u sends, in round `level` on port
// `port`, the packet of origin u - from (tables.generic is set to `arcs`).
void fill_from_generic(BroadcastTreeTables& tables, const Topology& topology, std::vector<GenericArc> arcs);

// Refuses (InputError) tables a router cannot carry out: sizes, ports out of range or
// without a link, origins that are no node; and a generic tree the rows do not translate.
void validate_broadcast_trees(const BroadcastTreeTables& tables, const Topology& topology, const std::string& what);

// One router's memory image: magic, version, node, ports, nodes, rounds, then a word per
// round and port (bit 31: send; bits 30..0: the origin), CRC-32.
std::vector<uint32_t> encode_broadcast_tree_image(const BroadcastTreeTables& tables, int node);
std::vector<int32_t> decode_broadcast_tree_image(const std::vector<uint32_t>& words, const BroadcastTreeTables& tables,
                                                 int node, const std::string& what);
int64_t broadcast_tree_table_bits(const BroadcastTreeTables& tables);
// Bits of the one shared generic table (a word per arc), 0 where there is none.
int64_t generic_table_bits(const BroadcastTreeTables& tables);

void write_broadcast_tree_tables(const BroadcastTreeTables& tables, const Topology& topology, const std::string& dir,
                                 TableForm form);
BroadcastTreeTables load_broadcast_tree_tables(const std::string& dir);  // validates everything, or throws

}  // namespace fixroute
