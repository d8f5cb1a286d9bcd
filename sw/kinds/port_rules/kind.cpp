// The `port-rules` router kind: store-and-forward routers that forward by port rules
// (sw/kinds/port_rules/tables.h; the total-exchange and gossip papers). Its file form, table sizes, lower
// bounds and scoreboard, and its routers on the ref engine; the SystemC and RTL routers
// register from systemc/ and tb/.
#include <optional>

#include <fmt/format.h>

#include "sw/report/draw.h"
#include "sw/core/algorithm.h"
#include "sw/kinds/port_rules/draw.h"
#include "sw/core/collectives.h"
#include "sw/kinds/port_rules/ref_routers.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/topology/topology.h"
#include "sw/kinds/port_rules/pipelined_sink.h"
#include "sw/kinds/port_rules/scoreboard.h"

namespace fixroute {

EngineOutput port_rules_output(EngineResult result) {
  const bool streamed = result.streamed;
  EngineOutput out = engine_output<PacketTrace>(std::move(result));
  out.streamed = streamed;
  return out;
}

namespace {

// The scoreboard online, and the trace CSV written as the steps come where asked, on the
// engine's thread or (`threads` 2 and up) a second one -- or, where no CSV is written and
// the scoreboard can (ranged()), in parts on the ref engine's threads. It takes the ref
// engine's steps as links (rows made from them only for the CSV), any other engine's as
// rows.
class PacketOnlineScore final : public OnlineScore {
 public:
  PacketOnlineScore(const Topology& topology, const PortModel& model, std::vector<DemandPacket> demand,
                    const std::string& trace_path, int threads)
      : topology_(topology), board_(topology, model, std::move(demand)), relay_(*this) {
    if (!trace_path.empty()) {
      csv_.emplace(trace_path);
      send_order_ = topology.ports_by_neighbour();
    }
    if (threads >= 2) pipeline_.emplace(relay_);
  }
  TraceSink& sink() override {
    if (pipeline_) return *pipeline_;
    return relay_;
  }
  void replay(const Trace& trace) override { replay_steps(as_kind<PacketTrace>(trace).events, relay_); }
  ScoreboardReport finish() override {
    if (pipeline_) pipeline_->drain();
    if (csv_) csv_->finish();
    return board_.finish();
  }

