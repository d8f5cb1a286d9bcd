#include "sw/kinds/port_rules/draw.h"

#include <fmt/format.h>

#include <algorithm>

#include <array>
#include <vector>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "sw/report/svg.h"

namespace fixroute {

namespace {

// Lengths of the dashed half-links: a wrap-around one (kWrapHalfLink, svg.h) reaches into the margin but stops
// short of the panel's edge; one to the next panel (3D, 4D) is a third of the pitch, short
// enough not to reach a neighbouring node. A feed arrow starts halfway to the supplier
// along a link in the panel, at the half-link's end across panels.
constexpr int kPanelHalfLink = kNodePitch / 3;
constexpr int kFeedInPanel = kNodePitch / 2;
constexpr const char* kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};

// A legend symbol's line (class "key": not one of the drawing's links).
std::string key_line(int x1, int y1, int x2, int y2, const char* colour, int width, bool dashed) {
  return fmt::format("<line class=\"key\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>",
                     x1, y1, x2, y2, colour, width, dashed ? " stroke-dasharray=\"4 3\"" : "");
}

std::vector<LegendEntry> port_rules_legend(int trails, int closed, bool any_free, bool any_feed, int dims) {
  std::vector<LegendEntry> out;
  const char* what = closed == trails ? "cycle" : "trail";
  if (trails <= 6) {
    for (int k = 0; k < trails; ++k)
      out.push_back({key_line(0, 7, 28, 7, kColours[k], 4, false), fmt::format("{} {} of the port rules", what, k + 1)});
  } else {
    std::string swatch;
    for (int k = 0; k < 6; ++k) swatch += key_line(k * 5, 7, k * 5 + 5, 7, kColours[k], 4, false);
    out.push_back({swatch, fmt::format("{} {}s of the port rules, a colour each (colours repeat)", trails, what)});
  }
  if (any_free) out.push_back({key_line(0, 7, 28, 7, "#bbbbbb", 1, false), "free link: no rule forwards along it"});
  out.push_back({key_line(0, 7, 28, 7, "#555555", 4, true),
                 dims == 2 ? "wrap-around link, drawn as two dashed halves"
                           : "wrap-around link, or a link to the next panel, as dashed halves"});
  if (any_feed)
    out.push_back({key_line(0, 7, 22, 7, kColours[0], 2, false) +
                       fmt::format("<circle cx=\"22\" cy=\"7\" r=\"3\" fill=\"{}\"/>", kColours[0]),
                   "feed: a tap into the node at the dot, in the colour of the cycle tapped"});
  out.push_back({"<circle cx=\"14\" cy=\"7\" r=\"6\" fill=\"white\" stroke=\"black\"/>", "router, by node id"});
  return out;
}

}  // namespace

