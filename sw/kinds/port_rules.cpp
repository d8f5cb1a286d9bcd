// The `port-rules` router kind: store-and-forward routers that forward by port rules
// (sw/tables.h; the total-exchange and gossip papers). Its file form, table sizes, lower
// bounds and scoreboard, and its routers on the ref engine; the SystemC and RTL routers
// register from systemc/ and tb/.
#include "../collectives.h"
#include "../ref_engine.h"
#include "../tables.h"
#include "../topology.h"
#include "../verify/scoreboard.h"

namespace fixroute {

EngineOutput port_rules_output(EngineResult result) { return engine_output<PacketTrace>(std::move(result)); }

namespace {

const RouterKindRegistrar port_rules_kind([] {
  RouterKind k;
  k.name = kPortRulesKind;
  k.summary = "store-and-forward routers: per-port forwarding rules, output queues, taps (time-independent)";
  k.switching = "packet";
  k.write = [](const Tables& t, const Topology& topology, const std::string& dir) {
    write_tables(as_kind<NetworkTables>(t), topology, dir);
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
  return k;
}());

const KindRoutersRegistrar ref_routers({kPortRulesKind, "ref", [](const Topology&) { return true; },
                                        [](const Topology& topology, const Tables& t, const EngineOptions& options) {
                                          return port_rules_output(
                                              run_ref_engine(topology, as_kind<NetworkTables>(t), options));
                                        }});

}  // namespace
}  // namespace fixroute
