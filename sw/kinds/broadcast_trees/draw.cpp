#include "sw/kinds/broadcast_trees/draw.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "sw/core/errors.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/topology/topology.h"
#include "sw/report/svg.h"

namespace fixroute {

namespace {

constexpr int kTitle = 15;   // title font size

// An arc's colour by its round, from blue (round 1) to red (the last).
std::string round_colour(int round, int rounds) {
  const int hue = rounds <= 1 ? 240 : 240 - 240 * (round - 1) / (rounds - 1);
  return fmt::format("hsl({},75%,42%)", hue);
}

// The legend's colour scale: a swatch per round, at most 12 (then evenly spaced rounds).
std::string round_swatch(int rounds) {
  const int shown = std::min(rounds, 12);
  std::string svg;
  for (int k = 0; k < shown; ++k) {
    const int round = shown == 1 ? 1 : 1 + k * (rounds - 1) / (shown - 1);
    svg += fmt::format("<rect class=\"key\" x=\"{}\" y=\"2\" width=\"{}\" height=\"10\" fill=\"{}\"/>", k * 28 / shown,
                       28 / shown + 1, round_colour(round, rounds));
  }
  return svg;
}

std::string torus_tree(const Topology& t, const BroadcastTreeTables& tables, const std::string& title) {
  const int rows = t.dims()[0], cols = t.dims()[1], n = t.num_nodes();
  const int rounds = std::max(1, tables.rounds);
  auto place = [&](int node) {
    const std::vector<int> x = t.coords(node);
    return std::array<int, 2>{kGridMargin + x[1] * kNodePitch, kGridMargin + 24 + x[0] * kNodePitch};
  };
  // The direction an arc leaving by `port` is drawn in (port 2k steps +1 along dimension k).
  auto direction = [](int port) {
    const int sign = port % 2 == 0 ? 1 : -1;
    return port / 2 == 1 ? std::array<int, 2>{sign, 0} : std::array<int, 2>{0, sign};
  };
  std::string svg;
  // every link, thin and grey (a wrap-around one as two dashed halves into the margin)
  for (int i = 0; i < n; ++i)
    for (int port : {0, 2}) {
      const int next = t.neighbour(i, port);
      if (next < 0 || next == i) continue;
      const std::array<int, 2> a = place(i), b = place(next), dir = direction(port);
      if (t.coords(next)[static_cast<size_t>(port / 2)] != 0) {
        svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#cccccc\" stroke-width=\"1\"/>\n", a[0],
                           a[1], b[0], b[1]);
      } else {
        const int len = kWrapHalfLink;
        svg += fmt::format(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#cccccc\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n"
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#cccccc\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n",
            a[0], a[1], a[0] + dir[0] * len, a[1] + dir[1] * len, b[0] - dir[0] * len, b[1] - dir[1] * len, b[0], b[1]);
      }
    }
  // the tree's arcs: from the parent towards the child, the dot at the child, the round at the middle
  for (const GenericArc& arc : tables.generic) {
    const std::array<int, 2> a = place(arc.from), dir = direction(arc.port);
    const bool wraps = t.coords(arc.to)[static_cast<size_t>(arc.port / 2)] != t.coords(arc.from)[static_cast<size_t>(arc.port / 2)] + (arc.port % 2 == 0 ? 1 : -1);
    const std::array<int, 2> b = wraps ? std::array<int, 2>{a[0] + dir[0] * kWrapHalfLink, a[1] + dir[1] * kWrapHalfLink} : place(arc.to);
    const std::string colour = round_colour(arc.level, rounds);
    svg += fmt::format("<line class=\"arc\" data-round=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
                       "stroke-width=\"4\"{}/>\n",
                       arc.level, a[0], a[1], b[0], b[1], colour, wraps ? " stroke-dasharray=\"4 3\"" : "");
    if (wraps) {  // the other half, into the child from the opposite margin
      const std::array<int, 2> c = place(arc.to);
      svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"4\" "
                         "stroke-dasharray=\"4 3\"/>\n",
                         c[0] - dir[0] * kWrapHalfLink, c[1] - dir[1] * kWrapHalfLink, c[0], c[1], colour);
    }
    const std::array<int, 2> c = place(arc.to);
    svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"13\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", c[0],
                       c[1], colour);
    svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"9\" fill=\"{}\">{}</text>\n",
                       a[0] + dir[0] * kNodePitch / 2 + (dir[0] == 0 ? 5 : -3), a[1] + dir[1] * kNodePitch / 2 + (dir[1] == 0 ? -5 : 3),
                       colour, arc.level);
  }
  for (int i = 0; i < n; ++i) {
    const std::array<int, 2> at = place(i);
    svg += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"9\" fill=\"{}\" stroke=\"black\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"8\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
        at[0], at[1], i == 0 ? "black" : "white", at[0], at[1] + 3, i == 0 ? "white" : "black", i);
  }
  const int drawing_h = (rows - 1) * kNodePitch + 2 * kGridMargin + 24;
  const int width = std::max((cols - 1) * kNodePitch + 2 * kGridMargin, kGridMargin + text_width(title, kTitle));
  const std::vector<LegendEntry> entries = {
      {round_swatch(rounds), fmt::format("arc of round 1 (blue) .. {} (red), its round written beside it", rounds)},
      {"<circle cx=\"14\" cy=\"7\" r=\"6\" fill=\"black\"/>", "root: node 0, the origin of the tree drawn"},
      {"<circle cx=\"14\" cy=\"7\" r=\"6\" fill=\"none\" stroke=\"hsl(240,75%,42%)\" stroke-width=\"2\"/>",
       "ring: the node the arc enters"},
      {"<line class=\"key\" x1=\"0\" y1=\"7\" x2=\"28\" y2=\"7\" stroke=\"#555555\" stroke-width=\"3\" stroke-dasharray=\"4 3\"/>",
       "wrap-around link, drawn as two dashed halves"},
      {"<line class=\"key\" x1=\"0\" y1=\"7\" x2=\"28\" y2=\"7\" stroke=\"#cccccc\" stroke-width=\"1\"/>", "link the tree does not use"}};
  const Legend legend = legend_strip(entries, kGridMargin / 2, drawing_h + 4, width);
  return svg_head(width, drawing_h + 4 + legend.height, title, kTitle, kGridMargin / 2, 24) + svg + legend.svg + "</svg>\n";
}

