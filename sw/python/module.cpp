// The `fixroute` Python module (docs/python.md): build tables, run them on the ref engine
// of their router kind, and read the verdict and the trace as Python objects. A thin
// front door over the installed library (fixroute::core), as sw/cli/ is for the tool.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/core/router_kind.h"
#include "sw/core/version.h"
#include "sw/report/sweep_table.h"
#include "sw/tables/table_files.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"

namespace py = pybind11;
using namespace fixroute;

namespace {

// JSON as Python objects (dicts, lists, ints, floats, strings, None).
py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const auto& v : j) out.append(to_python(v));
      return std::move(out);
    }
    default: {
      py::dict out;
      for (auto it = j.begin(); it != j.end(); ++it) out[py::str(it.key())] = to_python(it.value());
      return std::move(out);
    }
  }
}

// A trace CSV (docs/trace-format.md) as a list of dicts, integer fields as ints.
py::list trace_rows(const std::string& csv) {
  py::list rows;
  size_t at = csv.find('\n');
  if (at == std::string::npos) return rows;
  const std::vector<std::string> header = csv_fields(csv.substr(0, at));
  std::vector<py::str> keys;
  for (const std::string& h : header) keys.emplace_back(h);
  for (size_t from = at + 1; from < csv.size(); from = at + 1) {
    at = csv.find('\n', from);
    if (at == std::string::npos) at = csv.size();
    const std::vector<std::string> fields = csv_fields(csv.substr(from, at - from));
    py::dict row;
    for (size_t i = 0; i < header.size() && i < fields.size(); ++i) {
      const std::string& f = fields[i];
      const bool integer = !f.empty() && f.find_first_not_of("-0123456789") == std::string::npos && f != "-";
      row[keys[i]] = integer ? py::object(py::int_(std::stoll(f))) : py::object(py::str(f));
    }
    rows.append(std::move(row));
  }
  return rows;
}

// Tables built by an algorithm, held for writing (`fixroute tables`).
struct BuiltTables {
  Problem problem;
  std::string algorithm;
  std::shared_ptr<const Tables> tables;

  void write(const std::string& dir, bool packed) const {
    write_any_tables(*tables, problem.topology, dir,
                     packed ? TableForm::Packed : default_table_form(problem.topology.num_nodes()));
  }
};

BuiltTables build_tables(const std::string& topology, const std::string& collective, const std::string& algorithm,
                         const std::string& ports, const std::string& duplex, bool combining,
                         const std::string& permutation, int root) {
  Problem problem{Topology::parse(topology), collective, PortModel::parse(ports, duplex, combining), permutation, root};
  const Algorithm& a = find_algorithm(problem, algorithm);
  std::shared_ptr<const Tables> tables = a.build(problem);
  return {std::move(problem), a.name, std::move(tables)};
}

// One verified run; the engine's trace kept unless keep_trace is false.
struct Run {
  RunResult result;
  py::dict report() const { return to_python(to_json(result)).cast<py::dict>(); }
};

Run run(const std::string& topology, const std::string& collective, const std::string& algorithm,
        const std::string& engine, const std::string& ports, const std::string& duplex, bool combining,
        const std::string& permutation, int root, const std::string& tables_dir, bool keep_trace) {
  RunRequest request;
  request.topology = topology;
  request.collective = collective;
  request.algorithm = algorithm;
  request.engine = engine;
  request.port_model = PortModel::parse(ports, duplex, combining);
  request.permutation = permutation;
  request.root = root;
  request.tables_dir = tables_dir;
  request.keep_trace = keep_trace;
  py::gil_scoped_release unlocked;  // a long run does not hold up other Python threads
  return {run_case(request)};
}

}  // namespace

PYBIND11_MODULE(fixroute, m) {
  m.doc() = "fixroute: routing tables for fixed-table routers, run and verified against the papers' step counts";
  m.attr("__version__") = fixroute_version();
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);

  m.def("algorithms", [] {
    py::list out;
    for (const Algorithm& a : algorithm_registry())
      out.append(py::dict(py::arg("name") = a.name, py::arg("collective") = a.collective,
                          py::arg("router_kind") = a.router_kind, py::arg("summary") = a.summary));
    return out;
  }, "Every registered algorithm: name, collective, router_kind, summary.");
  m.def("engines", [] {
    std::vector<std::string> out;
    for (const Engine& e : engine_registry()) out.push_back(e.name);
    return out;
  }, "The engines this module runs (the library's: ref).");

  py::class_<BuiltTables>(m, "Tables", "Tables an algorithm built for a case (fixroute tables).")
      .def_property_readonly("topology", [](const BuiltTables& t) { return t.problem.topology.spec(); })
      .def_property_readonly("collective", [](const BuiltTables& t) { return t.problem.collective; })
      .def_property_readonly("algorithm", [](const BuiltTables& t) { return t.algorithm; })
      .def_property_readonly("kind", [](const BuiltTables& t) { return t.tables->kind(); })
      .def_property_readonly("construction", [](const BuiltTables& t) { return t.tables->construction; })
      .def("write", &BuiltTables::write, py::arg("directory"), py::arg("packed") = false,
           "Writes the table directory (docs/table-format.md), as `fixroute tables -o`.");
  m.def("build_tables", &build_tables, py::arg("topology"), py::arg("collective"), py::arg("algorithm") = "",
        py::arg("ports") = "all-port", py::arg("duplex") = "full", py::arg("combining") = false,
        py::arg("permutation") = "", py::arg("root") = 0,
        "The tables of an algorithm (default: the paper's for the case). Raises InputError for bad input.");

  py::class_<Run>(m, "Run", "A verified run (fixroute run --json).")
      .def_property_readonly("steps", [](const Run& r) { return r.result.steps(); })
      .def_property_readonly("ok", [](const Run& r) { return r.result.ok(); })
      .def_property_readonly("meets_paper", [](const Run& r) { return r.result.meets_paper(); })
      .def_property_readonly("formula", [](const Run& r) { return r.result.formula; })
      .def_property_readonly("paper_formula", [](const Run& r) { return r.result.paper_formula; })
      .def_property_readonly("lower_bound", [](const Run& r) { return r.result.bounds.best(); })
      .def_property_readonly("algorithm", [](const Run& r) { return r.result.algorithm; })
      .def_property_readonly("engine", [](const Run& r) { return r.result.engine; })
      .def_property_readonly("report", &Run::report, "Every field of `fixroute run --json`, as a dict.")
      .def_property_readonly("trace_csv", [](const Run& r) { return r.result.trace ? r.result.trace->csv() : ""; },
                             "The trace as CSV (docs/trace-format.md); empty where no trace was kept.")
      .def_property_readonly("trace", [](const Run& r) { return trace_rows(r.result.trace ? r.result.trace->csv() : ""); },
                             "The trace's rows as dicts (integer fields as ints).")
      .def("__repr__", [](const Run& r) {
        return "<fixroute.Run " + r.result.topology + " " + r.result.collective + " [" + r.result.algorithm + "] on " +
               r.result.engine + ": " + std::to_string(r.result.steps()) + " steps, " + (r.result.ok() ? "ok" : "FAILED") +
               ">";
      });
  m.def("run", &run, py::arg("topology"), py::arg("collective"), py::arg("algorithm") = "", py::arg("engine") = "ref",
        py::arg("ports") = "all-port", py::arg("duplex") = "full", py::arg("combining") = false,
        py::arg("permutation") = "", py::arg("root") = 0, py::arg("tables") = "", py::arg("keep_trace") = true,
        "Builds the tables (or loads them from the directory `tables`), runs them and verifies the run.");
}
