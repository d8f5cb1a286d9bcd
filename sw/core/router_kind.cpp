#include "router_kind.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <tuple>
#include <nlohmann/json.hpp>

#include "errors.h"
#include "find_named.h"
#include "sw/tables/table_files.h"
#include "sw/topology/topology.h"

namespace fixroute {

int64_t default_table_bytes(const Topology& topology, const DemandSize&) {
  return int64_t{topology.num_nodes()} * topology.num_ports() * 4;
}

std::vector<RouterKind>& router_kind_registry() {
  static std::vector<RouterKind> registry;
  return registry;
}

const RouterKind& find_router_kind(const std::string& name) {
  for (const RouterKind& k : router_kind_registry())
    if (k.name == name) return k;
  throw std::logic_error(fmt::format("no router kind '{}' is registered", name));
}

std::vector<KindRouters>& kind_routers_registry() {
  static std::vector<KindRouters> registry;
  return registry;
}

const KindRouters* find_kind_routers(const std::string& kind, const std::string& engine) {
  for (const KindRouters& r : kind_routers_registry())
    if (r.kind == kind && r.engine == engine) return &r;
  return nullptr;
}

std::vector<Engine>& engine_registry() {
  // The ref engine registers from sw/engines/ref.cpp, the hardware engines from tb/engines.cpp;
  // kept in name order (find_named.h).
  static std::vector<Engine> registry;
  return registry;
}

EngineRegistrar::EngineRegistrar(Engine e) {
  register_in_order(engine_registry(), std::move(e), [](const Engine& x) { return x.name; });
}

RouterKindRegistrar::RouterKindRegistrar(RouterKind k) {
  register_in_order(router_kind_registry(), std::move(k), [](const RouterKind& x) { return x.name; });
}

KindRoutersRegistrar::KindRoutersRegistrar(KindRouters r) {
  register_in_order(kind_routers_registry(), std::move(r), [](const KindRouters& x) { return std::tie(x.kind, x.engine); });
}

const Engine& find_engine(const std::string& name) { return find_named(engine_registry(), name, "engine"); }

bool engine_runs(const Engine& engine, const std::string& kind, const Topology& topology) {
  const KindRouters* routers = find_kind_routers(kind, engine.name);
  return routers && routers->supports(topology);
}

EngineOutput run_on_engine(const Engine& engine, const Topology& topology, const Tables& tables,
                           const EngineOptions& options) {
  const KindRouters* routers = find_kind_routers(tables.kind(), engine.name);
  if (!routers) throw InputError(fmt::format("engine '{}' has no {} routers", engine.name, tables.kind()));
  return routers->run(topology, tables, options);  // one the build lacks is refused there, naming what it has
}

std::shared_ptr<const Tables> load_any_tables(const std::string& dir) {
  const std::filesystem::path manifest = std::filesystem::path(dir) / "network.json";
  const std::string what = fmt::format("'{}'", manifest.string());
  const nlohmann::json j = parse_table_json(read_table_file(manifest, what), what);
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
    bad_table(what, "has no \"kind\" (port-rules or crossbar; tables of format version 4 and later record it)");
  const std::string kind = j["kind"].get<std::string>();
  std::string known;
  for (const RouterKind& k : router_kind_registry()) {
    if (k.name == kind) return k.load(dir);
    known += (known.empty() ? "" : ", ") + k.name;
  }
  bad_table(what, fmt::format("\"kind\" is '{}'; this build reads {}", kind, known));
}

void write_any_tables(const Tables& tables, const Topology& topology, const std::string& dir, TableForm form) {
  const RouterKind& kind = find_router_kind(tables.kind());
  write_table_dir(dir, [&](const std::string& temp) { kind.write(tables, topology, temp, form); });
}

}  // namespace fixroute
