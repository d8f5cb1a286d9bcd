// The scoreboard must catch every kind of wrong run: each test breaks a clean trace in
// one way and expects the matching error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "sw/schedulers/port_rules.h"
#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "sw/kinds/port_rules/port_queue.h"
#include "sw/kinds/port_rules/ref_routers.h"
#include "sw/kinds/port_rules/router_rules.h"
#include "sw/kinds/port_rules/pipelined_sink.h"
#include "sw/kinds/port_rules/scoreboard.h"
#include "sweep_support.h"

using namespace fixroute;
using ::testing::HasSubstr;
using testing_support::all_errors;

namespace {

// The scoreboard fed as the ref engine feeds it: each step of a sorted trace as links (the
// sender's out-port carrying the packet). A step naming an arc twice has no such form.
// `parts` 0: each step whole (links()); else in that many parts, one after another
// (RangedLinkCheck: links by part, nodes by part from multiples of 64), as the engine's
// threads hand them.
ScoreboardReport score_links(const Topology& topo, const PortModel& model, const std::vector<DemandPacket>& demand,
                             const std::vector<TraceEvent>& trace, int parts = 0) {
  PacketScoreboard board(topo, model, demand);
  RangedLinkCheck* ranged = parts > 0 ? board.ranged() : nullptr;
  EXPECT_TRUE(parts == 0 || ranged) << "a scoreboard of all-port full-duplex routers checks in parts";
  const size_t ports = static_cast<size_t>(topo.num_ports());
  const size_t links = static_cast<size_t>(topo.num_nodes()) * ports;
  std::vector<Packet> packets(links);
  std::vector<uint8_t> used(links, 0);
  for (size_t first = 0; first < trace.size();) {
    size_t end = first;
    std::fill(used.begin(), used.end(), 0);
    for (; end < trace.size() && trace[end].step == trace[first].step; ++end) {
      const TraceEvent& e = trace[end];
      const int port = topo.port_towards(e.from, e.to);
      EXPECT_GE(port, 0) << "no link for a row";
      const size_t link = static_cast<size_t>(e.from) * ports + static_cast<size_t>(port);
      EXPECT_FALSE(used[link]) << "two rows on one link";
      used[link] = 1;
      packets[link] = Packet{e.origin, e.dest, e.seq, 1};
    }
    const LinkStep step{packets.data(), used.data(), links};
    if (ranged) {
      const int nodes = topo.num_nodes();
      auto node_at = [&](int part) { return part == parts ? nodes : nodes * part / parts / 64 * 64; };
      ranged->begin(trace[first].step, step, parts);
      for (int part = parts - 1; part >= 0; --part)  // in any order: the parts run at once
        ranged->senders(part, links * static_cast<size_t>(part) / static_cast<size_t>(parts),
                        links * static_cast<size_t>(part + 1) / static_cast<size_t>(parts), node_at(part),
                        node_at(part + 1));
      ranged->middle();
      for (int part = parts - 1; part >= 0; --part) ranged->receivers(part, node_at(part), node_at(part + 1));
      ranged->end();
    } else {
      board.links(trace[first].step, step);
    }
    first = end;
  }
  return board.finish();
}

class ScoreboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NetworkTables t = build_tables(find_algorithm("total-exchange", "", topo_), topo_, {});
    trace_ = run_ref_engine(topo_, t, {}).trace;
    demand_ = find_collective("total-exchange").packets(topo_, 1);
  }
  ScoreboardReport score(const std::vector<TraceEvent>& trace, PortModel m = {}) {
    return score_trace(topo_, m, demand_, trace);
  }
  Topology topo_ = Topology::parse("line:5");
  std::vector<TraceEvent> trace_;
  std::vector<DemandPacket> demand_;
};

}  // namespace

TEST_F(ScoreboardTest, CleanRunIsClean) {
  ScoreboardReport r = score(trace_);
  EXPECT_TRUE(r.clean()) << all_errors(r);
  EXPECT_EQ(r.needed, 20);
  EXPECT_EQ(r.deliveries, 20);
  EXPECT_EQ(r.steps, 6);
}

TEST_F(ScoreboardTest, LostPacketIsReported) {
  std::vector<TraceEvent> t = trace_;
  t.pop_back();  // the last crossing delivered something
  ScoreboardReport r = score(t);
  EXPECT_FALSE(r.clean());
  EXPECT_THAT(all_errors(r), HasSubstr("never happened"));
}

