// Swapped networks and summing routers (the biswapped-network paper): the topologies
// (bsn:, otis:, complete:) against breadth-first search, every algorithm's sweep on the
// ref engine at its count, Table 4's closed forms beside the measurements, the
// scoreboard's rules (each broken on purpose), the table files, the command line, and the
// SystemC and Verilog routers against the ref routers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/kinds/combining_sum/engine.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/topology/topology.h"
#include "sw/kinds/combining_sum/scoreboard.h"
#include "sw/tables/table_files.h"
#include "sw/verify/run_case.h"
#include "tb/combining_sum/sum_rtl_engine.h"
#include "sweep_support.h"
#include "test_support.h"
#include "test_labels.h"

using ::testing::HasSubstr;
using namespace fixroute;
namespace fs = std::filesystem;
using testing_support::all_errors;

namespace {

const char* const kBases[] = {"line:2", "line:3", "line:5", "ring:3", "ring:4", "ring:5", "mesh:2x2", "mesh:2x3",
                              "mesh:3x3", "torus:3x3", "hypercube:1", "hypercube:2", "hypercube:3", "complete:2",
                              "complete:3", "complete:5"};

// Distances by breadth-first search over the links alone.
std::vector<int> bfs(const Topology& t, int source) {
  std::vector<int> d(static_cast<size_t>(t.num_nodes()), -1);
  std::vector<int> q{source};
  d[static_cast<size_t>(source)] = 0;
  for (size_t h = 0; h < q.size(); ++h)
    for (int p = 0; p < t.num_ports(); ++p) {
      const int v = t.neighbour(q[h], p);
      if (v >= 0 && d[static_cast<size_t>(v)] < 0) {
        d[static_cast<size_t>(v)] = d[static_cast<size_t>(q[h])] + 1;
        q.push_back(v);
      }
    }
  return d;
}

int bfs_diameter(const Topology& t) {
  int d = 0;
  for (int s = 0; s < t.num_nodes(); ++s) {
    const std::vector<int> dist = bfs(t, s);
    EXPECT_EQ(std::count(dist.begin(), dist.end(), -1), 0) << t.spec() << " is not connected";
    d = std::max(d, *std::max_element(dist.begin(), dist.end()));
  }
  return d;
}

RunResult run(const std::string& spec, const std::string& collective, int root = 0) {
  RunRequest req;
  req.topology = spec;
  req.collective = collective;
  req.root = root;
  return run_case(req);
}

std::shared_ptr<const CombiningSumTables> build(const std::string& spec, const std::string& collective, int root = 0) {
  const Problem problem{Topology::parse(spec), collective, {}, "", root};
  return std::dynamic_pointer_cast<const CombiningSumTables>(find_algorithm(problem, "").build(problem));
}

}  // namespace

