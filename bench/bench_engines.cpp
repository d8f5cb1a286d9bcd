// Simulated router-steps per second of the three engines on the same work: total
// exchange (the default algorithm) on line:64 and ring:64 (ref, systemc) and on the
// largest verilated line and ring (all three); the circuit-switched crossbar meshes on
// ref and RTL; the gossip schedulers and their tables on ref. Figures and machine:
// docs/benchmarks.md.
//
// SystemC elaborates once per process, so each SystemC benchmark needs its own process:
// `make bench` runs this binary once per SystemC case with --benchmark_filter.
#include <benchmark/benchmark.h>

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>
#include <systemc>  // declares sc_main with the C linkage libsystemc calls

#include "sw/schedulers/port_rules.h"
#include "sw/core/collectives.h"
#include "sw/kinds/port_rules/ref_routers.h"
#include "sw/engines/step_threads.h"
#include "sw/kinds/port_rules/pipelined_sink.h"
#include "sw/verify/run_case.h"
#include "sw/kinds/port_rules/scoreboard.h"
#include "sw/schedulers/circuits.h"
#include "sw/kinds/crossbar/engine.h"
#include "sw/topology/topology.h"
#include "tb/port_rules/rtl_engine.h"
#include "tb/port_rules/systemc_bench.h"
#include "tb/systemc_support.h"
#include "tb/crossbar/xbar_rtl.h"

