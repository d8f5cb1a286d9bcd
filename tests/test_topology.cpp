#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <queue>
#include <unistd.h>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

#include "test_support.h"

using namespace fixroute;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// Breadth-first distances, independent of Topology::distance.
std::vector<int> bfs(const Topology& t, int src) {
  std::vector<int> d(static_cast<size_t>(t.num_nodes()), -1);
  std::queue<int> q;
  d[static_cast<size_t>(src)] = 0;
  q.push(src);
  while (!q.empty()) {
    int u = q.front();
    q.pop();
    for (int p = 0; p < t.num_ports(); ++p) {
      int v = t.neighbour(u, p);
      if (v >= 0 && d[static_cast<size_t>(v)] < 0) {
        d[static_cast<size_t>(v)] = d[static_cast<size_t>(u)] + 1;
        q.push(v);
      }
    }
  }
  return d;
}

}  // namespace

TEST(Topology, LineNumberingAndPorts) {
  Topology t = Topology::parse("line:5");
  EXPECT_EQ(t.num_nodes(), 5);
  EXPECT_EQ(t.num_ports(), 2);
  EXPECT_EQ(t.neighbour(0, 0), 1);   // right
  EXPECT_EQ(t.neighbour(0, 1), -1);  // left end
  EXPECT_EQ(t.neighbour(4, 0), -1);
  EXPECT_EQ(t.neighbour(4, 1), 3);
  EXPECT_EQ(t.diameter(), 4);
  EXPECT_EQ(t.bisection_width(), 1);
  EXPECT_EQ(t.num_arcs(), 8);
  EXPECT_EQ(t.min_degree(), 1);
}

TEST(Topology, RingIsClockwise) {
  Topology t = Topology::parse("ring:6");
  EXPECT_EQ(t.neighbour(5, 0), 0);
  EXPECT_EQ(t.neighbour(0, 1), 5);
  EXPECT_EQ(t.diameter(), 3);
  EXPECT_EQ(t.bisection_width(), 2);
  EXPECT_EQ(t.port_name(0), "cw");
}

TEST(Topology, MeshAndTorusAreRowMajor) {
  Topology m = Topology::parse("mesh:3x4");
  EXPECT_EQ(m.num_nodes(), 12);
  // node (row 1, column 2) is id 1*4+2 = 6: S is (2,2)=10, N (0,2)=2, E (1,3)=7, W (1,1)=5
  EXPECT_EQ(m.neighbour(6, 0), 10);
  EXPECT_EQ(m.neighbour(6, 1), 2);
  EXPECT_EQ(m.neighbour(6, 2), 7);
  EXPECT_EQ(m.neighbour(6, 3), 5);
  EXPECT_EQ(m.neighbour(3, 2), -1);  // east border
  EXPECT_EQ(m.diameter(), 5);
  Topology t = Topology::parse("torus:4x6");
  EXPECT_EQ(t.neighbour(5, 2), 0);   // (0,5) east wraps to (0,0)
  EXPECT_EQ(t.neighbour(0, 1), 18);  // (0,0) north wraps to (3,0)
  EXPECT_EQ(t.diameter(), 5);
  EXPECT_EQ(t.bisection_width(), 8);  // 2 * 24/6
  EXPECT_EQ(t.port_name(2), "E");
  Topology t3 = Topology::parse("torus:3x3x6");
  EXPECT_EQ(t3.num_ports(), 6);
  EXPECT_EQ(t3.num_nodes(), 54);
}

