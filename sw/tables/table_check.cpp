#include "table_check.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "sw/core/errors.h"
#include "sw/core/router_kind.h"
#include "sw/tables/table_files.h"
#include "sw/topology/topology.h"

namespace fixroute {

TableCheckReport check_table_dir(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) throw InputError(fmt::format("'{}' is not a directory", dir));
  TableCheckReport report;
  ScopedTableAudit audit(TableAudit::Collect);
  std::shared_ptr<const Tables> tables;
  try {
    tables = load_any_tables(dir);
  } catch (const TableCheckStopped&) {  // the routers' faults are listed already
  } catch (const InputError& e) {
    audit.add_fault(e.what());
  }
  report.faults = audit.faults();
  if (tables && report.faults.empty()) {
    const Topology topology = Topology::parse(tables->topology);
    report.summary = fmt::format("{} tables of {} {} [{}], {} routers", tables->kind(), tables->topology,
                                 tables->collective, tables->algorithm, topology.num_nodes());
  }
  return report;
}

ResealReport reseal_table_dir(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) throw InputError(fmt::format("'{}' is not a directory", dir));
  ResealReport report;
  std::shared_ptr<const Tables> tables;
  try {
    ScopedTableAudit audit(TableAudit::Reseal);
    tables = load_any_tables(dir);
    report.resealed = audit.resealed();
  } catch (const InputError& e) {
    // A fault other than a checksum. A reseal reads a stale file's contents, where --check
    // stops at its checksum: what --check reports is said beside it.
    std::string also;
    for (const std::string& found : check_table_dir(dir).faults)
      if (found.find("checksum") == std::string::npos) {
        if (found != e.what()) also = "; tables --check reports: " + found;
        break;
      }
    throw InputError(fmt::format("cannot reseal '{}': {}{} (only checksums are resealed); nothing written", dir, e.what(),
                                 also));
  }
  if (report.resealed.empty()) return report;
  const std::filesystem::path manifest = std::filesystem::path(dir) / "network.json";
  const std::string what = fmt::format("'{}'", manifest.string());
  const nlohmann::json m = parse_table_json(read_table_file(manifest, what), what);
  const TableForm form = manifest_form(m, fmt::format("'{}'", manifest.string()));
  write_any_tables(*tables, Topology::parse(tables->topology), dir, form);
  return report;
}

}  // namespace fixroute
