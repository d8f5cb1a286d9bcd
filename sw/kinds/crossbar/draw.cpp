#include "sw/kinds/crossbar/draw.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sw/topology/topology.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/report/svg.h"

namespace fixroute {

namespace {

constexpr const char* kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
constexpr int kColourCount = 10;

// The nodes one circuit of step `s` passes, from `source` (whose local input is
// connected) to the router that ejects it; stops at an unconnected input or a loop.
std::vector<int> trace_path(const Topology& mesh, const XbarTables& t, size_t s, int source) {
  std::vector<int> path{source};
  int node = source, in = kLocalPort;
  for (int hops = 0; hops <= mesh.num_nodes(); ++hops) {
    const int out = t.routers[static_cast<size_t>(node)].settings[s][static_cast<size_t>(in)];
    if (out == kNoPort || out == kLocalPort) break;
    in = mesh.reverse_port(node, out);
    node = mesh.neighbour(node, out);
    if (node < 0) break;
    path.push_back(node);
  }
  return path;
}

// What the panels' marks mean.
std::vector<LegendEntry> circuit_legend() {
  return {{fmt::format("<polyline class=\"key\" points=\"4,10 16,10 16,3 26,3\" fill=\"none\" stroke=\"{}\" "
                       "stroke-width=\"2.5\" marker-end=\"url(#head)\"/><circle cx=\"4\" cy=\"10\" r=\"3\" fill=\"{}\"/>",
                       kColours[0], kColours[0]),
           "a circuit: from its source (dot) along its row-column path to the router that ejects it (arrow), a colour each"},
          {fmt::format("<circle class=\"key\" cx=\"14\" cy=\"7\" r=\"6\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
                       kColours[1]),
           "a message that stays at its node (a fixed point)"},
          {"<line class=\"key\" x1=\"0\" y1=\"7\" x2=\"28\" y2=\"7\" stroke=\"#cccccc\"/>", "mesh link"},
          {"<text x=\"0\" y=\"11\" font-size=\"10\">step k</text>", "a panel per routing step: its crossbar settings"}};
}

}  // namespace

std::string draw_circuit_steps(const Topology& mesh, const XbarTables& circuit_tables, const std::string& title) {
  XbarTables expanded;
  const XbarTables& t = stored_xbar_tables(mesh, circuit_tables, expanded);
  const int rows = mesh.dims()[0], cols = mesh.dims()[1], steps = t.steps();
  const int pitch = std::clamp(360 / std::max(rows, cols), 14, 44);
  const int margin = 20, caption = 18;
  const int panel_w = 2 * margin + (cols - 1) * pitch, panel_h = 2 * margin + (rows - 1) * pitch + caption;
  const int across = std::max(1, std::min(steps, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(steps))))));
  const int down = (steps + across - 1) / across;
  const int width = std::max(across * panel_w, 16 + text_width(title, 14));
  const Legend legend = legend_strip(circuit_legend(), 8, 36 + std::max(down, 1) * panel_h, width);
  const int height = 36 + std::max(down, 1) * panel_h + legend.height;
  const int radius = std::max(3, pitch / 6);
  std::string svg =
      svg_head(width, height, title, 14, 8, 20) +
      "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
      "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker></defs>\n";
  for (int s = 0; s < steps; ++s) {
    const int ox = (s % across) * panel_w, oy = 32 + (s / across) * panel_h;
    auto x = [&](int node) { return ox + margin + (node % cols) * pitch; };
    auto y = [&](int node) { return oy + caption + margin + (node / cols) * pitch; };
    std::string circuits;
    int count = 0;
    for (int source = 0; source < mesh.num_nodes(); ++source) {
      if (t.routers[static_cast<size_t>(source)].settings[static_cast<size_t>(s)][kLocalPort] == kNoPort) continue;
      const std::vector<int> path = trace_path(mesh, t, static_cast<size_t>(s), source);
      const char* colour = kColours[count++ % kColourCount];
      if (path.size() == 1) {  // a fixed point: the message stays, through the local ports
        circuits += fmt::format("<circle class=\"circuit\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" "
                                "stroke-width=\"2\"/>\n", x(source), y(source), radius + 3, colour);
        continue;
      }
      std::string points;
      for (int node : path) points += fmt::format("{},{} ", x(node), y(node));
      circuits += fmt::format("<polyline class=\"circuit\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\" "
                              "marker-end=\"url(#head)\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>\n",
                              points, colour, x(source), y(source), radius, colour);
    }
    svg += fmt::format("<g class=\"step\" id=\"step{}\"><text x=\"{}\" y=\"{}\" font-size=\"12\">step {} ({} circuits)</text>\n",
                       s + 1, ox + margin / 2, oy + caption, s + 1, count);
    for (int node = 0; node < mesh.num_nodes(); ++node) {  // the mesh links, thin and grey
      if (node % cols + 1 < cols)
        svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#cccccc\"/>", x(node), y(node), x(node + 1), y(node));
      if (node / cols + 1 < rows)
        svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#cccccc\"/>", x(node), y(node), x(node), y(node + cols));
    }
    for (int node = 0; node < mesh.num_nodes(); ++node)
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"white\" stroke=\"#888888\"/>", x(node), y(node), radius);
    svg += "\n" + circuits + "</g>\n";
  }
  svg += legend.svg + "</svg>\n";
  return svg;
}

}  // namespace fixroute