TEST_F(ScoreboardTest, ArcCarryingTwoPacketsIsReported) {
  std::vector<TraceEvent> t = trace_;
  TraceEvent extra = t[0];
  extra.origin = 9;  // any second packet on the same arc in the same step
  t.insert(t.begin() + 1, extra);
  EXPECT_THAT(all_errors(score(t)), HasSubstr("carries more than one packet"));
}

TEST_F(ScoreboardTest, MissingArcIsReported) {
  std::vector<TraceEvent> t = trace_;
  t[0].to = t[0].from + 2;
  EXPECT_THAT(all_errors(score(t)), HasSubstr("does not exist"));
}

TEST_F(ScoreboardTest, LeavingBeforeArrivingIsReported) {
  // Move the second hop of some packet into the step of its first hop.
  std::vector<TraceEvent> t = trace_;
  for (TraceEvent& e : t)
    if (e.step == 2 && e.from == 1 && e.to == 2) e.step = 1;
  sort_trace(t);
  EXPECT_THAT(all_errors(score(t)), HasSubstr("which does not hold it"));
}

TEST_F(ScoreboardTest, UnknownPacketIsReported) {
  std::vector<TraceEvent> t = trace_;
  t[0].seq = 77;
  EXPECT_THAT(all_errors(score(t)), HasSubstr("not a packet of this collective"));
}

TEST_F(ScoreboardTest, FullDuplexRunBreaksHalfDuplexAndOnePortRules) {
  EXPECT_THAT(all_errors(score(trace_, PortModel{false, true})), HasSubstr("used in both directions"));
  EXPECT_THAT(all_errors(score(trace_, PortModel{true, false})), HasSubstr("sends more than one packet"));
}

TEST_F(ScoreboardTest, UnsortedTraceIsReported) {
  std::vector<TraceEvent> t = trace_;
  std::swap(t.front(), t.back());
  EXPECT_THAT(all_errors(score(t)), HasSubstr("not sorted by step"));
}

TEST_F(ScoreboardTest, AUnicastPacketLeavingTwiceInOneStepIsReported) {
  // A packet node 1 sends towards node 2 in step 1 also leaves node 1 for node 0 in that
  // step: it cannot be in two places.
  std::vector<TraceEvent> t = trace_;
  const auto first = std::find_if(t.begin(), t.end(), [](const TraceEvent& e) { return e.step == 1 && e.from == 1 && e.to == 2; });
  ASSERT_NE(first, t.end());
  TraceEvent copy = *first;
  copy.to = 0;
  t.push_back(copy);
  sort_trace(t);
  EXPECT_THAT(all_errors(score(t)), HasSubstr("which does not hold it"));
}

TEST_F(ScoreboardTest, OnlineStepByStepEqualsTheWholeTrace) {
  PacketScoreboard online(topo_, {}, demand_);
  std::vector<TraceEvent> step;
  for (size_t i = 0; i < trace_.size(); ++i) {
    step.push_back(trace_[i]);
    if (i + 1 == trace_.size() || trace_[i + 1].step != trace_[i].step) {
      online.step(trace_[i].step, step);
      step.clear();
    }
  }
  const ScoreboardReport a = online.finish(), b = score(trace_);
  EXPECT_TRUE(a.clean());
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.deliveries, b.deliveries);
  EXPECT_EQ(a.crossings, b.crossings);
  EXPECT_EQ(a.needed, b.needed);
}

