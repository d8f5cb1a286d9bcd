#include "run_case.h"

#include <algorithm>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>
#include <nlohmann/json.hpp>

#include "sw/core/algorithm.h"
#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/core/partial_output.h"
#include "sw/core/version.h"
#include "sw/engines/trace.h"
#include "sw/report/gtkwave.h"
#include "sw/report/waveform_formats.h"
#include "sw/topology/topology.h"
#include "run_size.h"

namespace fixroute {

bool RunResult::ok() const {
  return score.clean() && stats.failure.empty() && stats.faults.empty() && (!formula || *formula == score.steps);
}

std::optional<bool> RunResult::meets_paper() const {
  const std::optional<int64_t> paper = paper_formula ? paper_formula : formula;
  if (!paper) return std::nullopt;
  // A run that did not deliver meets nothing, however early its last delivery came.
  return score.clean() && stats.failure.empty() && score.steps <= *paper;
}

namespace {

// Refuses, before anything is built, a trace or waveform whose estimate (a lower bound)
// passes --max-output (output_limit()): a trace of at least a 12-byte row per row the kind
// must write; a waveform of at least a time stamp and the clock's value per edge within
// its window, and a declaration per router port.
void check_outputs_fit(const RunRequest& req, const Problem& problem, const RouterKind& kind, const DemandSize& demand,
                       const Algorithm* algorithm) {
  const int64_t limit = output_limit();
  if (limit <= 0) return;
  const Topology& topology = problem.topology;
  auto refuse = [&](const char* what, const std::string& path, int64_t bytes, const std::string& from) {
    if (bytes > limit)
      throw InputError(fmt::format("{} '{}' would need at least {} ({}), more than --max-output {}; refused before running",
                                   what, path, format_bytes(static_cast<double>(bytes)), from,
                                   format_bytes(static_cast<double>(limit))));
  };
  if (!req.trace_path.empty() && kind.least_trace_rows) {
    const int64_t rows = kind.least_trace_rows(topology, demand);
    refuse("trace", req.trace_path, rows * 12, fmt::format("{} rows of at least 12 bytes", rows));
  }
  if (!req.vcd_path.empty()) {
    const std::optional<int64_t> formula = algorithm ? algorithm->formula(problem) : std::nullopt;
    int64_t cycles = std::max<int64_t>(1, formula ? *formula : topology.diameter());
    if (req.vcd_to >= 0) cycles = std::min<int64_t>(cycles, req.vcd_to - req.vcd_from + 1);
    const int64_t ports = int64_t{topology.num_nodes()} * topology.num_ports();
    refuse("waveform", req.vcd_path, cycles * 16 + ports * 24,
           fmt::format("{} clock cycles at the least, {} router ports declared", cycles, ports));
  }
}

// Refuses a run of `kind` routers on `engine` that needs more memory than the machine has
// (or --max-memory allows), or takes longer than --max-time, from its size alone: the time
// from the algorithm's step formula (where it has one, else the diameter every collective
// crosses) over the routers' top rate (KindRouters::top_router_steps_per_second) on each
// of the run's threads.
void check_run_size(const RunRequest& req, const Engine& engine, const Problem& problem, const RouterKind& kind,
                    const Algorithm* algorithm) {
  const Topology& topology = problem.topology;
  const std::string what = fmt::format("{} {} on the {} engine", topology.spec(), problem.collective, engine.name);
  const KindRouters* routers = find_kind_routers(kind.name, engine.name);
  const bool trace_kept = req.keep_trace || !(routers && routers->streams && kind.online_score);
  const DemandSize demand =
      find_collective(problem.collective).demand_size(topology, algorithm ? algorithm->packets_per_node : 1);
  check_run_fits(what, kind.run_bytes(topology, demand, trace_kept), req.max_memory);
  check_outputs_fit(req, problem, kind, demand, algorithm);
  if (req.max_seconds <= 0 || !routers || routers->top_router_steps_per_second <= 0) return;
  const std::optional<int64_t> formula = algorithm ? algorithm->formula(problem) : std::nullopt;
  const int64_t steps = std::max<int64_t>(1, formula ? *formula : topology.diameter());
  // each of the run's threads may take a share of every step's routers at the top rate
  const int threads = std::max(1, req.threads);
  const double rate = routers->top_router_steps_per_second;
  check_run_time(what, least_run_seconds(static_cast<double>(steps) * topology.num_nodes(), rate * threads),
                 req.max_seconds,
                 fmt::format("{} {} x {} routers at {:.0f} M router-steps/s{}, above the fastest these routers ran",
                             steps, formula ? "steps by the formula" : "steps at the least (the diameter)",
                             topology.num_nodes(), rate / 1e6,
                             threads > 1 ? fmt::format(" on each of {} threads", threads) : ""));
}

// The case a request names, resolved once: its tables (built by the algorithm, or loaded
// and checked against what the request names), the problem they answer (the topology
// parsed once), their router kind and algorithm (nullptr: loaded tables of an algorithm
// this build lacks); the run refused first where it would not fit.
struct ResolvedCase {
  std::shared_ptr<const Tables> tables;
  Problem problem;
  const RouterKind* kind = nullptr;
  const Algorithm* algorithm = nullptr;
};

ResolvedCase resolve_case(const RunRequest& req, const Engine& engine) {
  if (req.tables_dir.empty()) {
    ResolvedCase c{nullptr, Problem{Topology::parse(req.topology), req.collective, req.port_model, req.permutation, req.root,
                                    req.budget_seconds, req.seed}};
    c.algorithm = &find_algorithm(c.problem, req.algorithm);
    check_search_options(c.problem, *c.algorithm);
    c.kind = &find_router_kind(c.algorithm->router_kind);
    check_run_size(req, engine, c.problem, *c.kind, c.algorithm);
    c.tables = c.algorithm->build(c.problem);
    return c;
  }
  if (req.budget_seconds > 0) throw InputError("--budget is for building tables; --tables runs them as they are");
  if (req.seed != 0) throw InputError("--seed is for building tables; --tables runs them as they are");
  std::shared_ptr<const Tables> tables = load_any_tables(req.tables_dir);
  if (!req.topology.empty() && Topology::parse(req.topology).spec() != tables->topology)
    throw InputError(fmt::format("tables in '{}' are for {}, not {}", req.tables_dir, tables->topology, req.topology));
  if (!req.collective.empty() && req.collective != tables->collective)
    throw InputError(fmt::format("tables in '{}' are for {}, not {}", req.tables_dir, tables->collective, req.collective));
  if (!req.algorithm.empty() && req.algorithm != tables->algorithm)
    throw InputError(fmt::format("--algorithm {}: the tables in '{}' were built by {}; a run of loaded tables runs them as "
                                 "they are (leave --algorithm out)",
                                 req.algorithm, req.tables_dir, tables->algorithm));
  ResolvedCase c{tables, Problem{Topology::parse(tables->topology), tables->collective, tables->port_model,
                                 req.permutation, tables->root}};
  c.algorithm = registered_algorithm(tables->algorithm, tables->collective);
  c.kind = &find_router_kind(tables->kind());
  check_run_size(req, engine, c.problem, *c.kind, c.algorithm);
  return c;
}

// The waveform the engine dumped at `dumped` (VCD) refused where it passed --max-output,
// converted where FST was asked, its GTKWave save file written beside it (not beside one
// written straight through: a device, a FIFO, standard output), then put in place.
void finish_waveform(PartialOutput& vcd, const std::string& dumped, const std::string& path, bool fst) {
  std::error_code ec;
  const int64_t limit = output_limit();
  const auto size = static_cast<int64_t>(std::filesystem::file_size(dumped, ec));
  if (limit > 0 && !ec && size > limit) {
    std::filesystem::remove(dumped, ec);
    throw InputError(fmt::format("cannot write waveform '{}': it passed --max-output {}; nothing kept (--vcd-from and "
                                 "--vcd-to dump a window of clock cycles, --max-output sets another limit)",
                                 path, format_bytes(static_cast<double>(limit))));
  }
  if (!vcd.straight()) {
    const std::string save_path = gtkwave_save_path(path);
    write_output_file(save_path, gtkwave_save_file(dumped, path, save_path), "GTKWave save file");
  }
  if (fst) convert_vcd_to_fst(dumped, vcd.temp());
  vcd.commit();
}

}  // namespace

void check_cosim_fits(const Problem& problem, const Algorithm& algorithm, int64_t max_memory) {
  const RouterKind& kind = find_router_kind(algorithm.router_kind);
  const DemandSize demand = find_collective(problem.collective).demand_size(problem.topology, algorithm.packets_per_node);
  check_run_fits(fmt::format("co-simulating {} {}", problem.topology.spec(), problem.collective),
                 2 * kind.run_bytes(problem.topology, demand, true), max_memory);
}

void check_tables_fit(const Problem& problem, const Algorithm& algorithm, int64_t max_memory) {
  const DemandSize demand = find_collective(problem.collective).demand_size(problem.topology, algorithm.packets_per_node);
  check_write_fits(fmt::format("building the tables of {} {}", problem.topology.spec(), problem.collective),
                   find_router_kind(algorithm.router_kind).table_bytes(problem.topology, demand), max_memory);
}

void check_drawing_fits(const Problem& problem, const Algorithm& algorithm, const std::string& path) {
  const int64_t limit = output_limit();
  if (limit <= 0) return;
  const bool circuits = find_router_kind(algorithm.router_kind).switching == "circuit";
  const std::optional<int64_t> steps = circuits ? algorithm.formula(problem) : std::nullopt;
  const int64_t panels = std::max<int64_t>(1, steps.value_or(1));
  const int64_t bytes = int64_t{problem.topology.num_nodes()} * panels * 100;
  if (bytes > limit)
    throw InputError(fmt::format("drawing '{}' would need at least {} ({} nodes x {} panel{} x 100 bytes), more than "
                                 "--max-output {}; refused before building it",
                                 path, format_bytes(static_cast<double>(bytes)), problem.topology.num_nodes(), panels,
                                 panels == 1 ? "" : "s", format_bytes(static_cast<double>(limit))));
}

RunResult run_case(const RunRequest& req) {
  const Engine& engine = find_engine(req.engine);
  if (!req.vcd_path.empty() && !engine.writes_waveforms)
    throw InputError(fmt::format("--vcd: the {} engine writes no waveform (the systemc and rtl engines do)", engine.name));
  if (!req.trace_path.empty()) check_output_path(req.trace_path, "trace");
  if (!req.vcd_path.empty()) check_output_path(req.vcd_path, "waveform");
  if ((req.vcd_from != 0 || req.vcd_to >= 0) && req.vcd_path.empty())
    throw InputError("--vcd-from and --vcd-to bound a waveform: give --vcd FILE");
  if (req.vcd_from < 0 || (req.vcd_to >= 0 && req.vcd_to < req.vcd_from))
    throw InputError(fmt::format("--vcd-from {} --vcd-to {}: the window is empty", req.vcd_from, req.vcd_to));
  if ((req.vcd_from != 0 || req.vcd_to >= 0) && engine.name == "systemc")
    throw InputError("--vcd-from, --vcd-to: the systemc engine's waveform has no window (SystemC traces from the start); "
                     "the rtl engine's has");
  const bool fst = std::filesystem::path(req.vcd_path).extension() == ".fst";
  ResolvedCase resolved = resolve_case(req, engine);
  const std::shared_ptr<const Tables>& tables = resolved.tables;
  const RouterKind& kind = *resolved.kind;
  const Algorithm* algorithm = resolved.algorithm;
  // The counts are the tables' own: their port model and root, whatever permutation named them.
  Problem& problem = resolved.problem;
  problem.port_model = tables->port_model;
  problem.permutation.clear();
  problem.root = tables->root;
  const Topology& topology = problem.topology;

  RunResult r;
  r.topology = topology.spec();
  r.collective = tables->collective;
  r.algorithm = tables->algorithm;
  r.engine = engine.name;
  r.router_kind = kind.name;
  r.switching = kind.switching;
  r.nodes = topology.num_nodes();
  r.construction = tables->construction;
  r.port_model = tables->port_model;
  if (!algorithm && kind.needs_algorithm)
    throw InputError(fmt::format("tables in '{}' name algorithm '{}', which this build does not have", req.tables_dir,
                                 tables->algorithm));
  if (algorithm) {
    r.formula = algorithm->formula(problem);
    r.paper_formula = algorithm->paper_formula(problem);
    r.paper_as_printed = algorithm->paper_as_printed(problem);
    r.above_paper_reason = algorithm->above_paper_reason(problem);
    r.paper_buffers = algorithm->paper_buffers(problem);
    r.packets_per_node = algorithm->packets_per_node;
  }
  r.bounds = kind.bounds(*tables, topology, r.packets_per_node);
  for (int64_t bits : kind.table_bits(*tables, topology)) {
    r.table_bits_max = std::max(r.table_bits_max, bits);
    r.table_bits_total += bits;
  }
  r.table_bits_shared = kind.shared_table_bits(*tables);
  EngineOptions options;
  // The waveform under a temporary name ending in .vcd (SystemC appends .vcd to any other).
  std::optional<PartialOutput> vcd, fst_dump;
  if (!req.vcd_path.empty()) {
    // An FST waveform is dumped as VCD beside its temporary (removed whatever happens), then converted.
    vcd.emplace(req.vcd_path, "waveform", fst ? ".tmp.fst" : ".tmp.vcd");
    if (fst) fst_dump.emplace(vcd->temp(), "waveform", ".vcd");
    options.vcd_path = fst ? fst_dump->temp() : vcd->temp();
    options.waveform.from_cycle = req.vcd_from;
    options.waveform.to_cycle = req.vcd_to;
    options.waveform.max_bytes = output_limit();
  }
  options.keep_trace = req.keep_trace;
  options.threads = req.threads >= 3 ? req.threads - 1 : 1;  // one thread of N checks (the scoreboard's)
  options.checking_threads = req.threads;  // or all N share each step and its check, where the engine can
  std::optional<FaultInjector> faults;
  if (!req.faults.empty()) {
    const KindRouters* routers = find_kind_routers(kind.name, engine.name);
    if (routers && !routers->takes_faults)
      throw InputError(fmt::format("--fault: the {} engine's {} routers take no injected faults", engine.name, kind.name));
    std::vector<Fault> parsed;
    for (const std::string& text : req.faults) parsed.push_back(parse_fault(text));
    faults.emplace(parsed, topology);
    options.faults = &*faults;
  }
  // The kind's scoreboard online where it has one: a streaming engine feeds it as it runs
  // (no trace in memory), any other engine's trace is replayed into it.
  std::unique_ptr<OnlineScore> online;
  if (kind.online_score) {
    online = kind.online_score(*tables, topology, r.packets_per_node, req.trace_path, req.threads);
    online->on_step = req.on_step;
    options.sink = &online->sink();
  }
  EngineOutput out = run_on_engine(engine, topology, *tables, options);
  if (vcd && std::filesystem::exists(options.vcd_path)) finish_waveform(*vcd, options.vcd_path, req.vcd_path, fst);
  r.stats = std::move(out.stats);
  if (faults) r.stats.injected = faults->injected(r.stats.steps_simulated);
  r.trace = std::move(out.trace);
  if (online) {
    if (!out.streamed) online->replay(*r.trace);
    r.score = online->finish();
  } else {
    r.score = kind.score(*tables, topology, r.packets_per_node, *r.trace);
    if (!req.trace_path.empty()) write_output_file(req.trace_path, r.trace->csv(), "trace");
  }
  r.packets = r.score.needed;
  return r;
}

nlohmann::json to_json(const RunResult& r) {
  using nlohmann::json;
  json bounds = json::object();
  for (const LowerBound& b : r.bounds.parts) bounds[b.name] = b.steps;
  json other_classes = json::object();
  for (const LowerBound& b : r.bounds.other_classes) other_classes[b.name] = b.steps;
  auto optional_int = [](const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); };
  const std::optional<bool> meets = r.meets_paper();
  json flows = nullptr;
  if (!r.score.flow_latency.empty()) {
    flows = json::array();
    for (const FlowLatency& f : r.score.flow_latency)
      flows.push_back({{"src", f.src}, {"dst", f.dst}, {"phits", f.phits}, {"latency", f.latency}, {"worst_case", f.worst_case}});
  }
  return stamped("fixroute-run", json{{"topology", r.topology},
              {"collective", r.collective},
              {"algorithm", r.algorithm},
              {"engine", r.engine},
              {"router_kind", r.router_kind},
              {"port_model", r.port_model.ports_name()},
              {"duplex", r.port_model.duplex_name()},
              {"combining", r.port_model.combining},
              {"nodes", r.nodes},
              {"packets", r.packets},
              {"steps", r.steps()},
              {"formula", optional_int(r.formula)},
              {"paper_formula", optional_int(r.paper_formula)},
              {"paper_as_printed", optional_int(r.paper_as_printed)},
              {"construction", r.construction.empty() ? json(nullptr) : json(r.construction)},
              {"packets_per_node", r.packets_per_node},
              {"lower_bound", r.bounds.best()},
              {"gap", r.steps() - r.bounds.best()},
              {"optimal", r.ok() && r.steps() == r.bounds.best() ? "proven" : "not proven"},
              {"lower_bounds", bounds},
              {"other_classes_lower_bounds", other_classes},
              {"ok", r.ok()},
              {"meets_paper", meets ? json(*meets) : json(nullptr)},
              {"above_paper_reason", meets == std::optional<bool>(false) && !r.above_paper_reason.empty()
                                         ? json(r.above_paper_reason)
                                         : json(nullptr)},
              {"scoreboard_clean", r.score.clean()},
              {"needed", r.score.needed},
              {"deliveries", r.score.deliveries},
              {"crossings", r.score.crossings},
              {"errors", r.score.errors},
              {"error_count", r.score.error_count},
              {"engine_failure", r.stats.failure.empty() ? json(nullptr) : json(r.stats.failure)},
              {"steps_simulated", r.stats.steps_simulated},
              {"max_queue", r.stats.max_queue},
              {"clock_cycles", optional_int(r.stats.clock_cycles)},
              {"overhead_cycles", optional_int(r.stats.overhead_cycles)},
              {"table_bits_per_router", r.table_bits_max},
              {"table_bits_total", r.table_bits_total},
              {"table_bits_shared", r.table_bits_shared},
              {"buffers", r.score.buffers ? json(*r.score.buffers) : json(nullptr)},
              {"paper_buffers", optional_int(r.paper_buffers)},
              {"flow_latency", flows},
              {"switching", r.switching},
              {"cycles_per_step", optional_int(r.stats.cycles_per_step)},
              {"hardware", r.stats.hardware.empty() ? json(nullptr) : json(r.stats.hardware)},
              {"faults", r.stats.faults},
              {"injected_faults", r.stats.injected}});
}