TEST(SwappedTopology, LinksAreThePapersAndDiametersAre2DPlus2And2DPlus1) {
  for (const char* base_spec : kBases) {
    const Topology base = Topology::parse(base_spec);
    const int n = base.num_nodes();
    for (const std::string kind : {"bsn", "otis"}) {
      const Topology t = Topology::parse(kind + ":" + base_spec);
      const bool bsn = kind == "bsn";
      ASSERT_EQ(t.num_nodes(), (bsn ? 2 : 1) * n * n) << t.spec();
      EXPECT_EQ(t.num_ports(), base.num_ports() + 1);
      for (int node = 0; node < t.num_nodes(); ++node) {
        const SwappedNode at = t.place(node);
        EXPECT_EQ(t.node_at(at), node);
        EXPECT_EQ(node, (at.part * n + at.group) * n + at.proc);  // the paper's group-major numbering
        for (int p = 0; p < t.num_ports(); ++p) {
          const int other = t.neighbour(node, p);
          if (other < 0) continue;
          EXPECT_EQ(t.neighbour(other, t.reverse_port(node, p)), node) << t.spec();
        }
        const int across = t.neighbour(node, t.swap_port());
        if (bsn) {
          EXPECT_EQ(across, t.node_at({at.proc, at.group, 1 - at.part})) << t.spec();  // <g,p,0> -- <p,g,1>
        } else {
          EXPECT_EQ(across, at.group == at.proc ? -1 : t.node_at({at.proc, at.group, 0})) << t.spec();
        }
        for (int p = 0; p < base.num_ports(); ++p) {  // inside a group, as in the base
          const int inside = base.neighbour(at.proc, p);
          EXPECT_EQ(t.neighbour(node, p), inside < 0 ? -1 : t.node_at({at.group, inside, at.part}));
        }
      }
      if (t.num_nodes() <= 800) {
        EXPECT_EQ(t.diameter(), bfs_diameter(t)) << t.spec();
        EXPECT_EQ(t.diameter(), 2 * base.diameter() + (bsn ? 2 : 1)) << t.spec();
        for (int node : {0, t.num_nodes() / 3, t.num_nodes() - 1}) {
          const std::vector<int> d = bfs(t, node);
          EXPECT_EQ(t.eccentricity(node), *std::max_element(d.begin(), d.end())) << t.spec();
          EXPECT_EQ(t.distance(node, 1), d[1]);
        }
      }
      // The cut: links whose ends lie on different sides of the first side_a nodes' groups.
      const Cut cut = t.bisection_cut();
      std::set<int> side;
      for (int node = 0; node < t.num_nodes(); ++node)
        if (t.place(node).group < n / 2) side.insert(node);
      int64_t crossing = 0;
      for (int node : side)
        for (int p = 0; p < t.num_ports(); ++p) crossing += t.neighbour(node, p) >= 0 && !side.count(t.neighbour(node, p));
      EXPECT_EQ(cut.side_a, static_cast<int64_t>(side.size())) << t.spec();
      EXPECT_EQ(cut.links, crossing) << t.spec();
    }
  }
}

TEST(SwappedTopology, CompleteGraphAndRefusals) {
  const Topology k5 = Topology::parse("complete:5");
  EXPECT_EQ(k5.num_ports(), 4);
  EXPECT_EQ(k5.diameter(), bfs_diameter(k5));
  for (int a = 0; a < 5; ++a) {
    std::set<int> seen;
    for (int p = 0; p < 4; ++p) seen.insert(k5.neighbour(a, p));
    EXPECT_EQ(seen.size(), 4u);
    EXPECT_FALSE(seen.count(a));
  }
  EXPECT_EQ(Topology::parse("bsn:mesh:03x2").spec(), "bsn:mesh:3x2");
  for (const char* bad : {"bsn:bsn:line:3", "otis:bsn:line:3", "bsn:", "bsn:wheel:4", "complete:1", "bsn:line:2000",
                          "otis:complete:9000"}) {
    try {
      Topology::parse(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(bad));
    }
  }
}

TEST(Swapped, EverySweepCaseRunsAtItsCountOnRef) {
  EXPECT_GT(testing_support::expect_every_sweep_case_at_its_count(kCombiningSumKind), 100);
}