// Each demand is checked by its own instance of the rules (gossip: every packet a
// broadcast its event names outright; total exchange: unicast only; a demand listed out of
// order: looked up), each port model with or without the 1-port and half-duplex tests:
// every instance must still catch each kind of wrong crossing.
struct BrokenCase {
  const char* topology;
  const char* collective;
  const char* algorithm;  // "": the default
  PortModel model;
  bool demand_reversed;  // the packets listed out of order: found by lookup
};
class ScoreboardOfEachDemand : public ::testing::TestWithParam<BrokenCase> {
 protected:
  void SetUp() override {
    topo_ = Topology::parse(GetParam().topology);
    const Algorithm& algorithm = find_algorithm(GetParam().collective, GetParam().algorithm, topo_);
    NetworkTables t = build_tables(algorithm, topo_, GetParam().model);
    trace_ = run_ref_engine(topo_, t, {}).trace;
    demand_ = find_collective(GetParam().collective).packets(topo_, algorithm.packets_per_node);
    if (GetParam().demand_reversed) std::reverse(demand_.begin(), demand_.end());
    ASSERT_GT(trace_.size(), 20u);
  }
  ScoreboardReport score(const std::vector<TraceEvent>& trace) const {
    return score_trace(topo_, GetParam().model, demand_, trace);
  }
  // The links whole; on all-port full-duplex routers also in parts, which must give the
  // same report (the same errors in the same order).
  ScoreboardReport score_as_links(const std::vector<TraceEvent>& trace) const {
    const ScoreboardReport whole = score_links(topo_, GetParam().model, demand_, trace);
    if (GetParam().model.is_default())
      for (int parts : {2, 3}) {
        const ScoreboardReport in_parts = score_links(topo_, GetParam().model, demand_, trace, parts);
        EXPECT_EQ(all_errors(in_parts), all_errors(whole)) << parts << " parts";
        EXPECT_EQ(in_parts.error_count, whole.error_count);
        EXPECT_EQ(in_parts.crossings, whole.crossings);
        EXPECT_EQ(in_parts.deliveries, whole.deliveries);
        EXPECT_EQ(in_parts.steps, whole.steps);
      }
    return whole;
  }
  // The first crossing after step 1 whose packet its sender received in an earlier step.
  size_t a_forwarding_crossing() const {
    for (size_t k = 0; k < trace_.size(); ++k)
      if (trace_[k].step > 1 && trace_[k].from != trace_[k].origin) return k;
    ADD_FAILURE() << "no forwarding crossing";
    return 0;
  }
  Topology topo_ = Topology::parse("line:2");
  std::vector<TraceEvent> trace_;
  std::vector<DemandPacket> demand_;
};

TEST_P(ScoreboardOfEachDemand, CatchesEachKindOfWrongCrossing) {
  EXPECT_TRUE(score(trace_).clean()) << all_errors(score(trace_));
  {
    std::vector<TraceEvent> t = trace_;  // a packet the collective does not have
    t[0].seq = 99;
    EXPECT_THAT(all_errors(score(t)), HasSubstr("not a packet of this collective"));
    EXPECT_THAT(all_errors(score_as_links(t)), HasSubstr("not a packet of this collective"));
  }
  {
    std::vector<TraceEvent> t = trace_;  // the same crossing twice: one arc, two packets
    t.insert(t.begin(), t.front());
    EXPECT_THAT(all_errors(score(t)), HasSubstr("carries more than one packet"));
  }
  {
    std::vector<TraceEvent> t = trace_;  // a forwarded packet sent a step early
    const size_t k = a_forwarding_crossing();
    const TraceEvent moved = t[k];
    t.erase(t.begin() + static_cast<std::ptrdiff_t>(k));
    TraceEvent early = moved;
    early.step = 1;
    t.push_back(early);
    sort_trace(t);
    const std::string errors = all_errors(score(t));
    EXPECT_THAT(errors, HasSubstr("which does not hold it")) << errors;
  }
  {
    std::vector<TraceEvent> t = trace_;  // a step-1 link carrying another sender's packet
    const auto other = std::find_if(t.begin(), t.end(), [&](const TraceEvent& e) {
      return e.step == 1 && e.from != t[0].from && e.origin != t[0].from;
    });
    ASSERT_NE(other, t.end());
    t[0].origin = other->origin;
    t[0].dest = other->dest;
    t[0].seq = other->seq;
    const std::string errors = all_errors(score(t));
    EXPECT_THAT(errors, HasSubstr("which does not hold it")) << errors;
    EXPECT_EQ(all_errors(score_as_links(t)), errors);
  }
  {
    std::vector<TraceEvent> t = trace_;  // a reception lost
    t.erase(t.begin() + static_cast<std::ptrdiff_t>(t.size() / 2));
    EXPECT_FALSE(score(t).clean());
    EXPECT_EQ(all_errors(score_as_links(t)), all_errors(score(t)));
  }
}

// From the ref engine's links the same rules give the same report as from rows.
TEST_P(ScoreboardOfEachDemand, LinksAndRowsGiveTheSameReport) {
  const ScoreboardReport rows = score(trace_), links = score_as_links(trace_);
  EXPECT_TRUE(links.clean()) << all_errors(links);
  EXPECT_EQ(links.crossings, rows.crossings);
  EXPECT_EQ(links.deliveries, rows.deliveries);
  EXPECT_EQ(links.needed, rows.needed);
  EXPECT_EQ(links.steps, rows.steps);
}

