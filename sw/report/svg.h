// What the drawings share: escaping, text widths, the document's head and a legend strip
// (docs/cli.md, `draw`).
#pragma once
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

}  // namespace fixroute