// Table 4, measured beside the paper's closed forms (N = 2n^2): BSN-Array (n = 6: N = 72,
// sqrt(2N) = 12), BSN-Mesh (4x4: (8N)^(1/4) = 8), BSN-Complete. Broadcast and prefix sum
// meet them exactly; the data sum takes 2 S + 2, below the paper's 3 S + 2, which counts
// its step 5 (an addition) as a third data sum.
TEST(Swapped, Table4MeasuredBesideThePapersForms) {
  struct Row {
    const char* spec;
    const char* collective;
    int64_t measured, paper;
  };
  for (const Row& row : {Row{"bsn:line:6", "broadcast", 12, 12}, Row{"bsn:line:6", "prefix", 23, 23},
                         Row{"bsn:line:6", "data-sum", 12, 17}, Row{"bsn:mesh:4x4", "broadcast", 14, 14},
                         Row{"bsn:mesh:4x4", "prefix", 27, 27}, Row{"bsn:mesh:4x4", "data-sum", 14, 20},
                         Row{"bsn:complete:7", "broadcast", 4, 4}, Row{"bsn:complete:7", "prefix", 7, 7},
                         Row{"bsn:complete:7", "data-sum", 4, 5},
                         // OTIS-Mesh on mesh:3x3 (N = 81, N^(1/4) = 3): Wang and Sahni's 9, 18, 17.
                         Row{"otis:mesh:3x3", "broadcast", 9, 9}, Row{"otis:mesh:3x3", "prefix", 14, 18},
                         Row{"otis:mesh:3x3", "data-sum", 9, 17}}) {
    const RunResult r = run(row.spec, row.collective);
    EXPECT_TRUE(r.ok()) << summary(r);
    EXPECT_EQ(r.steps(), row.measured) << row.spec << " " << row.collective;
    EXPECT_EQ(r.paper_formula, std::optional<int64_t>(row.paper)) << row.spec << " " << row.collective;
    EXPECT_EQ(r.meets_paper(), std::optional<bool>(true));
  }
  // Data sum at the diameter, broadcast at the root's eccentricity: optimal.
  for (const char* spec : {"bsn:line:6", "bsn:mesh:3x4", "bsn:complete:4", "bsn:hypercube:3"}) {
    EXPECT_EQ(run(spec, "data-sum").steps(), Topology::parse(spec).diameter()) << spec;
  }
}

TEST(Swapped, BroadcastFromEveryRootAtItsEccentricityOnBsn) {
  for (const char* spec : {"bsn:mesh:2x3", "bsn:line:4", "otis:line:4", "otis:ring:4"}) {
    const Topology t = Topology::parse(spec);
    for (int root = 0; root < t.num_nodes(); ++root) {
      const RunResult r = run(spec, "broadcast", root);
      ASSERT_TRUE(r.ok()) << spec << " root " << root << ": " << summary(r);
      const std::vector<int> d = bfs(t, root);
      const int ecc = *std::max_element(d.begin(), d.end());
      if (t.kind() == TopologyKind::Biswapped) {
        EXPECT_EQ(r.steps(), ecc) << spec << " root " << root;
      } else {
        EXPECT_GE(r.steps(), ecc) << spec << " root " << root;
      }
    }
  }
}

TEST(Swapped, RefusedWhereTheyDoNotRun) {
  for (const auto& [spec, collective] : std::vector<std::pair<std::string, std::string>>{
           {"mesh:4x4", "data-sum"}, {"ring:5", "data-sum"}}) {
    const Problem problem{Topology::parse(spec), collective, {}, "", 0};
    EXPECT_THROW(find_algorithm(problem, ""), InputError) << spec;
  }
  const Problem one_port{Topology::parse("bsn:line:3"), "prefix", PortModel{true, false, false}, "", 0};
  EXPECT_THROW(find_algorithm(one_port, ""), InputError);
  const Problem bad_root{Topology::parse("bsn:line:3"), "broadcast", {}, "", 18};
  EXPECT_THROW(find_algorithm(bad_root, ""), InputError);
  // A 4D torus base: the broadcast runs; prefix and data sum need more than 16 registers.
  EXPECT_NO_THROW(build("otis:torus:3x3x3x3", "broadcast"));
  EXPECT_THROW(build("otis:torus:3x3x3x3", "prefix"), InputError);
  EXPECT_THROW(build("bsn:torus:3x3x3x3", "data-sum"), InputError);
}