TEST_P(ScoreboardOfEachDemand, CatchesAReceptionRepeated) {
  // a crossing repeated a step later on the same arc: its receiver gets the packet twice
  std::vector<TraceEvent> t = trace_;
  TraceEvent again = t[a_forwarding_crossing()];
  const int64_t last = t.back().step;
  again.step = last + 1;
  t.push_back(again);
  const std::string errors = all_errors(score(t));
  EXPECT_THAT(errors, ::testing::AnyOf(HasSubstr("a second time"), HasSubstr("which does not hold it"),
                                       HasSubstr("leaves its destination")))
      << errors;
  EXPECT_EQ(all_errors(score_as_links(t)), errors);
}

// Gossip's own instance with the 1-port and half-duplex tests: an all-port full-duplex
// gossip breaks both.
TEST(ScoreboardOfGossip, CatchesTheOnePortAndHalfDuplexRules) {
  const Topology topo = Topology::parse("torus:4x4");
  const Algorithm& algorithm = find_algorithm("gossip", "", topo);
  const std::vector<TraceEvent> trace = run_ref_engine(topo, build_tables(algorithm, topo, {}), {}).trace;
  const std::vector<DemandPacket> demand = find_collective("gossip").packets(topo, algorithm.packets_per_node);
  EXPECT_TRUE(score_trace(topo, PortModel{}, demand, trace).clean());
  EXPECT_THAT(all_errors(score_trace(topo, PortModel{true, false}, demand, trace)),
              HasSubstr("sends more than one packet"));
  EXPECT_THAT(all_errors(score_trace(topo, PortModel{false, true}, demand, trace)),
              HasSubstr("used in both directions"));
  EXPECT_TRUE(score_links(topo, PortModel{}, demand, trace).clean());
  EXPECT_THAT(all_errors(score_links(topo, PortModel{true, false}, demand, trace)),
              HasSubstr("sends more than one packet"));
  EXPECT_THAT(all_errors(score_links(topo, PortModel{false, true}, demand, trace)),
              HasSubstr("used in both directions"));
}

// The ref engine hands a scoreboard its steps as links: the same verdict as from its rows,
// on one thread and on two, and the kept trace the same rows in the same order.
TEST(ScoreboardFromTheRefEngine, LinksGiveTheRowsVerdictAndTrace) {
  struct Run { const char* topology; const char* collective; const char* algorithm; };
  for (const Run& c : {Run{"torus:6x6", "gossip", ""}, Run{"line:9", "total-exchange", ""},
                       Run{"torus:6x6", "gossip", "partial-cycles"}}) {
    SCOPED_TRACE(std::string(c.topology) + " " + c.algorithm);
    const Topology topo = Topology::parse(c.topology);
    const Algorithm& algorithm = find_algorithm(c.collective, c.algorithm, topo);
    const NetworkTables tables = build_tables(algorithm, topo, {});
    const std::vector<DemandPacket> demand = find_collective(c.collective).packets(topo, algorithm.packets_per_node);
    const EngineResult alone = run_ref_engine(topo, tables, {});
    const ScoreboardReport from_rows = score_trace(topo, PortModel{}, demand, alone.trace);
    for (int threads : {1, 2})
      for (bool pipelined : {false, true}) {  // the scoreboard on the engine's thread, or on its own
        SCOPED_TRACE(fmt::format("threads {}, pipelined {}", threads, pipelined));
        PacketScoreboard board(topo, PortModel{}, demand);
        std::optional<PipelinedPacketSink> pipeline;
        if (pipelined) pipeline.emplace(board);
        EXPECT_TRUE(!pipeline || pipeline->takes_links());
        EngineOptions options;
        options.sink = pipeline ? static_cast<PacketSink*>(&*pipeline) : &board;
        options.keep_trace = true;
        options.threads = threads;
        const EngineResult streamed = run_ref_engine(topo, tables, options);
        if (pipeline) pipeline->drain();
        EXPECT_TRUE(streamed.streamed);
        EXPECT_EQ(streamed.trace, alone.trace);
        const ScoreboardReport from_links = board.finish();
        EXPECT_TRUE(from_links.clean()) << all_errors(from_links);
        EXPECT_EQ(from_links.crossings, from_rows.crossings);
        EXPECT_EQ(from_links.deliveries, from_rows.deliveries);
        EXPECT_EQ(from_links.steps, from_rows.steps);
      }
  }
}

