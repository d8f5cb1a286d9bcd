#include "sw/kinds/combining/draw.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "sw/core/errors.h"
#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"
#include "sw/report/svg.h"

namespace fixroute {

namespace {

constexpr int kTitle = 15;
constexpr int kCaption = 18;
constexpr const char* kPortColours[] = {"#2ca02c", "#ff7f0e", "#d62728", "#1f77b4", "#9467bd", "#8c564b",
                                        "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939",
                                        "#8c6d31", "#843c39", "#7b4173", "#3182bd"};

// Where a node sits in a panel (column, row) and, on grids, which way a port points.
struct Layout {
  int rows = 1, cols = 1;
  bool grid = true;  // lines, rings, meshes, tori: ports step along an axis; hypercubes: arcs curve
  std::array<int, 2> cell(const Topology& t, int node) const {
    if (!grid) {  // hypercube: low bits across, high bits down
      return {node % cols, node / cols};
    }
    const std::vector<int> x = t.coords(node);
    return x.size() == 1 ? std::array<int, 2>{x[0], 0} : std::array<int, 2>{x[1], x[0]};
  }
  // Port 2k steps +1 along dimension k (docs/topologies.md): 1D across; 2D dimension 0 down.
  static std::array<int, 2> direction(const Topology& t, int port) {
    const int sign = port % 2 == 0 ? 1 : -1;
    if (t.dims().size() == 1 || port / 2 == 1) return {sign, 0};
    return {0, sign};
  }
};

Layout layout_of(const Topology& t) {
  Layout l;
  switch (t.kind()) {
    case TopologyKind::Line:
    case TopologyKind::Ring:
      l.cols = t.dims()[0];
      return l;
    case TopologyKind::Mesh:
    case TopologyKind::Torus:
      if (t.dims().size() != 2) break;
      l.rows = t.dims()[0];
      l.cols = t.dims()[1];
      return l;
    case TopologyKind::Hypercube: {
      const int n = t.num_ports();
      l.grid = false;
      l.cols = 1 << ((n + 1) / 2);
      l.rows = 1 << (n / 2);
      return l;
    }
    default:
      break;
  }
  throw InputError(fmt::format("draw shows combining tables on lines, rings, 2D meshes and tori and hypercubes, not on {}",
                               t.spec()));
}

std::string port_name(const Topology& t, int port) {
  if (t.kind() == TopologyKind::Hypercube) return fmt::format("direction {}", port);
  if (t.dims().size() == 1) return port == 0 ? "port 0 (right)" : "port 1 (left)";
  constexpr const char* kCompass[] = {"S", "N", "E", "W"};
  return fmt::format("port {} ({})", port, kCompass[port]);
}

}  // namespace

std::string draw_combining_rounds(const Topology& topology, const CombiningTables& tables, const std::string& title) {
  const Layout layout = layout_of(topology);
  const int rounds = std::max(1, tables.rounds), nodes = topology.num_nodes();
  const int pitch = std::clamp(360 / std::max(layout.rows, layout.cols), 26, 56);
  const int margin = layout.grid ? 34 : 44, radius = std::clamp(pitch / 4, 7, 11);  // hypercube arcs bow outwards
  const int panel_w = 2 * margin + (layout.cols - 1) * pitch, panel_h = kCaption + 2 * margin + (layout.rows - 1) * pitch;
  const int across = std::max(1, std::min(rounds, std::max(1, 1100 / panel_w)));
  const int down = (rounds + across - 1) / across;
  const int width = std::max(across * panel_w, 16 + text_width(title, kTitle));
  const int drawing_h = 32 + down * panel_h;

  std::string svg =
      "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
      "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker></defs>\n";
  for (int r = 1; r <= rounds; ++r) {
    const int ox = ((r - 1) % across) * panel_w, oy = 32 + ((r - 1) / across) * panel_h;
    auto at = [&](int node) {
      const std::array<int, 2> c = layout.cell(topology, node);
      return std::array<double, 2>{static_cast<double>(ox + margin + c[0] * pitch),
                                   static_cast<double>(oy + kCaption + margin + c[1] * pitch)};
    };
    std::string links, sends;
    int count = 0;
    for (int i = 0; i < nodes; ++i)
      for (int q = 0; q < topology.num_ports(); ++q) {
        const int j = topology.neighbour(i, q);
        if (j < 0) continue;
        const std::array<double, 2> a = at(i), b = at(j);
        const bool wraps = layout.grid && topology.coords(j)[static_cast<size_t>(q / 2)] !=
                                              topology.coords(i)[static_cast<size_t>(q / 2)] + (q % 2 == 0 ? 1 : -1);
        const std::array<int, 2> dir = layout.grid ? Layout::direction(topology, q) : std::array<int, 2>{0, 0};
        if (layout.grid && i < j && !wraps)  // each grid link once, thin and grey (a hypercube's would cross nodes)
          links += fmt::format("<line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"#dddddd\"/>", a[0],
                               a[1], b[0], b[1]);
        if (!((tables.row(i, r) >> q) & 1)) continue;
        ++count;
        const char* colour = kPortColours[q % 16];
        std::string path, dashes;
        if (wraps) {  // out of the panel's edge, dashed: the link wraps around to the far side
          const double len = margin - 4;
          path = fmt::format("M{:.1f},{:.1f} L{:.1f},{:.1f}", a[0] + dir[0] * radius, a[1] + dir[1] * radius,
                             a[0] + dir[0] * len, a[1] + dir[1] * len);
          dashes = " stroke-dasharray=\"4 3\"";
        } else {  // beside the link (to the sender's right), so two directions show as two arrows
          const double dx = b[0] - a[0], dy = b[1] - a[1], d = std::hypot(dx, dy);
          const double ux = dx / d, uy = dy / d, side = layout.grid ? 3.0 : 3.0 + d / 8;
          const double nx = -uy * side, ny = ux * side;
          const double sx = a[0] + ux * radius + nx, sy = a[1] + uy * radius + ny;
          const double ex = b[0] - ux * (radius + 2) + nx, ey = b[1] - uy * (radius + 2) + ny;
          path = layout.grid ? fmt::format("M{:.1f},{:.1f} L{:.1f},{:.1f}", sx, sy, ex, ey)
                             : fmt::format("M{:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f}", sx, sy, (sx + ex) / 2 + nx,
                                           (sy + ey) / 2 + ny, ex, ey);
        }
        sends += fmt::format("<path class=\"send\" data-round=\"{}\" data-node=\"{}\" data-port=\"{}\" d=\"{}\" "
                             "fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} marker-end=\"url(#head)\"/>\n",
                             r, i, q, path, colour, dashes);
      }
    svg += fmt::format("<g class=\"round\" id=\"round{}\"><text x=\"{}\" y=\"{}\" font-size=\"12\">round {} ({} sends)</text>\n",
                       r, ox + margin / 2, oy + kCaption, r, count);
    svg += links + "\n";
    for (int i = 0; i < nodes; ++i) {
      const std::array<double, 2> a = at(i);
      svg += fmt::format("<circle cx=\"{:.0f}\" cy=\"{:.0f}\" r=\"{}\" fill=\"white\" stroke=\"#888888\"/>"
                         "<text x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"8\" text-anchor=\"middle\">{}</text>",
                         a[0], a[1], radius, a[0], a[1] + 3, i);
    }
    svg += "\n" + sends + "</g>\n";
  }
  std::vector<LegendEntry> entries;
  for (int q = 0; q < topology.num_ports(); ++q)
    entries.push_back({fmt::format("<line class=\"key\" x1=\"2\" y1=\"7\" x2=\"24\" y2=\"7\" stroke=\"{}\" "
                                   "stroke-width=\"2\" marker-end=\"url(#head)\"/>",
                                   kPortColours[q % 16]),
                       "a send on " + port_name(topology, q)});
  if (topology.kind() == TopologyKind::Ring || topology.kind() == TopologyKind::Torus)
    entries.push_back({"<line class=\"key\" x1=\"2\" y1=\"7\" x2=\"24\" y2=\"7\" stroke=\"#555555\" stroke-width=\"2\" "
                       "stroke-dasharray=\"4 3\"/>",
                       "a send over a wrap-around link (it enters the far side)"});
  entries.push_back({"<rect class=\"key\" x=\"2\" y=\"1\" width=\"24\" height=\"12\" fill=\"none\" stroke=\"#888888\"/>",
                     rounds == 1 ? std::string("one panel: the table's one row, every round until every node holds every origin")
                                 : fmt::format("a panel per table row (round k); the {} rows repeat until every node holds "
                                               "every origin",
                                               rounds)});
  const Legend legend = legend_strip(entries, 8, drawing_h + 4, width);
  return svg_head(width, drawing_h + 4 + legend.height, title, kTitle, 8, 20) + svg + legend.svg + "</svg>\n";
}

}  // namespace fixroute