// Tori of three dimensions as bases: the data sum dimension by dimension (the diameter of
// the base as a mesh), the prefix slice by slice; each run on the routers and scored.
TEST(Swapped, ThreeDimensionalTorusBases) {
  struct Row {
    const char* spec;
    int64_t broadcast, prefix, data_sum;
  };
  // bsn:torus:3x3x3: D = 3, slice prefix 4 + 2 along + 2 spread = 8, B = ecc = 3, S = 6;
  // otis:torus:3x4x3: slice prefix 5 + 2 + 3 = 10, B = 4, S = 7.
  for (const Row& row : {Row{"bsn:torus:3x3x3", 8, 2 * 8 + 2 * 3 + 3, 2 * 6 + 2},
                         Row{"otis:torus:3x4x3", 9, 2 * 10 + 2 + 4, 2 * 7 + 1}}) {
    int64_t measured[3];
    const char* const ops[] = {"broadcast", "prefix", "data-sum"};
    for (int k = 0; k < 3; ++k) {
      RunRequest req;
      req.topology = row.spec;
      req.collective = ops[k];
      const RunResult r = run_case(req);
      EXPECT_TRUE(r.ok()) << row.spec << " " << ops[k] << ": " << summary(r);
      EXPECT_EQ(r.score.deliveries, r.nodes) << row.spec << " " << ops[k];
      measured[k] = r.steps();
    }
    EXPECT_EQ(measured[0], row.broadcast) << row.spec;
    EXPECT_EQ(measured[1], row.prefix) << row.spec;
    EXPECT_EQ(measured[2], row.data_sum) << row.spec;
  }
}

// A clean ref run of the prefix sum on bsn:line:3, scored again after `tamper`.
ScoreboardReport tampered(const std::function<void(std::vector<SumEvent>&, std::vector<uint64_t>&)>& tamper) {
  const Topology t = Topology::parse("bsn:line:3");
  const auto tables = build("bsn:line:3", "prefix");
  CombiningSumRun run = run_combining_sum_ref(t, *tables);
  EXPECT_TRUE(score_combining_sum(t, *tables, run.trace, run.answers).clean());
  tamper(run.trace, run.answers);
  return score_combining_sum(t, *tables, run.trace, run.answers);
}

TEST(CombiningSumScoreboard, CatchesAWrongSum) {
  const ScoreboardReport r = tampered([](std::vector<SumEvent>& e, std::vector<uint64_t>&) { e[3].value += 1; });
  EXPECT_THAT(all_errors(r), HasSubstr("summed to"));
  EXPECT_LT(r.deliveries, r.needed);  // the wrong value reached answers downstream
}

TEST(CombiningSumScoreboard, CatchesAMissingAndAnUnnamedSend) {
  ScoreboardReport r = tampered([](std::vector<SumEvent>& e, std::vector<uint64_t>&) { e.erase(e.begin() + 2); });
  EXPECT_THAT(all_errors(r), HasSubstr("sent nothing on port"));
  r = tampered([](std::vector<SumEvent>& e, std::vector<uint64_t>&) {
    SumEvent extra = e[0];
    extra.port = 1 - extra.port;  // the other way along the line: no neighbour or not in the program
    e.insert(e.begin() + 1, extra);
  });
  EXPECT_FALSE(r.clean());
}

TEST(CombiningSumScoreboard, CatchesAWrongAnswerAndAWrongNeighbour) {
  ScoreboardReport r = tampered([](std::vector<SumEvent>&, std::vector<uint64_t>& a) { a[5] ^= 1; });
  EXPECT_THAT(all_errors(r), HasSubstr("node 5 answered"));
  EXPECT_EQ(r.deliveries, r.needed - 1);
  r = tampered([](std::vector<SumEvent>& e, std::vector<uint64_t>&) { e[0].to = e[0].node; });
  EXPECT_THAT(all_errors(r), HasSubstr("not the neighbour"));
}

// Tables that add an arrival into the wrong register route the sum wrongly: the routers
// run them, and the answers are caught against the direct sum.
TEST(CombiningSumScoreboard, ATableAddingIntoTheWrongRegisterIsCaughtByTheAnswers) {
  const Topology t = Topology::parse("bsn:line:3");
  CombiningSumTables tables = *build("bsn:line:3", "prefix");
  uint32_t& entry = tables.entries[tables.at(1, 1, 1)];  // node 1 adds node 0's value into its local prefix
  ASSERT_NE(entry >> 16, 0u);
  entry |= 1u << 16;  // ... and into register 0 as well, counting it twice
  const CombiningSumRun run = run_combining_sum_ref(t, tables);
  const ScoreboardReport r = score_combining_sum(t, tables, run.trace, run.answers);
  EXPECT_THAT(all_errors(r), HasSubstr("answered"));
}