// Checked in parts on the engine's threads (`checking_threads`, no pipeline): the same
// verdict as whole, and on tables that deliver packets twice on both sides of the node
// split (nodes 0-63, 64-143), the same errors in the same order.
TEST(ScoreboardFromTheRefEngine, CheckedInPartsOnTheStepsThreadsGivesTheWholeVerdict) {
  struct Run { const char* topology; const char* collective; };
  // (a ring's parts also take packets from the part at its other end)
  for (const Run& c : {Run{"torus:12x12", "gossip"}, Run{"line:150", "total-exchange"}, Run{"ring:140", "total-exchange"}}) {
    SCOPED_TRACE(c.topology);
    const Topology topo = Topology::parse(c.topology);
    const Algorithm& algorithm = find_algorithm(c.collective, "", topo);
    NetworkTables tables = build_tables(algorithm, topo, {});
    const std::vector<DemandPacket> demand = find_collective(c.collective).packets(topo, algorithm.packets_per_node);
    for (bool broken : {false, true}) {
      if (broken)  // two routers pass on what reaches them on every port
        for (int node : {10, 100})
          for (PortRule& rule : tables.routers[static_cast<size_t>(node)].ports)
            rule.forward_mask = (uint32_t{1} << topo.num_ports()) - 1;
      auto run = [&](int checking_threads) {
        PacketScoreboard board(topo, PortModel{}, demand);
        EngineOptions options;
        options.sink = &board;
        options.keep_trace = false;
        options.checking_threads = checking_threads;
        const EngineResult result = run_ref_engine(topo, tables, options);
        EXPECT_TRUE(result.streamed);
        return std::make_pair(result.steps_simulated, board.finish());
      };
      const auto [whole_steps, whole] = run(1);
      EXPECT_EQ(whole.clean(), !broken) << all_errors(whole);
      for (int threads : {2, 3}) {
        SCOPED_TRACE(fmt::format("broken {}, {} threads", broken, threads));
        const auto [steps, in_parts] = run(threads);
        EXPECT_EQ(steps, whole_steps);
        EXPECT_EQ(all_errors(in_parts), all_errors(whole));
        EXPECT_EQ(in_parts.error_count, whole.error_count);
        EXPECT_EQ(in_parts.crossings, whole.crossings);
        EXPECT_EQ(in_parts.deliveries, whole.deliveries);
        EXPECT_EQ(in_parts.steps, whole.steps);
      }
    }
  }
}

// A unicast step checked whole takes each reception as soon as its crossing passes; checked
// in parts, only those into the part's own nodes, the others after every part's crossings
// (here parts of links and of nodes that do not match, as a caller may hand them). Runs
// broken in many ways at once -- packets that are none, packets on links that do not hold
// them, packets sent on from where they just arrived, a delivered packet leaving and
// coming back -- give the same errors in the same order, from rows, from links and from
// links in parts.
TEST(ScoreboardOfUnicast, TheOnePassGivesTheThreePassesErrors) {
  const Topology topo = Topology::parse("line:130");  // parts from node 64
  const Algorithm& algorithm = find_algorithm("total-exchange", "", topo);
  const std::vector<TraceEvent> clean = run_ref_engine(topo, build_tables(algorithm, topo, {}), {}).trace;
  const std::vector<DemandPacket> demand = find_collective("total-exchange").packets(topo, algorithm.packets_per_node);
  std::mt19937 rng(11);
  auto any_row = [&](const std::vector<TraceEvent>& t) { return std::uniform_int_distribution<size_t>(0, t.size() - 1)(rng); };
  auto carry = [](TraceEvent& row, const TraceEvent& packet) {
    row.origin = packet.origin;
    row.dest = packet.dest;
    row.seq = packet.seq;
  };
  // the first row from `node` after step `after` (to `to`, where given), or t.size()
  auto next_from = [](const std::vector<TraceEvent>& t, int node, int64_t after, int to = -1) {
    size_t k = 0;
    while (k < t.size() && (t[k].step <= after || t[k].from != node || (to >= 0 && t[k].to != to))) ++k;
    return k;
  };
  std::vector<size_t> deliveries;
  for (size_t k = 0; k < clean.size(); ++k)
    if (clean[k].to == clean[k].dest && clean[k].dest > 0 && clean[k].dest + 1 < topo.num_nodes()) deliveries.push_back(k);
  int broken_rounds = 0, received_again = 0;
  for (int round = 0; round < 24; ++round) {
    SCOPED_TRACE(round);
    std::vector<TraceEvent> t = clean;
    if (round % 2 == 0) {
      // a delivered packet leaves its destination and comes back; in the step it comes back
      // a crossing further on carries no packet of the collective (its error, found by the
      // first pass, comes before the second reception's)
      const TraceEvent delivered = clean[deliveries[std::uniform_int_distribution<size_t>(0, deliveries.size() - 1)(rng)]];
      const size_t out = next_from(t, delivered.to, delivered.step);
      ASSERT_LT(out, t.size());
      carry(t[out], delivered);
      const size_t back = next_from(t, t[out].to, t[out].step, delivered.dest);
      ASSERT_LT(back, t.size());
      carry(t[back], delivered);
      const size_t further = next_from(t, t[back].from + 1, t[back].step - 1);
      if (further < t.size() && t[further].step == t[back].step) t[further].seq = 1000;
    } else {
      for (int fault = 0; fault < 3; ++fault) {
        TraceEvent& row = t[any_row(t)];
        switch (rng() % 4) {
          case 0:  // a packet the collective does not have
            row.seq = 1000;
            break;
          case 1:  // another packet's fields: not held there (and that packet's own crossing may then be refused)
            carry(row, t[any_row(t)]);
            break;
          case 2: {  // sent on from where it arrives, in the same step
            const size_t next = next_from(t, row.to, row.step - 1);
            if (next < t.size() && t[next].step == row.step) carry(t[next], row);
            break;
          }
          default:  // a packet's dest changed
            row.dest = (row.dest + 1) % topo.num_nodes();
            break;
        }
      }
    }
    const ScoreboardReport rows = score_trace(topo, PortModel{}, demand, t);
    const ScoreboardReport whole = score_links(topo, PortModel{}, demand, t);
    broken_rounds += rows.clean() ? 0 : 1;
    received_again += all_errors(rows).find("a second time") != std::string::npos ? 1 : 0;
    EXPECT_EQ(all_errors(whole), all_errors(rows));
    EXPECT_EQ(whole.error_count, rows.error_count);
    for (int parts : {2, 3}) {
      const ScoreboardReport in_parts = score_links(topo, PortModel{}, demand, t, parts);
      EXPECT_EQ(all_errors(in_parts), all_errors(rows)) << parts << " parts";
      EXPECT_EQ(in_parts.error_count, rows.error_count);
      EXPECT_EQ(in_parts.crossings, rows.crossings);
      EXPECT_EQ(in_parts.deliveries, rows.deliveries);
      EXPECT_EQ(in_parts.steps, rows.steps);
    }
  }
  EXPECT_EQ(broken_rounds, 24);
  EXPECT_GE(received_again, 6);
}