std::string hypercube_table(const Topology& t, const BroadcastTreeTables& tables, const std::string& title) {
  const int dims = t.num_ports();  // one per bit
  const int rounds = std::max(1, tables.rounds);
  std::vector<std::vector<const GenericArc*>> cell(static_cast<size_t>(rounds) + 1,
                                                   std::vector<const GenericArc*>(static_cast<size_t>(dims), nullptr));
  std::vector<int> row_of(static_cast<size_t>(t.num_nodes()), 0);
  for (const GenericArc& arc : tables.generic) {
    cell[static_cast<size_t>(arc.level)][static_cast<size_t>(arc.port)] = &arc;  // one arc per direction per round (the lemma)
    row_of[static_cast<size_t>(arc.to)] = arc.level;
  }
  auto bits = [&](int u) {
    std::string s;
    for (int b = dims - 1; b >= 0; --b) s += ((u >> b) & 1) ? '1' : '0';
    return s;
  };
  const int cell_w = std::max(64, text_width(bits(0), 12) + 40), cell_h = 34, left = 70, top = 60;
  std::string svg;
  for (int j = 0; j < dims; ++j)
    svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">direction {}</text>\n",
                       left + j * cell_w + cell_w / 2, top - 8, j);
  for (int r = 1; r <= rounds; ++r) {
    const int y = top + (r - 1) * cell_h;
    svg += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">round {}</text>\n", left - 8,
                       y + cell_h / 2 + 4, r);
    for (int j = 0; j < dims; ++j) {
      const int x = left + j * cell_w;
      const GenericArc* arc = cell[static_cast<size_t>(r)][static_cast<size_t>(j)];
      svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#999999\"/>\n", x, y,
                         cell_w, cell_h, arc ? "white" : "#eeeeee");
      if (!arc) continue;
      svg += fmt::format(
          "<text class=\"entry\" data-round=\"{}\" data-direction=\"{}\" x=\"{}\" y=\"{}\" font-size=\"12\" "
          "font-family=\"monospace\" text-anchor=\"middle\" fill=\"{}\">{}</text>"
          "<text x=\"{}\" y=\"{}\" font-size=\"8\" text-anchor=\"middle\" fill=\"#555555\">from round {}</text>\n",
          r, j, x + cell_w / 2, y + 15, round_colour(r, rounds), bits(arc->to), x + cell_w / 2, y + 27,
          row_of[static_cast<size_t>(arc->from)]);
    }
  }
  const int drawing_h = top + rounds * cell_h + 8;
  const int width = std::max(left + dims * cell_w + 24, kGridMargin + text_width(title, kTitle));
  const std::vector<LegendEntry> entries = {
      {"<rect class=\"key\" x=\"0\" y=\"0\" width=\"28\" height=\"14\" fill=\"white\" stroke=\"#999999\"/>",
       "the node round r informs across direction j (from node 0); 'from round l': its parent's round (0: the root)"},
      {"<rect class=\"key\" x=\"0\" y=\"0\" width=\"28\" height=\"14\" fill=\"#eeeeee\" stroke=\"#999999\"/>",
       "direction idle in that round"}};
  const Legend legend = legend_strip(entries, 24, drawing_h + 4, width);
  return svg_head(width, drawing_h + 4 + legend.height, title, kTitle, 24, 24) + svg + legend.svg + "</svg>\n";
}

}  // namespace

std::string draw_generic_tree(const Topology& topology, const BroadcastTreeTables& tables, const std::string& title) {
  if (tables.generic.empty())
    throw InputError(fmt::format("draw shows the generic tree of broadcast-tree tables; the {} tables have none "
                                 "(their rows are not translations of one tree)",
                                 tables.algorithm));
  if (topology.kind() == TopologyKind::Torus && topology.dims().size() == 2) return torus_tree(topology, tables, title);
  if (topology.kind() == TopologyKind::Hypercube) return hypercube_table(topology, tables, title);
  throw InputError(fmt::format("draw shows a generic tree on a 2D torus or a hypercube, not on {}", topology.spec()));
}

}  // namespace fixroute