namespace {

using namespace fixroute;

struct Work {
  Topology topology;
  NetworkTables tables;
  explicit Work(const char* spec, const char* collective = "total-exchange")
      : topology(Topology::parse(spec)),
        tables(build_tables(find_algorithm(collective, "", topology), topology, PortModel{})) {}
};

void report(benchmark::State& state, const Work& w, int64_t steps, int64_t runs) {
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["routers"] = static_cast<double>(w.topology.num_nodes());  // for the scaling plot
  state.counters["router_steps_per_s"] = benchmark::Counter(
      static_cast<double>(steps * w.topology.num_nodes() * runs), benchmark::Counter::kIsRate);
}

void BM_Ref(benchmark::State& state, const char* spec) {
  Work w(spec);
  int64_t steps = 0, runs = 0;
  for (auto _ : state) {
    EngineResult r = run_ref_engine(w.topology, w.tables, {});
    benchmark::DoNotOptimize(r.trace.data());
    steps = r.steps_simulated;
    ++runs;
  }
  report(state, w, steps, runs);
}

// How far apart the machine's first two cores are: a cache line bounced `rounds` times
// between a thread on each; the round trip in ns (0: fewer than two cores, or no pinning).
// On the shared 2-vCPU VMs the hypervisor places the two near (a shared cache, about 50 ns)
// or far (about 320-350 ns) and moves them every few seconds; two-thread runs take longer
// in the far placement, so a two-thread result means little without it (bench/results.md,
// "Where the two cores are"). The calling thread gets its affinity back: the benchmarks
// after it, and the threads they start, run where they would have.
double cross_core_round_trip_ns(int64_t rounds) {
  if (std::thread::hardware_concurrency() < 2) return 0;
  auto pin = [](int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
  };
  // A cache line of its own (on the stack it shared one with other locals): odd, served to
  // the partner; even, returned; -1, the partner stops.
  struct alignas(64) Line {
    std::atomic<int64_t> value{0};
  };
  static Line line;
  std::atomic<int64_t>& ball = line.value;
  ball.store(0);
  std::thread partner([&] {
    pin(1);
    for (int64_t b; (b = ball.load(std::memory_order_acquire)) >= 0;)
      if (b & 1) ball.store(b + 1, std::memory_order_release);
  });
  cpu_set_t was;
  const bool kept = pthread_getaffinity_np(pthread_self(), sizeof(was), &was) == 0;
  const bool pinned = pin(0);
  const auto start = std::chrono::steady_clock::now();
  for (int64_t b = 1; b < 2 * rounds; b += 2) {
    ball.store(b, std::memory_order_release);
    while (ball.load(std::memory_order_acquire) != b + 1) {}
  }
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
  ball.store(-1, std::memory_order_release);
  partner.join();
  if (kept) pthread_setaffinity_np(pthread_self(), sizeof(was), &was);
  return pinned ? took.count() / static_cast<double>(rounds) : 0;
}

// The probe alone, first in `make bench`: five readings of 100 000 round trips.
void BM_CrossCoreRoundTrip(benchmark::State& state) {
  double ns = 0;
  for (auto _ : state) ns = cross_core_round_trip_ns(100000);
  if (ns == 0) state.SkipWithError("needs two cores it can pin to");
  state.counters["round_trip_ns"] = ns;
}
BENCHMARK(BM_CrossCoreRoundTrip)->Iterations(5)->Unit(benchmark::kMillisecond);

// What a phase of StepThreads costs where its parts do nothing (two parts): the hand-over
// alone, a fork and a join -- the ref engine pays it twice a step, the RTL arrays on each
// phase of a clock. Counters: ns a phase, and the cores' round trip before and after.
void BM_StepThreadsPhase(benchmark::State& state) {
  const double round_trip_before = cross_core_round_trip_ns(20000);
  constexpr int64_t kPhases = 200000;
  StepThreads threads(2);
  // made once, and the parts touch nothing of the caller's: the hand-over alone
  const std::function<void(int)> nothing = [](int) {};
  for (auto _ : state)
    for (int64_t k = 0; k < kPhases; ++k) threads.run(nothing);
  state.counters["ns_a_phase"] = benchmark::Counter(static_cast<double>(kPhases * state.iterations()),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["round_trip_ns_before"] = round_trip_before;
  state.counters["round_trip_ns_after"] = cross_core_round_trip_ns(20000);
}
BENCHMARK(BM_StepThreadsPhase)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();

// A verified run as `fixroute run` does it: the ref engine streaming each step into the
// scoreboard, no trace kept (tables built once, outside the measurement). Counters: packet
// hops per second and the process's peak resident memory.
// `threads` 2: as `run --threads 2` -- the step and its check shared by both threads (the
// pipeline's second thread only where the scoreboard cannot check in parts).
void BM_RefVerified(benchmark::State& state, const char* spec, const char* collective, int threads) {
  const Topology topology = Topology::parse(spec);
  const Algorithm& algorithm = find_algorithm(collective, "", topology);
  const NetworkTables tables = build_tables(algorithm, topology, PortModel{});
  const std::vector<DemandPacket> demand = find_collective(collective).packets(topology, algorithm.packets_per_node);
  int64_t hops = 0, steps = 0;
  // Two threads: the cores' round trip just before and just after the runs.
  const double round_trip_before = threads >= 2 ? cross_core_round_trip_ns(20000) : 0;
  for (auto _ : state) {
    PacketScoreboard board(topology, PortModel{}, demand);
    std::optional<PipelinedPacketSink> pipeline;
    if (threads >= 2) pipeline.emplace(board);
    EngineOptions options;
    options.sink = pipeline ? static_cast<PacketSink*>(&*pipeline) : &board;
    options.keep_trace = false;
    options.checking_threads = threads;
    const EngineResult run = run_ref_engine(topology, tables, options);
    if (pipeline) pipeline->drain();
    const ScoreboardReport score = board.finish();
    if (!score.clean() || !run.failure.empty()) state.SkipWithError("the run does not verify");
    hops += score.crossings;
    steps = score.steps;
  }
  if (threads >= 2) {
    state.counters["round_trip_ns_before"] = round_trip_before;
    state.counters["round_trip_ns_after"] = cross_core_round_trip_ns(20000);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["routers"] = static_cast<double>(topology.num_nodes());
  state.counters["packet_hops_per_s"] = benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsRate);
  state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// What `fixroute run MESH COLLECTIVE --permutation P` does on the crossbar routers, end to
// end: schedule, tables (expanded per step above kStoredXbarSettings), the ref engine and
// the scoreboard. Router-steps per second: nodes x routing steps / time.
void BM_XbarVerified(benchmark::State& state, const char* spec, const char* collective, const char* permutation) {
  RunRequest req;
  req.topology = spec;
  req.collective = collective;
  req.permutation = permutation;
  int64_t router_steps = 0, steps = 0;
  for (auto _ : state) {
    const RunResult r = run_case(req);
    if (!r.ok()) state.SkipWithError("the run does not verify");
    router_steps += static_cast<int64_t>(r.nodes) * r.stats.steps_simulated;
    steps = r.steps();
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["router_steps_per_s"] = benchmark::Counter(static_cast<double>(router_steps), benchmark::Counter::kIsRate);
  state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

struct CountingSink : PacketSink {
  int64_t crossings = 0;
  void step(int64_t, const std::vector<TraceEvent>& events) override { crossings += static_cast<int64_t>(events.size()); }
};

// Each iteration constructs the verilated model and loads the tables through the
// configuration port (not measured), then runs the collective (measured). `hardware`:
// "top" (the verilated network top of that size) or "array" (single routers wired by the
// harness, tb/router_array.h), to weigh the two on the same tables; `threads` share each
// clock edge of an array (`run --engine rtl --threads`).
void BM_Rtl(benchmark::State& state, const char* spec, const char* collective, const char* hardware, int threads = 1) {
  Work w(spec, collective);
  const RtlModelInfo model = std::string(hardware) == "top" ? find_rtl_model(w.topology)
                                                            : rtl_array_model(w.topology, w.tables,
                                                                              run_ref_engine(w.topology, w.tables, {}).max_queue);
  const std::vector<std::vector<uint32_t>> images = rtl_images(model, w.topology, w.tables);
  int64_t steps = 0, runs = 0, cycles = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<RtlDriver> rtl = model.make(model);
    rtl_reset_and_load(*rtl, images);
    rtl->tick();
    state.ResumeTiming();
    // Each step's crossings streamed to a sink that only counts them, as `fixroute run`
    // streams them to the online scoreboard: the model and its harness are what is timed.
    CountingSink sink;
    EngineOptions options;
    options.sink = &sink;
    options.keep_trace = false;
    options.threads = threads;
    EngineResult r = rtl_run_loaded(*rtl, model, w.topology, options);
    benchmark::DoNotOptimize(sink.crossings);
    steps = r.steps_simulated;
    cycles = r.clock_cycles.value_or(0);
    ++runs;
  }
  report(state, w, steps, runs);
  state.counters["router_cycles_per_s"] = benchmark::Counter(
      static_cast<double>(cycles * w.topology.num_nodes() * runs), benchmark::Counter::kIsRate);
}

// Elaborates once (not measured), then each iteration resets the network and runs it,
// streaming the crossings to a counting sink.
void BM_Systemc(benchmark::State& state, const char* spec, const char* collective) {
  static std::unique_ptr<Work> work;
  static std::unique_ptr<SystemcBench> bench;
  if (!bench) {
    work = std::make_unique<Work>(spec, collective);
    claim_systemc_elaboration();
    bench = std::make_unique<SystemcBench>("bench", work->topology, work->tables, true);
  } else if (work->topology.spec() != Topology::parse(spec).spec()) {
    state.SkipWithError("SystemC elaborates once per process: run each SystemC case alone (--benchmark_filter)");
    return;
  }
  int64_t steps = 0, runs = 0, cycles = 0;
  for (auto _ : state) {
    CountingSink sink;  // the crossings streamed, as `fixroute run` streams them
    EngineOptions options;
    options.sink = &sink;
    options.keep_trace = false;
    EngineResult r = bench->run(options);
    benchmark::DoNotOptimize(sink.crossings);
    steps = r.steps_simulated;
    cycles = r.clock_cycles.value_or(0);
    ++runs;
  }
  report(state, *work, steps, runs);
  state.counters["router_cycles_per_s"] = benchmark::Counter(
      static_cast<double>(cycles * work->topology.num_nodes() * runs), benchmark::Counter::kIsRate);
}

// Circuit-switched crossbar meshes (issue 6): per routing step every router's crossbar
// is set; the hardware spends R + C clock cycles per step. Counted as router-steps and,
// for the RTL, router-cycles per second. Tables are scheduled once (not measured).
struct XbarWork {
  Topology mesh;
  XbarTables tables;
  XbarWork(const char* spec, const char* collective, const char* algorithm) : mesh(Topology::parse(spec)) {
    const CircuitDemand d = make_circuit_demand(mesh, collective, "", 0);
    tables = circuit_tables(find_circuit_algorithm(algorithm, mesh, d), mesh, d);
  }
  void report(benchmark::State& state, int64_t runs, int64_t cycles) const {
    state.counters["steps"] = tables.steps();
    state.counters["router_steps_per_s"] = benchmark::Counter(
        static_cast<double>(int64_t{tables.steps()} * mesh.num_nodes() * runs), benchmark::Counter::kIsRate);
    if (cycles > 0)
      state.counters["router_cycles_per_s"] =
          benchmark::Counter(static_cast<double>(cycles * mesh.num_nodes() * runs), benchmark::Counter::kIsRate);
  }
};

void BM_XbarRef(benchmark::State& state, const char* spec, const char* collective, const char* algorithm) {
  const XbarWork w(spec, collective, algorithm);
  int64_t runs = 0;
  for (auto _ : state) {
    XbarRun r = run_xbar_ref(w.mesh, w.tables);
    benchmark::DoNotOptimize(r.trace.data());
    ++runs;
  }
  w.report(state, runs, 0);
}

// Each iteration constructs the verilated mesh and loads it through the configuration
// port (not measured), then runs every routing step (measured); `hardware` and `threads`
// as BM_Rtl's.
void BM_XbarRtl(benchmark::State& state, const char* spec, const char* collective, const char* algorithm,
                const char* hardware, int threads = 1) {
  const XbarWork w(spec, collective, algorithm);
  const XbarModelInfo model = std::string(hardware) == "top" ? require_xbar_model(w.mesh) : xbar_array_model(w.mesh, w.tables);
  int64_t runs = 0, cycles = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<XbarRtlDriver> rtl = model.make(model);
    xbar_rtl_load(*rtl, model, w.tables);
    rtl->set_threads(threads);
    state.ResumeTiming();
    XbarRun r = xbar_rtl_run_loaded(*rtl, w.mesh, w.tables);
    benchmark::DoNotOptimize(r.trace.data());
    cycles = r.clock_cycles.value_or(0);
    ++runs;
  }
  w.report(state, runs, cycles);
}

// Time-independent gossip (issue 5): the scheduler's time to build the tables -- cycles,
// feeds and their tap switch steps (for hamiltonian-2-paper including its reference run
// of the cycle traffic) -- and the reference engine's run of them.
void BM_GossipSchedule(benchmark::State& state, const char* spec, const char* algorithm) {
  const Topology t = Topology::parse(spec);
  const Algorithm& a = find_algorithm("gossip", algorithm, t);
  int64_t switches = 0;
  for (auto _ : state) {
    NetworkTables tables = build_tables(a, t, PortModel{});
    benchmark::DoNotOptimize(tables.routers.data());
    switches = 0;
    for (const RouterTable& r : tables.routers)
      for (const PortRule& rule : r.ports) switches += static_cast<int64_t>(rule.switch_steps.size());
  }
  state.counters["nodes"] = t.num_nodes();
  state.counters["switch_steps"] = static_cast<double>(switches);
}

void BM_GossipRef(benchmark::State& state, const char* spec, const char* algorithm) {
  const Topology t = Topology::parse(spec);
  const NetworkTables tables = build_tables(find_algorithm("gossip", algorithm, t), t, PortModel{});
  int64_t steps = 0, runs = 0;
  for (auto _ : state) {
    EngineResult r = run_ref_engine(t, tables, {});
    benchmark::DoNotOptimize(r.trace.data());
    steps = r.steps_simulated;
    ++runs;
  }
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["router_steps_per_s"] =
      benchmark::Counter(static_cast<double>(steps * t.num_nodes() * runs), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_GossipSchedule, torus16x16_hamiltonian2, "torus:16x16", "hamiltonian-2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus16x15_paper, "torus:16x15", "hamiltonian-2-paper")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus15x15_paper, "torus:15x15", "hamiltonian-2-paper")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus4x31_hamiltonian2, "torus:4x31", "hamiltonian-2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus16x16_partial, "torus:16x16", "partial-cycles")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus6x6x6_partial, "torus:6x6x6", "partial-cycles")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus4x4x4x5_partial, "torus:4x4x4x5", "partial-cycles")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus15x15_staircase, "torus:15x15", "partial-cycles")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipSchedule, torus31x31_staircase, "torus:31x31", "partial-cycles")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipRef, torus16x16_hamiltonian2, "torus:16x16", "hamiltonian-2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipRef, torus16x16_partial, "torus:16x16", "partial-cycles")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GossipRef, torus4x4x4x5_partial, "torus:4x4x4x5", "partial-cycles")->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(BM_XbarRef, mesh16_prefix, "mesh:16x16", "prefix", "")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_XbarRef, mesh16_fft, "mesh:16x16", "fft", "z-order")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_XbarRtl, mesh4_fft_top, "mesh:4x4", "fft", "z-order", "top")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_XbarRtl, mesh4_fft_array, "mesh:4x4", "fft", "z-order", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_XbarRtl, mesh16_prefix, "mesh:16x16", "prefix", "", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_XbarRtl, mesh16_fft, "mesh:16x16", "fft", "z-order", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_XbarRtl, mesh16_fft_2threads, "mesh:16x16", "fft", "z-order", "array", 2)
    ->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_CAPTURE(BM_RefVerified, line512_total_exchange, "line:512", "total-exchange", 1)
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
// How the cost grows with the network (make bench-scaling): torus gossip, hamiltonian-2,
// 8x8 to 128x128 on ref, 8x8 to 32x32 on rtl and systemc.
BENCHMARK_CAPTURE(BM_RefVerified, torus8x8_gossip, "torus:8x8", "gossip", 1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_RefVerified, torus16x16_gossip, "torus:16x16", "gossip", 1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_RefVerified, torus32x32_gossip, "torus:32x32", "gossip", 1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_RefVerified, torus64x64_gossip, "torus:64x64", "gossip", 1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_RefVerified, torus64x64_gossip_threads2, "torus:64x64", "gossip", 2)
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
// issue targets: line:1024 total exchange under 5 s, torus:128x128 gossip under 6 s
BENCHMARK_CAPTURE(BM_RefVerified, line1024_total_exchange, "line:1024", "total-exchange", 1)
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_RefVerified, line1024_total_exchange_threads2, "line:1024", "total-exchange", 2)
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_RefVerified, torus128x128_gossip, "torus:128x128", "gossip", 1)
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_RefVerified, torus128x128_gossip_threads2, "torus:128x128", "gossip", 2)
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_XbarVerified, mesh256x256_transpose, "mesh:256x256", "permutation", "transpose")
    ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