INSTANTIATE_TEST_SUITE_P(
    Demands, ScoreboardOfEachDemand,
    ::testing::Values(BrokenCase{"torus:4x4", "gossip", "", PortModel{}, false},
                      BrokenCase{"torus:4x4", "gossip", "", PortModel{}, true},
                      BrokenCase{"line:5", "total-exchange", "", PortModel{}, false},
                      BrokenCase{"line:5", "total-exchange", "", PortModel{true, false}, true},
                      BrokenCase{"ring:6", "total-exchange", "", PortModel{false, true}, false}),
    [](const ::testing::TestParamInfo<BrokenCase>& param_info) {
      const BrokenCase& c = param_info.param;
      std::string name = std::string(c.topology) + c.collective;
      name.erase(std::remove_if(name.begin(), name.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }),
                 name.end());
      return name + (c.model.one_port ? "OnePort" : "") + (c.model.half_duplex ? "HalfDuplex" : "") +
             (c.demand_reversed ? "LookedUp" : "");
    });

// The ref engine's queues pop what router_rules::pick_next picks, in every kind, with
// several queues sharing (and outgrowing) one pool and furthest-first packets joining
// anywhere in their run (both sides of it move).
TEST(PortQueues, EveryKindPopsWhatPickNextPicks) {
  using Kind = PortQueues::Kind;
  const std::vector<Kind> kinds{Kind::Fifo, Kind::FurthestFirst, Kind::Fifo, Kind::FurthestFirst, Kind::Fifo};
  PortQueues queues(kinds);
  std::vector<std::vector<Packet>> model(kinds.size());  // in arrival order, as pick_next takes it
  uint32_t random = 12345;
  int id = 0;
  for (int round = 0; round < 20000; ++round) {
    random = random * 1103515245u + 12345u;
    const size_t q = (random >> 4) % kinds.size();
    const Discipline discipline = kinds[q] == Kind::Fifo ? Discipline::Fifo : Discipline::FurthestFirst;
    if ((random >> 16) % 3 != 0 || model[q].empty()) {  // push twice as often as pop
      const Packet p{id++, -1, 0, static_cast<int>((random >> 8) % 71)};
      ASSERT_EQ(queues.push(q, p), model[q].size() + 1) << "a push returns the queue's new size";
      model[q].push_back(p);
    } else {
      const size_t pick = router_rules::pick_next(model[q], discipline);
      ASSERT_EQ(queues.pop(q), model[q][pick]) << "round " << round << " queue " << q;
      model[q].erase(model[q].begin() + static_cast<std::ptrdiff_t>(pick));
    }
    ASSERT_EQ(queues.size(q), model[q].size());
  }
}