TEST(CombiningSumTables, RoundTripInBothFormsAndRefuseTampering) {
  const fs::path dir = testing_support::scratch() / "combining_sum";
  const auto t = build("otis:mesh:2x2", "prefix");
  for (TableForm form : {TableForm::Files, TableForm::Packed}) {
    fs::remove_all(dir);
    write_combining_sum_tables(*t, dir.string(), form);
    const CombiningSumTables back = load_combining_sum_tables(dir.string());
    EXPECT_EQ(back.entries, t->entries);
    EXPECT_EQ(back.init, t->init);
    EXPECT_EQ(back.result, t->result);
    EXPECT_EQ(back.registers, t->registers);
    EXPECT_EQ(back.algorithm, "otis");
  }
  fs::remove_all(dir);
  write_combining_sum_tables(*t, dir.string(), TableForm::Files);
  {
    std::ofstream hex(dir / "router-6.hex", std::ios::app);
    hex << "00000000\n";
  }
  try {
    load_combining_sum_tables(dir.string());
    ADD_FAILURE() << "a tampered image was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("router-6.hex"));
  }
  CombiningSumTables bad = *t;
  bad.entries[bad.at(0, 1, 1)] = 1;  // node 0's port 1 (N) leads off the mesh
  EXPECT_THROW(validate_combining_sum(bad, Topology::parse("otis:mesh:2x2"), "test"), InputError);
  bad = *t;
  bad.result[3] = 1u << 15;  // a register the routers do not have
  EXPECT_THROW(validate_combining_sum(bad, Topology::parse("otis:mesh:2x2"), "test"), InputError);
}

TEST(SwappedCli, RunsWritesTablesAndRefusesBadCases) {
  testing_support::Outcome o = testing_support::run_cli("run bsn:mesh:2x2 prefix --json");
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["router_kind"], "combining-sum");
  EXPECT_EQ(j["steps"], 11);  // 8k - 5 at k = 2
  EXPECT_EQ(j["ok"], true);
  const std::string dir = (testing_support::scratch() / "cli_swapped").string();
  o = testing_support::run_cli("tables bsn:ring:4 broadcast --root 9 -o " + dir);
  ASSERT_EQ(o.code, 0) << o.err;
  o = testing_support::run_cli("run bsn:ring:4 broadcast --tables " + dir + " --json --trace " + dir + "/trace.csv");
  ASSERT_EQ(o.code, 0) << o.err;
  j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["steps"], 6);
  EXPECT_EQ(j["construction"], "root <2,1,0>");
  EXPECT_THAT(testing_support::slurp(fs::path(dir) / "trace.csv"), HasSubstr("step,node,port,to,value\n1,9,0,10,"));
  o = testing_support::run_cli("run bsn:ring:4 data-sum --engine rtl --json");
  ASSERT_EQ(o.code, 0) << o.err;
  j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["steps"], 8);  // 2 S + 2 with S = 3
  EXPECT_EQ(j["ok"], true);
  for (const char* bad : {"run bsn:bsn:line:3 prefix", "run otis:torus:3x3x3x3 data-sum", "run bsn:line:3 broadcast --root 99",
                          "run bsn:line:3 data-sum --ports 1-port", "run otis:line:3 gossip --algorithm otis",
                          "run bsn:complete:9 prefix --engine rtl", "bound bsn:line:3 prefix"}) {
    o = testing_support::run_cli(bad);
    EXPECT_EQ(o.code, 2) << bad << "\n" << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << bad << ": " << o.err;
  }
}

