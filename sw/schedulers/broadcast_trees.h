// What every scheduler of the broadcast-tree routers shares (sw/schedulers/broadcast_trees/):
// the check of a generic tree against the paper's lemma, and the registration fields
// every such algorithm has.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/algorithm.h"
#include "sw/kinds/broadcast_trees/tables.h"

namespace fixroute {

// What is wrong with a generic tree B(*) rooted at node 0, or "": every other node entered
// exactly once, across the named port from a node informed in an earlier round, and the
// arcs of each round of distinct directions (ports) -- the paper's lemma: then the
// translated trees are pairwise time-arc-disjoint.
std::string generic_tree_defect(const Topology& topology, const std::vector<GenericArc>& arcs);
// The rounds of a generic tree: its highest arc level.
int generic_tree_height(const std::vector<GenericArc>& arcs);

// The buffers a generic tree needs at every router: the most packets waiting at once, a
// packet waiting from the round after it arrives until the round before its last send
// (the same at every router, the trees being translations).
int generic_tree_buffers(const std::vector<GenericArc>& arcs, int nodes);

// The hypercube necklace table of Q_n (sw/schedulers/broadcast_trees/necklace.cpp): entry i
// is the node in row i / n + 1, column i % n.
std::vector<int> necklace_table(int n);

// A Hamiltonian cycle as a node sequence, or empty where none is known here
// (sw/schedulers/broadcast_trees/hamiltonian_pairs.cpp).
std::vector<int> hamiltonian_cycle(const Topology& topology);

// An Algorithm with the fields every broadcast-tree scheduler shares set (collective gossip,
// router kind broadcast-trees, one packet per node); the caller sets the rest.
Algorithm broadcast_tree_algorithm(const std::string& name, const std::string& summary);
// The all-to-all broadcast paper's count for non-combining gossip on a 2D mesh M(z1,z2),
// all-port full-duplex: ceil((z1 z2 - 1)/2) (its "2D tori" and the sentence after it);
// nullopt on other networks and models.
std::optional<int64_t> mesh_gossip_paper_rounds(const Problem& problem);
// The buffers the all-to-all broadcast paper promises for time-optimal gossip by generic
// trees (section 3): at most 3 per router on a 2D torus, 60 on a 3D torus; nullopt elsewhere.
std::optional<int64_t> promised_tree_buffers(const Problem& problem);
// "" when the port model is all-port full-duplex (the model of the trees), else why not.
std::string all_port_full_refusal(const PortModel& model);
// Tables for every router from a generic tree (checked first), named and validated.
std::shared_ptr<const Tables> generic_tree_tables(const Problem& problem, const std::string& algorithm,
                                                  const std::string& construction, std::vector<GenericArc> arcs);
// Tables named and validated.
std::shared_ptr<const Tables> finish_broadcast_tree_tables(BroadcastTreeTables tables, const Problem& problem,
                                                           const std::string& algorithm);

}  // namespace fixroute