// Queues all of one kind say so (all()), and the step compiled for that kind (push and
// pop told it) pops what pick_next picks, as the step for any kinds does.
template <PortQueues::All kAll>
void pops_what_pick_next_picks(PortQueues::Kind kind, Discipline discipline) {
  const std::vector<PortQueues::Kind> kinds(4, kind);
  PortQueues queues(kinds);
  ASSERT_EQ(queues.all(), kAll);
  std::vector<std::vector<Packet>> model(kinds.size());
  uint32_t random = 4321;
  int id = 0;
  for (int round = 0; round < 20000; ++round) {
    random = random * 1103515245u + 12345u;
    const size_t q = (random >> 4) % kinds.size();
    if ((random >> 16) % 3 != 0 || model[q].empty()) {
      const Packet p{id++, -1, 0, static_cast<int>((random >> 8) % 71)};
      ASSERT_EQ(queues.push<kAll>(q, p), model[q].size() + 1);
      model[q].push_back(p);
    } else {
      const size_t pick = router_rules::pick_next(model[q], discipline);
      ASSERT_EQ(queues.pop<kAll>(q), model[q][pick]) << "round " << round << " queue " << q;
      model[q].erase(model[q].begin() + static_cast<std::ptrdiff_t>(pick));
    }
    ASSERT_EQ(queues.size<kAll>(q), model[q].size());
    ASSERT_EQ(queues.size(q), model[q].size());
  }
}
TEST(PortQueues, QueuesAllOfOneKindPopWhatPickNextPicks) {
  pops_what_pick_next_picks<PortQueues::All::Fifo>(PortQueues::Kind::Fifo, Discipline::Fifo);
  pops_what_pick_next_picks<PortQueues::All::FurthestFirst>(PortQueues::Kind::FurthestFirst, Discipline::FurthestFirst);
  EXPECT_EQ(PortQueues({PortQueues::Kind::Fifo, PortQueues::Kind::FurthestFirst}).all(), PortQueues::All::Mixed);
}

// A furthest-first queue filled and drained in phases, its packets' hops rising, falling,
// equal or random: new packets join at the run's end, its start or anywhere, the run
// empties and refills, and every pop is pick_next's choice.
TEST(PortQueues, FurthestFirstRunsFillAndDrainFromEitherSide) {
  PortQueues queues({PortQueues::Kind::FurthestFirst, PortQueues::Kind::FurthestFirst});
  std::vector<std::vector<Packet>> model(2);
  uint32_t random = 777;
  int id = 0, pops = 0;
  for (int phase = 0; phase < 40; ++phase) {
    const int pattern = phase % 4;  // 0 rising hops, 1 falling, 2 all equal, 3 random
    const bool filling = phase % 8 < 4;
    for (int k = 0; k < 300; ++k) {
      random = random * 1103515245u + 12345u;
      const size_t q = (random >> 20) % 2;
      const bool push = model[q].empty() || (filling ? (random >> 8) % 4 != 0 : (random >> 8) % 4 == 0);
      if (push) {
        const int hops = pattern == 0 ? k : pattern == 1 ? 300 - k : pattern == 2 ? 5 : static_cast<int>((random >> 12) % 40);
        const Packet p{id++, -1, 0, hops};
        ASSERT_EQ(queues.push(q, p), model[q].size() + 1);
        model[q].push_back(p);
      } else {
        const size_t pick = router_rules::pick_next(model[q], Discipline::FurthestFirst);
        ASSERT_EQ(queues.pop(q), model[q][pick]) << "phase " << phase << " step " << k;
        model[q].erase(model[q].begin() + static_cast<std::ptrdiff_t>(pick));
        ++pops;
      }
      ASSERT_EQ(queues.size(q), model[q].size());
    }
    if (phase % 8 == 7)  // drained to empty before the next filling phase
      for (size_t q = 0; q < 2; ++q)
        while (!model[q].empty()) {
          const size_t pick = router_rules::pick_next(model[q], Discipline::FurthestFirst);
          ASSERT_EQ(queues.pop(q), model[q][pick]);
          model[q].erase(model[q].begin() + static_cast<std::ptrdiff_t>(pick));
          ++pops;
        }
  }
  EXPECT_GT(pops, 4000);
}