// `fixroute table4`: every family's rows up to the size asked, run and verified, with the
// paper's closed forms beside (Table 4's first column, OTIS-Mesh, included).
TEST(SwappedCli, Table4PrintsTheMeasuredTable) {
  for (const char* engine : {"ref", "systemc", "rtl"}) {
    testing_support::Outcome o = testing_support::run_cli(std::string("table4 --max-nodes 32 --json --engine ") + engine);
    ASSERT_EQ(o.code, 0) << engine << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    std::map<std::string, std::vector<int>> steps, paper;
    for (const nlohmann::json& row : j["rows"]) {
      EXPECT_LE(row["nodes"].get<int>(), 32) << row.dump();
      for (const char* op : {"broadcast", "prefix", "data-sum"}) {
        EXPECT_TRUE(row[op]["ok"].get<bool>()) << row.dump();
        EXPECT_GE(row[op]["steps"].get<int>(), row[op]["lower_bound"].get<int>()) << row.dump();
        steps[row["spec"]].push_back(row[op]["steps"].get<int>());
        paper[row["spec"]].push_back(row[op]["paper"].is_null() ? -1 : row[op]["paper"].get<int>());
      }
    }
    EXPECT_EQ(steps.size(), 12u) << engine;  // otis:mesh:2x2, bsn: line 2-4, mesh:2x2, complete 2-4, hypercube 1-2, ring 3-4
    EXPECT_EQ(steps["otis:mesh:2x2"], (std::vector<int>{5, 8, 5}));
    EXPECT_EQ(paper["otis:mesh:2x2"], (std::vector<int>{5, 10, 9}));
    EXPECT_EQ(steps["bsn:line:4"], (std::vector<int>{8, 15, 8}));
    EXPECT_EQ(paper["bsn:line:4"], (std::vector<int>{8, 15, 11}));
    EXPECT_EQ(steps["bsn:mesh:2x2"], (std::vector<int>{6, 11, 6}));
    EXPECT_EQ(steps["bsn:complete:4"], (std::vector<int>{4, 7, 4}));
    EXPECT_EQ(paper["bsn:complete:4"], (std::vector<int>{4, 7, 5}));
  }
  const testing_support::Outcome text = testing_support::run_cli("table4 --max-nodes 8");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("BSN-Array -- paper: broadcast / prefix / data sum = sqrt(2N) / 2 sqrt(2N) - 1"));
  EXPECT_THAT(text.out, HasSubstr("bsn:line:2"));
  for (const char* bad : {"table4 --max-nodes 3", "table4 --engine nope", "table4 --max-nodes x"}) {
    const testing_support::Outcome o = testing_support::run_cli(bad);
    EXPECT_EQ(o.code, 2) << bad;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << bad << ": " << o.err;
  }
}

// The SystemC routers against the ref routers: same trace, same answers, one round per
// clock plus the edge that adds the last round's packets (each TEST in its own process).
struct SumEngineCase {
  std::string collective, spec;
  int root = 0;
};

// Printed in test names (`ctest -N`), instead of the struct's bytes.
void PrintTo(const SumEngineCase& c, std::ostream* os) { *os << c.collective << " " << c.spec << " root " << c.root; }

std::vector<SumEngineCase> sum_engine_cases() {
  return {{"broadcast", "bsn:mesh:2x3", 7}, {"prefix", "bsn:line:4", 0},      {"data-sum", "bsn:hypercube:2", 0},
          {"prefix", "otis:mesh:3x3", 0},   {"data-sum", "otis:complete:4", 0}, {"broadcast", "otis:ring:4", 5},
          {"prefix", "otis:torus:3x3x3", 0}};
}

std::string sum_engine_case_name(const ::testing::TestParamInfo<SumEngineCase>& info) {
  return testing_support::test_name(info.param.collective + "_" + info.param.spec);
}

RunResult run_sums_on(const SumEngineCase& c, const std::string& engine, int threads = 1) {
  RunRequest req;
  req.threads = threads;
  req.topology = c.spec;
  req.collective = c.collective;
  req.root = c.root;
  req.engine = engine;
  return run_case(req);
}