std::string draw_port_rules(const Topology& t, const NetworkTables& tables, const std::string& title) {
  const int d = static_cast<int>(t.dims().size());
  if (t.kind() != TopologyKind::Torus || d < 2 || d > 4)
    throw InputError(fmt::format("draw takes a torus:AxB[xC[xD]] topology (2 to 4 dimensions), not {}", t.spec()));
  const int rows = t.dims()[static_cast<size_t>(d - 2)], cols = t.dims()[static_cast<size_t>(d - 1)];
  const int n = t.num_nodes(), ports = t.num_ports();
  // Trail of every arc (node, out-port), following the forward masks: what arrives on the
  // in-port q leaves by the first port of its mask.
  // Links no rule forwards along at either end (free links, which may carry taps) are
  // drawn thin and grey.
  auto forwards_on = [&](int node, int port) {  // something arriving on `port` leaves, or leaves by it
    const auto& rules = tables.routers[static_cast<size_t>(node)].ports;
    if (rules[static_cast<size_t>(port)].forward_mask != 0) return true;
    return std::any_of(rules.begin(), rules.end(), [&](const auto& r) { return (r.forward_mask >> port) & 1u; });
  };
  auto free_link = [&](int node, int port) {
    return !forwards_on(node, port) && !forwards_on(t.neighbour(node, port), t.reverse_port(node, port));
  };
  std::vector<std::vector<int>> trail(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(ports), -1));
  int trails = 0, closed_trails = 0;
  for (int start = 0; start < n; ++start)
    for (int port = 0; port < ports; ++port) {
      if (trail[static_cast<size_t>(start)][static_cast<size_t>(port)] >= 0 || free_link(start, port)) continue;
      int node = start, out = port;
      while (out >= 0 && trail[static_cast<size_t>(node)][static_cast<size_t>(out)] < 0) {
        trail[static_cast<size_t>(node)][static_cast<size_t>(out)] = trails;
        int next = t.neighbour(node, out), in = t.reverse_port(node, out);
        trail[static_cast<size_t>(next)][static_cast<size_t>(in)] = trails;  // the same link
        uint32_t mask = tables.routers[static_cast<size_t>(next)].ports[static_cast<size_t>(in)].forward_mask;
        out = -1;
        for (int q = 0; q < ports; ++q)
          if (mask & (1u << q)) {
            out = q;
            break;
          }
        node = next;
      }
      closed_trails += out == port && node == start ? 1 : 0;  // came back round to its first arc
      ++trails;
    }

  // 3D and 4D: one panel of the last two dimensions per value of the others, side by side
  // along the third-last, stacked along the fourth-last; links across panels are drawn
  // as dashed half-links, diagonally (down-right to the next panel side by side,
  // down-left to the next one below).
  const int across = d >= 3 ? t.dims()[static_cast<size_t>(d - 3)] : 1, down = d >= 4 ? t.dims()[0] : 1;
  const int panel_w = (cols - 1) * kNodePitch + 2 * kGridMargin, panel_h = (rows - 1) * kNodePitch + 2 * kGridMargin;
  const int drawing_h = down * panel_h + 24;
  auto place = [&](int node) {
    const std::vector<int> x = t.coords(node);
    const int pa = d >= 3 ? x[static_cast<size_t>(d - 3)] : 0, pd = d >= 4 ? x[0] : 0;
    return std::array<int, 2>{pa * panel_w + kGridMargin + x[static_cast<size_t>(d - 1)] * kNodePitch,
                              pd * panel_h + kGridMargin + 24 + x[static_cast<size_t>(d - 2)] * kNodePitch};
  };
  // The unit direction a link along dimension k is drawn in, from the node.
  auto direction = [&](int k) {
    if (k == d - 1) return std::array<int, 2>{1, 0};
    if (k == d - 2) return std::array<int, 2>{0, 1};
    if (k == d - 3) return std::array<int, 2>{1, 1};
    return std::array<int, 2>{-1, 1};
  };
  std::string svg;
  auto line = [&](int x1, int y1, int x2, int y2, int colour, bool wrap) {
    svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", x1,
                       y1, x2, y2, colour < 0 ? "#bbbbbb" : kColours[colour % 6], colour < 0 ? 1 : 4,
                       wrap ? " stroke-dasharray=\"4 3\"" : "");
  };
  for (int i = 0; i < n; ++i) {
    const std::array<int, 2> at = place(i);
    for (int k = 0; k < d; ++k) {
      const int port = 2 * k, next = t.neighbour(i, port), colour = trail[static_cast<size_t>(i)][static_cast<size_t>(port)];
      const std::array<int, 2> dir = direction(k), there = place(next);
      const bool in_panel = k >= d - 2, wraps = t.coords(next)[static_cast<size_t>(k)] == 0;
      if (in_panel && !wraps) {
        line(at[0], at[1], there[0], there[1], colour, false);
      } else {  // a dashed half-link on each side: the wrap-around, or the way to the next panel
        const int len = in_panel ? kWrapHalfLink : kPanelHalfLink;
        line(at[0], at[1], at[0] + dir[0] * len, at[1] + dir[1] * len, colour, true);
        line(there[0] - dir[0] * len, there[1] - dir[1] * len, there[0], there[1], colour, true);
      }
    }
  }
  // Out-of-cycle feeds (the paper's Figure 1, right): a tap of X's port towards C is an
  // arrow into C in the colour of the cycle it feeds from.
  for (int i = 0; i < n; ++i)
    for (int port = 0; port < ports; ++port) {
      const PortRule& rule = tables.routers[static_cast<size_t>(i)].ports[static_cast<size_t>(port)];
      const int source = rule.tap_first >= 0 ? rule.tap_first : rule.tap_second;
      if (source < 0) continue;
      const int to = t.neighbour(i, port);
      std::array<int, 2> dir = direction(port / 2);  // from the supplier towards the fed node
      if (port % 2 == 1) dir = {-dir[0], -dir[1]};
      const std::array<int, 2> c = place(to);
      const int reach = port / 2 >= d - 2 ? kFeedInPanel : kPanelHalfLink;
      const char* colour = kColours[trail[static_cast<size_t>(i)][static_cast<size_t>(source)] % 6];
      svg += fmt::format(
          "<line class=\"feed\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>"
          "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>\n",
          c[0] - dir[0] * reach, c[1] - dir[1] * reach, c[0] - dir[0] * 12, c[1] - dir[1] * 12, colour,
          c[0] - dir[0] * 12, c[1] - dir[1] * 12, colour);
    }
  for (int i = 0; i < n; ++i) {
    const std::array<int, 2> at = place(i);
    svg += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"9\" fill=\"white\" stroke=\"black\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"8\" text-anchor=\"middle\">{}</text>\n",
        at[0], at[1], at[0], at[1] + 3, i);
  }

  bool any_free = false, any_feed = false;
  for (int i = 0; i < n; ++i)
    for (int port = 0; port < ports; ++port) {
      any_free = any_free || trail[static_cast<size_t>(i)][static_cast<size_t>(port)] < 0;
      const PortRule& rule = tables.routers[static_cast<size_t>(i)].ports[static_cast<size_t>(port)];
      any_feed = any_feed || rule.tap_first >= 0 || rule.tap_second >= 0;
    }
  const int width = std::max(across * panel_w, kGridMargin + text_width(title, 15));
  const Legend legend = legend_strip(port_rules_legend(trails, closed_trails, any_free, any_feed, d), kGridMargin / 2,
                                     drawing_h + 4, width);
  return svg_head(width, drawing_h + 4 + legend.height, title, 15, kGridMargin / 2, 24) + svg + legend.svg + "</svg>\n";
}

}  // namespace fixroute
