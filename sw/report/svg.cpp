#include "svg.h"

#include <fmt/format.h>

#include <algorithm>

namespace fixroute {

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '&') out += "&amp;";
    else if (ch == '"') out += "&quot;";
    else out += ch;
  }
  return out;
}

int text_width(const std::string& text, int font_size) {
  return static_cast<int>(static_cast<double>(text.size()) * 0.55 * font_size + 0.5);
}

std::string svg_head(int width, int height, const std::string& title, int title_size, int title_x, int title_y) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>\n",
      width, height, width, height, title_x, title_y, title_size, xml_escaped(title));
}

Legend legend_strip(const std::vector<LegendEntry>& entries, int left, int top, int width) {
  constexpr int kFont = 11, kRow = 20, kSymbol = 28, kGap = 18;
  Legend out;
  out.svg = "<g class=\"legend\">\n";
  int x = left, y = top;
  for (const LegendEntry& e : entries) {
    const int w = kSymbol + 6 + text_width(e.label, kFont);
    if (x > left && x + w > width - left) {
      x = left;
      y += kRow;
    }
    out.svg += fmt::format("<g transform=\"translate({},{})\">{}</g><text x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>\n",
                           x, y, e.symbol, x + kSymbol + 6, y + 11, kFont, xml_escaped(e.label));
    x += w + kGap;
  }
  out.svg += "</g>\n";
  out.height = entries.empty() ? 0 : y - top + kRow + 6;
  return out;
}

}  // namespace fixroute