FIXROUTE_LABEL("systemc", "SystemcSwapped");
class SystemcSwapped : public ::testing::TestWithParam<SumEngineCase> {};
TEST_P(SystemcSwapped, TraceAndAnswersEqualRef) {
  const RunResult sc = run_sums_on(GetParam(), "systemc");
  const RunResult ref = run_sums_on(GetParam(), "ref");
  EXPECT_TRUE(sc.ok()) << summary(sc);
  EXPECT_EQ(sc.steps(), ref.steps());
  EXPECT_EQ(sc.trace->csv(), ref.trace->csv());
  EXPECT_EQ(dynamic_cast<const CombiningSumTrace&>(*sc.trace).answers,
            dynamic_cast<const CombiningSumTrace&>(*ref.trace).answers);
  EXPECT_EQ(sc.stats.clock_cycles, std::optional<int64_t>(sc.steps() + 1));
  EXPECT_EQ(sc.stats.cycles_per_step, std::optional<int64_t>(1));
}
INSTANTIATE_TEST_SUITE_P(Cases, SystemcSwapped, ::testing::ValuesIn(sum_engine_cases()), sum_engine_case_name);

FIXROUTE_LABEL("rtl", "RtlSwapped");
// The Verilog routers (verilated fr_sum_router arrays) against the ref routers.
class RtlSwapped : public ::testing::TestWithParam<SumEngineCase> {};
TEST_P(RtlSwapped, TraceAndAnswersEqualRef) {
  const RunResult rtl = run_sums_on(GetParam(), "rtl");
  const RunResult ref = run_sums_on(GetParam(), "ref");
  EXPECT_TRUE(rtl.ok()) << summary(rtl);
  EXPECT_EQ(rtl.steps(), ref.steps());
  EXPECT_EQ(rtl.trace->csv(), ref.trace->csv());
  EXPECT_EQ(dynamic_cast<const CombiningSumTrace&>(*rtl.trace).answers,
            dynamic_cast<const CombiningSumTrace&>(*ref.trace).answers);
  // A round of the Verilog router is a clock per register of the table, the answer one
  // round after the last (the harness counts the clocks).
  const int registers = build(GetParam().spec, GetParam().collective, GetParam().root)->registers;
  EXPECT_EQ(rtl.stats.cycles_per_step, std::optional<int64_t>(registers));
  EXPECT_EQ(rtl.stats.clock_cycles, std::optional<int64_t>((rtl.steps() + 1) * registers));
  EXPECT_THAT(rtl.stats.hardware, HasSubstr("fr_sum_router"));
  const RunResult split = run_sums_on(GetParam(), "rtl", 3);  // two threads share each clock
  EXPECT_EQ(split.trace->csv(), rtl.trace->csv());
  EXPECT_EQ(dynamic_cast<const CombiningSumTrace&>(*split.trace).answers,
            dynamic_cast<const CombiningSumTrace&>(*rtl.trace).answers);
  EXPECT_EQ(split.stats.clock_cycles, rtl.stats.clock_cycles);
}
INSTANTIATE_TEST_SUITE_P(Cases, RtlSwapped, ::testing::ValuesIn(sum_engine_cases()), sum_engine_case_name);

FIXROUTE_LABEL("rtl", "RtlSumBuilds");
TEST(RtlSumBuilds, TablesNoBuildHoldsAreRefused) {
  RunRequest req;
  req.topology = "bsn:complete:9";  // 9 ports: more than the widest build has
  req.collective = "prefix";
  req.engine = "rtl";
  EXPECT_THROW(run_case(req), InputError);
  const Topology t = Topology::parse("bsn:line:3");
  CombiningSumTables tables = *build("bsn:line:3", "data-sum");
  tables.rounds = 200;  // more rows than any build holds
  std::vector<std::vector<uint32_t>> images(static_cast<size_t>(t.num_nodes()));
  EXPECT_THROW(run_sum_rtl_images(t, tables.rounds, tables.registers, images, {}), InputError);
}

