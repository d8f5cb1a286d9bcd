// bench_plot OUT.svg RESULTS.json...: the scaling plot of Google Benchmark results
// (sw/report/scaling_plot.h; `make bench-scaling` runs the benchmarks and this).
// Exit 2 with one line on bad input; the SVG is written whole or not at all.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "sw/core/errors.h"
#include "sw/core/partial_output.h"
#include "sw/report/scaling_plot.h"

int main(int argc, char** argv) {
  using namespace fixroute;
  if (argc < 3) {
    std::cerr << "usage: bench_plot OUT.svg RESULTS.json...\n";
    return 2;
  }
  try {
    std::vector<ScalingPoint> points;
    std::string context;  // of the first file
    for (int i = 2; i < argc; ++i) {
      std::ifstream in(argv[i], std::ios::binary);
      if (!in) throw InputError(fmt::format("cannot read '{}'", argv[i]));
      std::ostringstream text;
      text << in.rdbuf();
      const std::vector<ScalingPoint> more = scaling_points(text.str(), argv[i]);
      if (i == 2) context = scaling_context(text.str());
      points.insert(points.end(), more.begin(), more.end());
    }
    const std::string subtitle = "make bench-scaling, medians of 3" + (context.empty() ? std::string() : "; " + context);
    write_output_file(argv[1], scaling_svg(points, "Wall time against router-steps, torus gossip", subtitle), "plot");
    std::cout << fmt::format("bench_plot: {} points -> {}\n", points.size(), argv[1]);
  } catch (const InputError& e) {
    std::cerr << "bench_plot: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
