// What the drawings share: escaping, text widths, the document's head and a legend strip
// (docs/cli.md, `draw`).
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace fixroute {

// The grid drawings' spacing (draw.cpp, draw_trees.cpp): pixels between neighbouring nodes;
// the margin that holds the wrap-around half-links and the title; a wrap-around half-link's
// length (into the margin, short of the panel's edge).
constexpr int kNodePitch = 56;
constexpr int kGridMargin = 48;
constexpr int kWrapHalfLink = kGridMargin - 10;

std::string xml_escaped(const std::string& text);

// Pixels `text` takes at `font_size` in a sans-serif face, on the generous side (0.55 em a
// character): canvases are sized so titles fit.
int text_width(const std::string& text, int font_size);

// The opening tag, white background, and `title` at the top left (escaped).
std::string svg_head(int width, int height, const std::string& title, int title_size, int title_x, int title_y);

// One legend entry: `symbol` drawn in a 28 x 14 box whose top left is (0, 0), then its label.
struct LegendEntry {
  std::string symbol;
  std::string label;
};

// The legend: entries left to right from x = `left`, wrapped to `width`, from y = `top`.
struct Legend {
  std::string svg;
  int height = 0;
};
Legend legend_strip(const std::vector<LegendEntry>& entries, int left, int top, int width);

// One plot axis: linear, or log2 where the values span a factor of 16 or more (over), or
// log10 with a tick per power of ten (decades: the benchmarks' scaling plot).
struct Axis {
  double low = 0, high = 1;
  bool log = false;
  bool decade_ticks = false;
  int from = 0, to = 1;  // pixels of `low` and `high`

  static Axis over(double low, double high, int from, int to);
  // From the power of ten at or below `low` to the one at or above `high` (both > 0).
  static Axis decades(double low, double high, int from, int to);
  double at(double v) const;  // the pixel of `v`
  std::vector<double> ticks() const;
};

// A plot's frame on the pixels of `x` and `y`: the axes, a grid line and a label per tick
// (`x_label`, `y_label`: the tick's text, SVG), and the axes' titles, " (log scale)" added
// to a log axis's.
std::string plot_frame(const Axis& x, const Axis& y, const std::function<std::string(double)>& x_label,
                       const std::function<std::string(double)>& y_label, const std::string& x_title,
                       const std::string& y_title);

}  // namespace fixroute
