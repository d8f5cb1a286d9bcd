#include "draw.h"

#include <fmt/format.h>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

std::string draw_tables(const Problem& problem, const std::string& algorithm, const Tables& tables) {
  const RouterKind& kind = find_router_kind(tables.kind());
  if (!kind.draw) throw InputError(fmt::format("draw has no drawing for {} tables", tables.kind()));
  return kind.draw(problem, tables, fmt::format("{} {} [{}]", problem.topology.spec(), problem.collective, algorithm));
}

std::string with_construction(const std::string& title, const Tables& tables) {
  return tables.construction.empty() ? title : title + " (" + tables.construction + ")";
}

}  // namespace fixroute
