// How the engines' cost grows with the network: Google Benchmark results (JSON, as
// `--benchmark_out_format=json` writes them) read into points of work (steps x routers)
// and wall time, drawn as a log-log SVG, a series per engine (docs/benchmarks.md,
// "How the cost grows with the network"; `make bench-scaling`).
#pragma once
#include <string>
#include <vector>

namespace fixroute {

struct ScalingPoint {
  std::string engine;   // of the benchmark family: "ref (verified as it runs)", "rtl (router array)", "systemc"; else the family
  std::string work;     // the case's name after the family: torus16x16_gossip (no "/iterations:1")
  double router_steps;  // the counters `steps` x `routers`
  double seconds;       // wall time of one run: the median of the repetitions where there are several
};

// The points of every benchmark in `json_text` (one Google Benchmark output) that carries the
// counters `steps` and `routers`; the others are passed over. A case with a "median"
// aggregate gives that; one without, the median of its iterations' entries. Throws
// InputError (naming `source`) when `json_text` is not such an output.
std::vector<ScalingPoint> scaling_points(const std::string& json_text, const std::string& source);

// Where and when the results were taken, from the output's context: "1999-12-31, 2 CPUs at
// 2450 MHz" ("" when it has none).
std::string scaling_context(const std::string& json_text);

// The plot: x router-steps, y seconds, both log10; a colour and a joined line per engine
// in order of work; each point a circle with data-engine, data-work, data-router-steps and
// data-seconds, and a hover title. Throws InputError when `points` is empty.
// `subtitle` (when not empty) goes on the line below the title.
std::string scaling_svg(const std::vector<ScalingPoint>& points, const std::string& title,
                        const std::string& subtitle = "");

}  // namespace fixroute