 private:
  struct Relay : PacketSink, LinkStepSink, RangedLinkCheck {
    explicit Relay(PacketOnlineScore& owner) : owner_(owner) {}
    // in parts on the engine's threads where the scoreboard can and no CSV is written
    RangedLinkCheck* ranged() override { return !owner_.csv_ && owner_.board_.ranged() ? this : nullptr; }
    void begin(int64_t step, const LinkStep& crossings, int parts) override {
      step_ = step;
      owner_.board_.begin(step, crossings, parts);
    }
    void senders(int part, size_t first_link, size_t last_link, int first_node, int last_node) override {
      owner_.board_.senders(part, first_link, last_link, first_node, last_node);
    }
    void middle() override { owner_.board_.middle(); }
    void receivers(int part, int first_node, int last_node) override {
      owner_.board_.receivers(part, first_node, last_node);
    }
    void end() override {
      owner_.board_.end();
      if (owner_.on_step) owner_.on_step(step_);
    }
    void step(int64_t step, const std::vector<TraceEvent>& events) override {
      owner_.board_.step(step, events);
      if (owner_.csv_) owner_.csv_->rows(events);
      if (owner_.on_step) owner_.on_step(step);
    }
    void links(int64_t step, const LinkStep& crossings) override {
      owner_.board_.links(step, crossings);
      if (owner_.csv_) {
        rows_.clear();
        append_link_rows(owner_.topology_, owner_.send_order_, step, crossings, rows_);
        owner_.csv_->rows(rows_);
      }
      if (owner_.on_step) owner_.on_step(step);
    }
    PacketOnlineScore& owner_;
    std::vector<TraceEvent> rows_;  // a step's, for the CSV
    int64_t step_ = 0;              // the step checked in parts
  };
  const Topology& topology_;
  std::vector<uint32_t> send_order_;  // where a CSV is written: each node's ports by neighbour
  PacketScoreboard board_;
  std::optional<TraceCsvWriter> csv_;
  Relay relay_;
  std::optional<PipelinedPacketSink> pipeline_;  // declared last: gone (its thread joined) before what it feeds
};

const RouterKindRegistrar port_rules_kind([] {
  RouterKind k;
  k.name = kPortRulesKind;
  k.summary = "store-and-forward routers: per-port forwarding rules, output queues, taps (time-independent)";
  k.switching = "packet";
  k.write = [](const Tables& t, const Topology& topology, const std::string& dir, TableForm form) {
    write_tables(as_kind<NetworkTables>(t), topology, dir, form);
  };
  k.load = [](const std::string& dir) -> std::shared_ptr<const Tables> {
    return std::make_shared<NetworkTables>(load_tables(dir));
  };
  k.table_bits = [](const Tables& t, const Topology& topology) {
    std::vector<int64_t> bits;
    for (const RouterTable& r : as_kind<NetworkTables>(t).routers) bits.push_back(table_bits(r, topology.num_ports()));
    return bits;
  };
  k.bounds = [](const Tables& t, const Topology& topology, int packets_per_node) {
    const Collective& c = find_collective(t.collective);
    return c.lower_bounds(topology, as_kind<NetworkTables>(t).port_model, packets_per_node);
  };
  k.score = [](const Tables& t, const Topology& topology, int packets_per_node, const Trace& trace) {
    const Collective& c = find_collective(t.collective);
    return score_trace(topology, as_kind<NetworkTables>(t).port_model, c.packets(topology, packets_per_node),
                       as_kind<PacketTrace>(trace).events);
  };
  k.least_trace_rows = [](const Topology& topology, const DemandSize& demand) {
    return demand.receptions(topology.num_nodes());  // a crossing per reception at the least
  };
  // A rule per port of every router, every packet in its origin's table.
  k.table_bytes = [](const Topology& topology, const DemandSize& demand) {
    return int64_t{topology.num_nodes()} * topology.num_ports() * static_cast<int64_t>(sizeof(PortRule)) +
           demand.packets() * static_cast<int64_t>(sizeof(InitialPacket));
  };
  // The scoreboard, every packet waiting in its origin's table, a trace row per reception
  // where the engine keeps its trace.
  k.run_bytes = [](const Topology& topology, const DemandSize& demand, bool trace_kept) {
    const int64_t nodes = topology.num_nodes();
    return packet_scoreboard_bytes(nodes, topology.num_ports(), demand) +
           demand.packets() * static_cast<int64_t>(sizeof(InitialPacket)) +
           (trace_kept ? demand.receptions(nodes) * static_cast<int64_t>(sizeof(TraceEvent)) : 0);
  };
  k.online_score = [](const Tables& t, const Topology& topology, int packets_per_node, const std::string& trace_path,
                      int threads) {
    const Collective& c = find_collective(t.collective);
    return std::unique_ptr<OnlineScore>(std::make_unique<PacketOnlineScore>(
        topology, as_kind<NetworkTables>(t).port_model, c.packets(topology, packets_per_node), trace_path, threads));
  };
  k.draw = [](const Problem& problem, const Tables& t, const std::string& title) {
    return draw_port_rules(problem.topology, as_kind<NetworkTables>(t), with_construction(title, t));
  };
  return k;
}());

const KindRoutersRegistrar port_rules_ref_routers(
    KindRouters::of(kPortRulesKind, "ref").taking_faults().streaming().at_most(6e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& options) {
          return port_rules_output(
              run_ref_engine(topology, as_kind<NetworkTables>(t), options));
        }));

}  // namespace
}  // namespace fixroute