// The all-to-all-broadcast paper's products of paths: a mesh of three or more sizes is the
// torus of those sizes without the wrap-around links.
TEST(Topology, MeshOfThreeSizesIsATorusWithoutWraps) {
  const Topology m = Topology::parse("mesh:2x3x4");
  EXPECT_EQ(m.spec(), "mesh:2x3x4");
  EXPECT_EQ(m.num_nodes(), 24);
  EXPECT_EQ(m.num_ports(), 6);
  // node (1, 1, 2) is id (1*3 + 1)*4 + 2 = 18; its neighbours across dimension 2 are 19 and
  // 17, across dimension 1 (3 apart) 22 and 14, across dimension 0 (12 apart) none and 6
  EXPECT_EQ(m.neighbour(18, 4), 19);
  EXPECT_EQ(m.neighbour(18, 5), 17);
  EXPECT_EQ(m.neighbour(18, 2), 22);
  EXPECT_EQ(m.neighbour(18, 3), 14);
  EXPECT_EQ(m.neighbour(18, 0), -1);  // the border: no wrap-around
  EXPECT_EQ(m.neighbour(18, 1), 6);
  EXPECT_EQ(m.diameter(), 1 + 2 + 3);
  EXPECT_EQ(m.bisection_width(), 2 * 3);  // the longest size halved: a 2x3 cross-section
  const Topology torus = Topology::parse("torus:3x3x4");
  const Topology mesh = Topology::parse("mesh:3x3x4");
  int links = 0;
  for (int v = 0; v < mesh.num_nodes(); ++v)
    for (int p = 0; p < mesh.num_ports(); ++p)
      if (mesh.neighbour(v, p) >= 0) {
        ++links;
        EXPECT_EQ(mesh.neighbour(v, p), torus.neighbour(v, p));
      }
  EXPECT_EQ(links, 2 * (2 * 3 * 4 + 3 * 2 * 4 + 3 * 3 * 3));  // directed: (size - 1) links per line
}

// node_at_coords inverts coords on every family, and refuses coordinates that name no node.
TEST(Topology, NodeAtCoordsInvertsCoords) {
  for (const char* spec : {"line:5", "ring:6", "mesh:3x4", "torus:3x4x5", "hypercube:4", "complete:5", "bsn:ring:4",
                           "otis:ring:5"}) {
    SCOPED_TRACE(spec);
    const Topology t = Topology::parse(spec);
    for (int v = 0; v < t.num_nodes(); ++v) EXPECT_EQ(t.node_at_coords(t.coords(v)), v);
    std::vector<int> beyond = t.coords(t.num_nodes() - 1);
    ++beyond.front();
    EXPECT_THROW(t.node_at_coords(beyond), std::out_of_range);
    beyond.push_back(0);
    EXPECT_THROW(t.node_at_coords(beyond), std::out_of_range);
  }
  EXPECT_EQ(Topology::parse("torus:3x4").node_at_coords({2, 1}), 9);
  EXPECT_EQ(Topology::parse("hypercube:3").node_at_coords({1, 0, 1}), 5);
}

TEST(Topology, HypercubeFlipsBits) {
  Topology h = Topology::parse("hypercube:4");
  EXPECT_EQ(h.num_nodes(), 16);
  EXPECT_EQ(h.neighbour(5, 1), 7);
  EXPECT_EQ(h.diameter(), 4);
  EXPECT_EQ(h.bisection_width(), 8);
}

std::string spec_name(const ::testing::TestParamInfo<const char*>& info) {
  return testing_support::test_name(std::string("s_") + info.param + "_" + std::to_string(info.index));
}

class TopologyProperties : public ::testing::TestWithParam<const char*> {};

TEST_P(TopologyProperties, PortsAreSymmetricAndDistancesMatchBfs) {
  Topology t = Topology::parse(GetParam());
  int diameter = 0;
  for (int n = 0; n < t.num_nodes(); ++n) {
    for (int p = 0; p < t.num_ports(); ++p) {
      int v = t.neighbour(n, p);
      if (v < 0) continue;
      EXPECT_EQ(t.neighbour(v, t.reverse_port(n, p)), n) << "node " << n << " port " << p;
      EXPECT_EQ(t.port_towards(n, v), p);
    }
    std::vector<int> d = bfs(t, n);
    for (int m = 0; m < t.num_nodes(); ++m) {
      ASSERT_GE(d[static_cast<size_t>(m)], 0) << "disconnected";
      EXPECT_EQ(t.distance(n, m), d[static_cast<size_t>(m)]) << n << "->" << m;
      diameter = std::max(diameter, d[static_cast<size_t>(m)]);
    }
  }
  EXPECT_EQ(t.diameter(), diameter);
  Cut c = t.bisection_cut();
  EXPECT_EQ(c.side_a + c.side_b, t.num_nodes());
  EXPECT_LE(c.side_a, c.side_b);
}