// issue target: mesh:1024x1024 transpose and broadcast verified end to end under 10 s each
BENCHMARK_CAPTURE(BM_XbarVerified, mesh1024x1024_transpose, "mesh:1024x1024", "permutation", "transpose")
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_XbarVerified, mesh1024x1024_broadcast, "mesh:1024x1024", "broadcast", "")
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(BM_Ref, line64, "line:64")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Ref, ring64, "ring:64")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Ref, line33, "line:33")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Ref, ring33, "ring:33")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, ring7_top, "ring:7", "total-exchange", "top")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, ring7_array, "ring:7", "total-exchange", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, torus4x4_gossip_top, "torus:4x4", "gossip", "top")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, torus4x4_gossip_array, "torus:4x4", "gossip", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, line33, "line:33", "total-exchange", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, ring33, "ring:33", "total-exchange", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, torus8x8_gossip, "torus:8x8", "gossip", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, torus16x16_gossip, "torus:16x16", "gossip", "array")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, torus16x16_gossip_2threads, "torus:16x16", "gossip", "array", 2)
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Rtl, torus32x32_gossip, "torus:32x32", "gossip", "array")->Unit(benchmark::kMillisecond);
// 4096 routers: the rate a router-cycle should hold from 16x16 up (one iteration is enough).
BENCHMARK_CAPTURE(BM_Rtl, torus64x64_gossip, "torus:64x64", "gossip", "array")->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(BM_Systemc, line64, "line:64", "total-exchange")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, ring64, "ring:64", "total-exchange")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, line33, "line:33", "total-exchange")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, ring33, "ring:33", "total-exchange")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, torus8x8_gossip, "torus:8x8", "gossip")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, torus16x16_gossip, "torus:16x16", "gossip")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, torus32x32_gossip, "torus:32x32", "gossip")->Unit(benchmark::kMillisecond);

}  // namespace

int sc_main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
