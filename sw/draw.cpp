#include "draw.h"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "errors.h"
#include "topology.h"

namespace fixroute {

namespace {

constexpr int kPitch = 56;   // pixels between neighbouring nodes
constexpr int kMargin = 48;  // room for the wrap-around half-links and the title
constexpr const char* kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};

}  // namespace

std::string draw_port_rules(const Topology& t, const NetworkTables& tables, const std::string& title) {
  if (t.kind() != TopologyKind::Torus || t.dims().size() != 2)
    throw InputError(fmt::format("draw takes a 2D torus:AxB topology, not {}", t.spec()));
  const int rows = t.dims()[0], cols = t.dims()[1], n = t.num_nodes();
  // Trail of every arc (node, out-port), following the forward masks: what arrives on the
  // in-port q leaves by the first port of its mask.
  // Links no rule forwards along at either end (free links, which may carry taps) are
  // drawn thin and grey.
  auto forwards_on = [&](int node, int port) {
    const auto& ports = tables.routers[static_cast<size_t>(node)].ports;
    return ports[static_cast<size_t>(port)].forward_mask != 0 ||
           ports[static_cast<size_t>(t.reverse_port(node, port))].forward_mask != 0;
  };
  auto free_link = [&](int node, int port) {
    return !forwards_on(node, port) && !forwards_on(t.neighbour(node, port), t.reverse_port(node, port));
  };
  std::vector<std::array<int, 4>> trail(static_cast<size_t>(n), {-1, -1, -1, -1});
  int trails = 0;
  for (int start = 0; start < n; ++start)
    for (int port = 0; port < 4; ++port) {
      if (trail[static_cast<size_t>(start)][static_cast<size_t>(port)] >= 0 || free_link(start, port)) continue;
      int node = start, out = port;
      while (out >= 0 && trail[static_cast<size_t>(node)][static_cast<size_t>(out)] < 0) {
        trail[static_cast<size_t>(node)][static_cast<size_t>(out)] = trails;
        int next = t.neighbour(node, out), in = t.reverse_port(node, out);
        trail[static_cast<size_t>(next)][static_cast<size_t>(in)] = trails;  // the same link
        uint32_t mask = tables.routers[static_cast<size_t>(next)].ports[static_cast<size_t>(in)].forward_mask;
        out = -1;
        for (int q = 0; q < 4; ++q)
          if (mask & (1u << q)) {
            out = q;
            break;
          }
        node = next;
      }
      ++trails;
    }

  const int width = 2 * kMargin + (cols - 1) * kPitch, height = 2 * kMargin + (rows - 1) * kPitch + 24;
  auto x = [&](int c) { return kMargin + c * kPitch; };
  auto y = [&](int r) { return kMargin + 24 + r * kPitch; };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"24\" font-size=\"15\">{}</text>\n",
      width, height, width, height, kMargin / 2, title);
  auto line = [&](int x1, int y1, int x2, int y2, int colour, bool wrap) {
    svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n", x1,
                       y1, x2, y2, colour < 0 ? "#bbbbbb" : kColours[colour % 6], colour < 0 ? 1 : 4,
                       wrap ? " stroke-dasharray=\"4 3\"" : "");
  };
  const int half_link = kMargin - 10;
  for (int i = 0; i < n; ++i) {
    const int r = i / cols, c = i % cols;
    const int east = trail[static_cast<size_t>(i)][2], south = trail[static_cast<size_t>(i)][0];
    if (c + 1 < cols) {
      line(x(c), y(r), x(c + 1), y(r), east, false);
    } else {  // wrap-around link: a dashed half-link on each side
      line(x(c), y(r), x(c) + half_link, y(r), east, true);
      line(x(0) - half_link, y(r), x(0), y(r), east, true);
    }
    if (r + 1 < rows) {
      line(x(c), y(r), x(c), y(r + 1), south, false);
    } else {
      line(x(c), y(r), x(c), y(r) + half_link, south, true);
      line(x(c), y(0) - half_link, x(c), y(0), south, true);
    }
  }
  // Out-of-cycle feeds (the paper's Figure 1, right): a tap of X's port towards C is an
  // arrow into C in the colour of the cycle it feeds from.
  for (int i = 0; i < n; ++i)
    for (int port = 0; port < 4; ++port) {
      const PortRule& rule = tables.routers[static_cast<size_t>(i)].ports[static_cast<size_t>(port)];
      const int source = rule.tap_first >= 0 ? rule.tap_first : rule.tap_second;
      if (source < 0) continue;
      const int to = t.neighbour(i, port);
      const int dx = port == 2 ? 1 : port == 3 ? -1 : 0, dy = port == 0 ? 1 : port == 1 ? -1 : 0;
      const int cx = x(to % cols), cy = y(to / cols);
      const char* colour = kColours[trail[static_cast<size_t>(i)][static_cast<size_t>(source)] % 6];
      svg += fmt::format(
          "<line class=\"feed\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>"
          "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>\n",
          cx - dx * kPitch / 2, cy - dy * kPitch / 2, cx - dx * 12, cy - dy * 12, colour, cx - dx * 12, cy - dy * 12,
          colour);
    }
  for (int i = 0; i < n; ++i)
    svg += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"9\" fill=\"white\" stroke=\"black\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"8\" text-anchor=\"middle\">{}</text>\n",
        x(i % cols), y(i / cols), x(i % cols), y(i / cols) + 3, i);
  svg += "</svg>\n";
  return svg;
}

}  // namespace fixroute