INSTANTIATE_TEST_SUITE_P(Specs, TopologyProperties,
                         ::testing::Values("line:2", "line:9", "ring:3", "ring:10", "mesh:2x2", "mesh:3x5",
                                           "torus:3x3", "torus:4x5", "torus:3x4x5", "hypercube:1", "hypercube:5"),
                         spec_name);

TEST(Topology, CanonicalSpec) { EXPECT_EQ(Topology::parse("torus:04x6").spec(), "torus:4x6"); }

class BadSpecs : public ::testing::TestWithParam<const char*> {};

TEST_P(BadSpecs, AreRefusedWithOneLineNamingTheAcceptedForms) {
  try {
    Topology::parse(GetParam());
    FAIL() << GetParam() << " was accepted";
  } catch (const InputError& e) {
    std::string msg = e.what();
    EXPECT_THAT(msg, HasSubstr(std::string("'") + GetParam() + "'"));
    EXPECT_THAT(msg, HasSubstr("accepted: line:N"));
    EXPECT_THAT(msg, Not(HasSubstr("\n")));
  }
}

INSTANTIATE_TEST_SUITE_P(Specs, BadSpecs,
                         ::testing::Values("ring:0", "ring:2", "line:1", "line:abc", "line:", "line", "torus:4x",
                                           "torus:4", "torus:2x5", "mesh:-3x2", "mesh:3x1x3", "mesh:1x4", "foo:3",
                                           "line:4194305", "torus:2048x2048x2", "hypercube:17", "hypercube:0",
                                           "line:+5", "line:5 ", ""),
                         spec_name);

TEST(Topology, TakesUpToFourMillionNodes) {
  const Topology mesh = Topology::parse("mesh:2048x2048");
  EXPECT_EQ(mesh.num_nodes(), Topology::kMaxNodes);
  EXPECT_EQ(mesh.num_nodes(), 4194304);
  EXPECT_EQ(mesh.neighbour(4194303, 1), 4194303 - 2048);  // the last node's north neighbour
  EXPECT_EQ(Topology::parse("hypercube:16").num_nodes(), 65536);
  EXPECT_EQ(Topology::parse("line:4194304").num_nodes(), 4194304);
}

// A smaller cap (the topology fuzz target's): nodes and node ports refused before wiring,
// swapped networks' bases included; at the cap and below, the same network as uncapped.
TEST(Topology, ASmallerCapRefusesBeforeWiring) {
  for (const char* spec : {"torus:65x64", "line:4097", "hypercube:13", "bsn:ring:46", "otis:mesh:8x9", "complete:300"}) {
    try {
      Topology::parse(spec, 4096);
      ADD_FAILURE() << spec << " was not refused";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), ::testing::AnyOf(::testing::HasSubstr("more than 4096 nodes"),
                                             ::testing::HasSubstr("more than 65536 node ports")))
          << spec;
    }
    EXPECT_NO_THROW(Topology::parse(spec)) << spec;
  }
  for (const char* spec : {"torus:64x64", "hypercube:12", "bsn:ring:45", "complete:256"}) {
    const Topology capped = Topology::parse(spec, 4096), full = Topology::parse(spec);
    EXPECT_EQ(capped.spec(), full.spec());
    EXPECT_EQ(capped.num_nodes(), full.num_nodes());
    EXPECT_EQ(capped.neighbour(capped.num_nodes() - 1, 0), full.neighbour(full.num_nodes() - 1, 0)) << spec;
  }
}