std::string summary(const RunResult& r) {
  const bool circuit = r.switching == "circuit";
  std::string out = fmt::format("{} {} [{}] on engine {} ({})\n", r.topology, r.collective, r.algorithm, r.engine,
                                circuit ? "circuit-switched" : r.port_model.label());
  out += fmt::format("  steps        {}\n", r.steps());
  out += fmt::format("  formula      {}\n", r.formula ? std::to_string(*r.formula) : std::string("none stated"));
  if (r.paper_formula)
    out += fmt::format("  paper        {} (the paper's theorem for its own construction{})\n", *r.paper_formula,
                       r.paper_as_printed ? fmt::format("; as printed: {}, docs/formulas.md", *r.paper_as_printed) : "");
  if (const std::optional<bool> meets = r.meets_paper())
    out += fmt::format("  meets paper  {}\n", *meets                               ? "yes"
                                              : r.above_paper_reason.empty() ? "NO: more steps than the paper's theorem"
                                                                             : "NO: " + r.above_paper_reason);
  if (!r.construction.empty()) out += fmt::format("  construction {}\n", r.construction);
  out += fmt::format("  lower bound  {}", r.bounds.best());
  for (const LowerBound& b : r.bounds.parts) out += fmt::format("  ({} {}: {})", b.name, b.steps, b.reason);
  out += "\n";
  if (r.ok()) {
    std::string tight;  // the bound the steps meet, by name
    for (const LowerBound& b : r.bounds.parts)
      if (b.steps == r.bounds.best() && tight.empty()) tight = b.name;
    out += fmt::format("  optimal      {}\n", r.steps() == r.bounds.best()
                                                   ? fmt::format("proven (steps = the {} bound)", tight)
                                                   : fmt::format("not proven (gap {} over the lower bound)",
                                                                 r.steps() - r.bounds.best()));
  }
  for (const LowerBound& b : r.bounds.other_classes)
    out += fmt::format("  other class  {} {}: {} would need at least that many\n", b.name, b.steps, b.reason);
  out += fmt::format("  scoreboard   {} ({} of {} {}, {} {})\n",
                     r.score.clean() ? "clean" : fmt::format("{} error(s)", r.score.error_count), r.score.deliveries,
                     r.score.needed, circuit ? "needed" : "receptions", r.score.crossings,
                     circuit ? "circuits" : "arc crossings");
  for (const std::string& e : r.score.errors) out += "    " + e + "\n";
  if (!r.stats.failure.empty()) out += "  engine       " + r.stats.failure + "\n";
  for (const std::string& f : r.stats.faults) out += "  fault        " + f + "\n";
  for (const std::string& f : r.stats.injected) out += "  injected     " + f + "\n";
  if (!circuit && !r.score.buffers) out += fmt::format("  max queue    {}\n", r.stats.max_queue);
  if (!r.score.flow_latency.empty()) {
    const auto& flows = r.score.flow_latency;
    auto most = [&](auto field) {
      return std::max_element(flows.begin(), flows.end(), [&](const FlowLatency& a, const FlowLatency& b) { return field(a) < field(b); });
    };
    const auto longest = most([](const FlowLatency& f) { return f.latency; });
    const auto worst = most([](const FlowLatency& f) { return f.worst_case; });
    double mean = 0;
    for (const FlowLatency& f : flows) mean += static_cast<double>(f.latency) / static_cast<double>(flows.size());
    out += fmt::format("  latency      {} flows: {:.1f} slots on average, at most {} ({} -> {}); worst case with the wait "
                       "for a slot {} ({} -> {}); per flow in --json\n",
                       flows.size(), mean, longest->latency, longest->src, longest->dst, worst->worst_case, worst->src,
                       worst->dst);
  }
  if (r.score.buffers)
    out += fmt::format("  buffers      {} (packets a router held waiting beyond the next round){}\n", *r.score.buffers,
                       r.paper_buffers ? fmt::format("; the paper promises at most {}", *r.paper_buffers) : "");
  out += fmt::format("  table        {} bits per router (largest), {} in all\n", r.table_bits_max, r.table_bits_total);
  if (r.table_bits_shared)
    out += fmt::format("  shared table {} bits: one generic table shared by every router (their images are its translations)\n",
                       r.table_bits_shared);
  if (r.stats.clock_cycles)
    out += fmt::format("  clock cycles {} (+{} reset/load){}\n", *r.stats.clock_cycles, r.stats.overhead_cycles.value_or(0),
                       r.stats.cycles_per_step ? fmt::format(", {} per routing step", *r.stats.cycles_per_step) : "");
  if (!r.stats.hardware.empty()) out += fmt::format("  hardware     {}\n", r.stats.hardware);
  out += fmt::format("  result       {}\n", r.ok() ? "ok" : "FAILED");
  return out;
}

}  // namespace fixroute
