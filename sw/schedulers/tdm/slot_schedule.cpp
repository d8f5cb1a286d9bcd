#include "sw/schedulers/tdm/slot_schedule.h"

#include <fmt/format.h>

#include <stdexcept>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/engine.h"
#include "sw/schedulers/search_deadline.h"
#include "sw/topology/topology.h"

namespace fixroute {

SlotSchedule::SlotSchedule(const Topology& topology, int period)
    : topology_(topology), period_(period), ports_(topology.num_ports()) {
  taken_.assign(static_cast<size_t>(topology.num_nodes()) * static_cast<size_t>(period) * static_cast<size_t>(ports_ + 2), 0);
}

bool SlotSchedule::fits(int src, const std::vector<int>& ports, int slot) const {
  if (!injection_free(src, slot)) return false;
  int node = src;
  int64_t s = slot;
  for (int p : ports) {
    if (!output_free(node, p, s)) return false;
    node = topology_.neighbour(node, p);
    ++s;
  }
  return output_free(node, ports_, s);
}

void SlotSchedule::place(int flow, int src, const std::vector<int>& ports, int slot) {
  if (!fits(src, ports, slot)) throw std::logic_error("a TDM chain placed where it does not fit");
  taken_[at(src, wrap(slot), ports_ + 1)] = 1;
  int node = src;
  int64_t s = slot;
  for (int p : ports) {
    taken_[at(node, wrap(s), p)] = 1;
    node = topology_.neighbour(node, p);
    ++s;
  }
  taken_[at(node, wrap(s), ports_)] = 1;
  placed_.push_back({flow, src, slot, ports});
}

TdmTables SlotSchedule::tables(const Problem& problem, std::vector<TdmFlow> flows, const char* algorithm,
                               std::string construction) const {
  TdmTables t = empty_tdm_tables(topology_, period_);
  t.collective = problem.collective;
  t.algorithm = algorithm;
  t.construction = std::move(construction);
  t.flows = std::move(flows);
  for (const Placed& c : placed_) {
    const int32_t chain = static_cast<int32_t>(t.chains.size());
    t.chains.push_back({c.flow, c.slot, static_cast<int>(c.ports.size())});
    t.inject[t.inject_at(c.src, c.slot)] = chain;
    int node = c.src;
    uint8_t input = t.local_code();
    int64_t s = c.slot;
    for (int p : c.ports) {
      t.select[t.at(node, wrap(s), p)] = input;
      input = static_cast<uint8_t>(topology_.reverse_port(node, p) + 1);
      node = topology_.neighbour(node, p);
      ++s;
    }
    t.select[t.at(node, wrap(s), t.eject_output())] = input;
  }
  t.rounds = static_cast<int>(tdm_run_slots(t));
  return t;
}

std::string tdm_unsupported(const Problem& p, int max_nodes) {
  if (!p.port_model.is_default()) return "TDM routers use every port both ways (all-port, full-duplex)";
  if (p.topology.num_nodes() > max_nodes) return fmt::format("it takes at most {} nodes", max_nodes);
  if (p.topology.num_ports() > kMaxTdmPorts) return fmt::format("the TDM routers take at most {} ports", kMaxTdmPorts);
  return "";
}

const char* tdm_default_heuristic(const Problem& problem) {
  // Each special heuristic decides where it is the default; tdm-paths takes the rest.
  for (const char* special : {"tdm-classes", "tdm-dimension-order"})
    if (const Algorithm* a = registered_algorithm(special, problem.collective);
        a && a->unsupported(problem).empty() && a->is_default(problem))
      return special;
  return "tdm-paths";
}

std::string search_note(const Problem& problem, int attempts_in_budget) {
  std::string note;
  if (problem.seed != 0) note += fmt::format("; seed {}", problem.seed);
  if (problem.budget_seconds > 0)
    note += fmt::format("; {} more attempt{} in the {} s budget", attempts_in_budget, attempts_in_budget == 1 ? "" : "s",
                        problem.budget_seconds);
  return note;
}

int attempts_within_budget(double budget_seconds, int64_t bound, int64_t& period,
                           const std::function<bool(int64_t, uint64_t)>& attempt) {
  if (budget_seconds <= 0) return 0;
  const SearchDeadline deadline(budget_seconds);
  int attempts = 0;
  for (uint64_t round = 1; period > bound && !deadline.passed(); ++round) {
    ++attempts;
    if (attempt(period - 1, round)) --period;
  }
  return attempts;
}

void check_tdm_size(const Topology& topology, int64_t period) {
  if (topology.num_ports() > kMaxTdmPorts)
    throw InputError(fmt::format("{} has {} ports a router; the TDM routers take at most {}", topology.spec(),
                                 topology.num_ports(), kMaxTdmPorts));
  if (period > kMaxTdmPeriod)
    throw InputError(fmt::format("the TDM period would be {} slots or more; the routers take at most {}", period,
                                 kMaxTdmPeriod));
  if (int64_t{topology.num_nodes()} * period * (topology.num_ports() + 2) > kMaxTdmTableEntries)
    throw InputError(fmt::format("{} with a period of {} slots: {} table entries, more than {}", topology.spec(), period,
                                 int64_t{topology.num_nodes()} * period * (topology.num_ports() + 2), kMaxTdmTableEntries));
}

}  // namespace fixroute