// A sink that records what it is handed, and throws at one step.
struct RecordingSink : PacketSink {
  std::vector<std::pair<int64_t, std::vector<TraceEvent>>> steps;
  int64_t throw_at = -1;
  void step(int64_t step, const std::vector<TraceEvent>& events) override {
    if (step == throw_at) throw InputError("disk full at step " + std::to_string(step));
    steps.emplace_back(step, events);
  }
};

TEST(PipelinedPacketSink, HandsOnEveryStepInOrder) {
  RecordingSink target;
  std::vector<std::pair<int64_t, std::vector<TraceEvent>>> sent;
  {
    PipelinedPacketSink pipe(target);
    std::vector<TraceEvent> events;
    for (int64_t s = 1; s <= 500; ++s) {
      events.assign(static_cast<size_t>(s % 7), TraceEvent{s, 1, 2, static_cast<int>(s), -1, 0});
      pipe.step(s, events);  // the caller's buffer is reused at once: the pipeline keeps its own copy
      sent.emplace_back(s, events);
    }
    pipe.drain();
    EXPECT_EQ(target.steps, sent);
  }
}

TEST(PipelinedPacketSink, AFailingStepIsRethrownToTheEngine) {
  RecordingSink target;
  target.throw_at = 3;
  PipelinedPacketSink pipe(target);
  const std::vector<TraceEvent> none;
  bool thrown = false;
  try {
    for (int64_t s = 1; s <= 100; ++s) pipe.step(s, none);
    pipe.drain();
  } catch (const InputError& e) {
    thrown = true;
    EXPECT_THAT(e.what(), HasSubstr("disk full at step 3"));
  }
  EXPECT_TRUE(thrown);
  ASSERT_EQ(target.steps.size(), 2u);  // steps 1 and 2; nothing after the failed one
}

TEST(Scoreboard, RefusesARunWhoseBitSetsWouldNotFit) {
  const Topology torus = Topology::parse("torus:1024x1024");
  std::vector<DemandPacket> demand;
  for (int node = 0; node < torus.num_nodes(); ++node) demand.push_back({node, kBroadcastDest, 0});
  try {
    PacketScoreboard board(torus, PortModel{}, std::move(demand));
    FAIL() << "a 128 GiB scoreboard was started";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("needs 131072 MiB"));
  }
}

// sort_trace's order is one whatever order the rows come in: a whole shuffle, or rows
// grouped by step and sender with each sender's rows out of order (how the hardware
// engines read their links). A sort that skipped or misgrouped runs fails it.
TEST(SortTrace, EqualsAWholeSortWhetherRowsComeGroupedBySenderOrShuffled) {
  const Topology topo = Topology::parse("torus:4x4");
  NetworkTables t = build_tables(find_algorithm("gossip", "", topo), topo, {});
  const std::vector<TraceEvent> sorted = run_ref_engine(topo, t, {}).trace;
  ASSERT_GT(sorted.size(), 100u);
  std::mt19937 rng(7);
  std::vector<TraceEvent> grouped = sorted;  // each (step, from) run shuffled in place
  for (auto first = grouped.begin(); first != grouped.end();) {
    auto end = std::find_if(first, grouped.end(), [&](const TraceEvent& e) { return e.step != first->step || e.from != first->from; });
    std::shuffle(first, end, rng);
    first = end;
  }
  ASSERT_NE(grouped, sorted);
  sort_trace(grouped);
  EXPECT_EQ(grouped, sorted);
  std::vector<TraceEvent> shuffled = sorted;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  sort_trace(shuffled);
  EXPECT_EQ(shuffled, sorted);
}

// A pipeline in front of a sink that takes rows only takes rows: the engine hands it rows.
TEST(PipelinedPacketSink, InFrontOfARowsOnlySinkTakesRows) {
  const Topology topo = Topology::parse("line:5");
  const NetworkTables tables = build_tables(find_algorithm("total-exchange", "", topo), topo, {});
  RecordingSink target;
  PipelinedPacketSink pipe(target);
  EXPECT_FALSE(pipe.takes_links());
  EngineOptions options;
  options.sink = &pipe;
  options.keep_trace = true;
  const EngineResult r = run_ref_engine(topo, tables, options);
  pipe.drain();
  size_t rows = 0;
  for (const auto& step : target.steps) rows += step.second.size();
  EXPECT_EQ(rows, r.trace.size());
  EXPECT_GT(rows, 0u);
}