FIXROUTE_LABEL("rtl", "RtlSumTableCheck");
// The hardware's own checks of the images it is given (the rtl engine loads each router's
// image through its configuration port and reads table_ok / table_error).
class RtlSumTableCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    tables_ = *build("bsn:line:3", "prefix");
    for (int n = 0; n < topo_.num_nodes(); ++n) images_.push_back(encode_combining_sum_image(tables_, n));
  }
  CombiningSumRun run() { return run_sum_rtl_images(topo_, tables_.rounds, tables_.registers, images_, {}); }
  void reseal(int node) {  // a deliberate edit, its checksum made good again
    std::vector<uint32_t>& image = images_[static_cast<size_t>(node)];
    image.back() = crc32(image.data(), (image.size() - 1) * sizeof(uint32_t));
  }
  const Topology topo_ = Topology::parse("bsn:line:3");
  CombiningSumTables tables_;
  std::vector<std::vector<uint32_t>> images_;
};

TEST_F(RtlSumTableCheck, CleanImagesLoadAndRunRight) {
  const CombiningSumRun r = run();
  ASSERT_EQ(r.failure, "");
  EXPECT_TRUE(score_combining_sum(topo_, tables_, r.trace, r.answers).clean());
}

TEST_F(RtlSumTableCheck, FlippedBitFailsTheHardwareChecksum) {
  images_[3][9] ^= 0x10;
  EXPECT_THAT(run().failure, HasSubstr("router 3 did not load its table: checksum mismatch"));
}

TEST_F(RtlSumTableCheck, TruncatedImageIsRefused) {
  images_[0].pop_back();
  EXPECT_THAT(run().failure, HasSubstr("router 0 did not load its table: wrong length"));
}

TEST_F(RtlSumTableCheck, AnotherKindsImageIsRefused) {
  images_[5][0] = 0x46524254;  // "FRBT": a broadcast-tree router's magic word
  reseal(5);
  EXPECT_THAT(run().failure, HasSubstr("router 5 did not load its table: bad magic word"));
}

TEST_F(RtlSumTableCheck, MoreRegistersThanBuiltAreRefused) {
  images_[2][4] = 17;  // registers
  reseal(2);
  EXPECT_THAT(run().failure, HasSubstr("router 2 did not load its table: it needs more than the router was built with"));
}

// A mask naming a register beyond the table's own (a build has more): a round takes a clock
// per register of the table, so the hardware would never add into it -- refused at load.
TEST_F(RtlSumTableCheck, AMaskBeyondTheTablesRegistersIsRefused) {
  ASSERT_LT(tables_.registers, 15);
  uint32_t& entry = images_[4][7 + 2];  // node 4's round 0 port 2
  entry |= 1u << (16 + tables_.registers);  // adds into the register after the last
  reseal(4);
  EXPECT_THAT(run().failure, HasSubstr("router 4 did not load its table: wrong length"));
  images_ = {};
  SetUp();
  images_[0][6] |= 1u << tables_.registers;  // init names it
  reseal(0);
  EXPECT_THAT(run().failure, HasSubstr("router 0 did not load its table: wrong length"));
}

// A resealed image that adds an arrival into a register the program does not name there:
// the hardware runs it, and the scoreboard (which keeps the registers from the tables, not
// from the images) catches the answer.
TEST_F(RtlSumTableCheck, AResealedWrongAddIsCaughtByTheScoreboard) {
  uint32_t& entry = images_[1][7 + 1];  // header, then node 1's round 1 port 1: it adds node 0's value
  ASSERT_EQ(entry, tables_.entries[tables_.at(1, 1, 1)]);
  ASSERT_NE(entry >> 16, 0u);
  entry |= 1u << 16;  // ... into register 0 as well, counting it twice
  reseal(1);
  const CombiningSumRun r = run();
  ASSERT_EQ(r.failure, "");
  EXPECT_THAT(all_errors(score_combining_sum(topo_, tables_, r.trace, r.answers)), HasSubstr("answered"));
}