namespace fixroute {
namespace {

// graph:FILE (docs/topologies.md): a list of links, ports numbered or in order; what is not a
// connected simple graph with consistent ports is refused in one line naming the file's line.
class GraphFile : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::filesystem::path p = std::filesystem::temp_directory_path() / ("fixroute_graph_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(p) << text;
    written_.push_back(p);
    return "graph:" + p.string();
  }
  void TearDown() override {
    for (const auto& p : written_) std::filesystem::remove(p);
  }
  std::vector<std::filesystem::path> written_;
};

TEST_F(GraphFile, LinksInOrderGiveEachNodeItsPorts) {
  const Topology t = Topology::parse(write("tri", "# a triangle and a tail\n0 1\n1 2\n2 0  # closing\n2 3\n"));
  EXPECT_EQ(t.kind(), TopologyKind::Graph);
  EXPECT_EQ(t.num_nodes(), 4);
  EXPECT_EQ(t.num_ports(), 3);  // node 2: three links
  EXPECT_EQ(t.neighbour(0, 0), 1);
  EXPECT_EQ(t.neighbour(0, 1), 2);
  EXPECT_EQ(t.neighbour(0, 2), -1);
  EXPECT_EQ(t.neighbour(2, 2), 3);
  EXPECT_EQ(t.reverse_port(2, 2), 0);
  EXPECT_EQ(t.distance(0, 3), 2);
  EXPECT_EQ(t.diameter(), 2);
  EXPECT_EQ(t.num_arcs(), 8);
  EXPECT_EQ(t.spec().rfind("graph:/", 0), 0u);  // the absolute path
}

TEST_F(GraphFile, NumberedPortsAreKept) {
  const Topology t = Topology::parse(write("ports", "nodes 3\n0:2 1:0\n1:1 2:3\n"));
  EXPECT_EQ(t.num_ports(), 4);
  EXPECT_EQ(t.neighbour(0, 2), 1);
  EXPECT_EQ(t.reverse_port(0, 2), 0);
  EXPECT_EQ(t.neighbour(2, 3), 1);
  EXPECT_EQ(t.neighbour(0, 0), -1);
}

TEST_F(GraphFile, TheMissingLinkTorusIsATorusLessOneLink) {
  const Topology g = Topology::parse("graph:" FIXROUTE_SOURCE_DIR "/tests/graphs/torus4x5_missing_link.txt");
  const Topology t = Topology::parse("torus:4x5");
  EXPECT_EQ(g.num_arcs(), t.num_arcs() - 2);
  for (int n = 0; n < t.num_nodes(); ++n)
    for (int p = 0; p < t.num_ports(); ++p)
      if (!((n == 0 && p == 2) || (n == 1 && p == 3))) {
        EXPECT_EQ(g.neighbour(n, p), t.neighbour(n, p)) << n << " " << p;
      }
  EXPECT_EQ(g.neighbour(0, 2), -1);
}

TEST_F(GraphFile, RefusesWhatIsNotAConnectedSimpleGraph) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"0 1\n1 1\n", "line 2: a self-loop at node 1"},
      {"0 1\n1 0\n", "line 2: the link 0-1 again (line 1)"},
      {"0 1\n2 3\n", "not connected: node 2 cannot be reached from node 0"},
      {"0:0 1:0\n1:0 2:0\n", "line 2: port 0 of node 1 is used again (line 1)"},
      {"0:0 1\n", "ports are numbered at some link ends and not others"},
      {"0 x\n", "line 1: node 'x' is not a whole number"},
      {"0 1 2\n", "line 1: expected a link"},
      {"nodes 2\n0 5\n", "node 5 is not below the 2 nodes of line 1"},
      {"0:64 1:0\n", "line 1: port 64 is not below 64"},
      {"# nothing\n", "no links"},
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    const std::string spec = write("bad" + std::to_string(i), bad[i].first);
    try {
      Topology::parse(spec);
      ADD_FAILURE() << bad[i].first << " was accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr(bad[i].second)) << bad[i].first;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_THROW(Topology::parse("graph:/nonexistent/graph.txt"), InputError);
  EXPECT_THROW(Topology::parse("graph:"), InputError);
}

}  // namespace
}  // namespace fixroute
