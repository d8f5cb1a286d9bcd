#include "svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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

Axis Axis::over(double low, double high, int from, int to) {
  Axis a;
  a.from = from;
  a.to = to;
  a.log = low >= 1 && high / low >= 16;
  if (a.log) {
    a.low = std::pow(2.0, std::floor(std::log2(low)));
    a.high = std::pow(2.0, std::ceil(std::log2(high)));
  } else {
    a.low = std::min(0.0, low);
    a.high = high > a.low ? high * 1.05 : a.low + 1;
  }
  return a;
}

Axis Axis::decades(double low, double high, int from, int to) {
  Axis a;
  a.from = from;
  a.to = to;
  a.log = a.decade_ticks = true;
  a.low = std::pow(10.0, std::floor(std::log10(low)));
  a.high = std::pow(10.0, std::ceil(std::log10(high)));
  if (a.high <= a.low) a.high = a.low * 10;
  return a;
}

double Axis::at(double v) const {
  const double t = log ? (std::log2(v) - std::log2(low)) / (std::log2(high) - std::log2(low)) : (v - low) / (high - low);
  return from + t * (to - from);
}

std::vector<double> Axis::ticks() const {
  std::vector<double> out;
  if (decade_ticks) {
    const int first = static_cast<int>(std::lround(std::log10(low))), last = static_cast<int>(std::lround(std::log10(high)));
    for (int e = first; e <= last; ++e) out.push_back(std::pow(10.0, e));
    return out;
  }
  if (log) {
    const int first = static_cast<int>(std::lround(std::log2(low))), last = static_cast<int>(std::lround(std::log2(high)));
    const int stride = (last - first) > 8 ? 2 : 1;
    for (int e = first; e <= last; e += stride) out.push_back(std::pow(2.0, e));
    return out;
  }
  const double raw = (high - low) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  for (double v = std::ceil(low / step) * step; v <= high + 1e-9; v += step) out.push_back(v);
  return out;
}

std::string plot_frame(const Axis& x, const Axis& y, const std::function<std::string(double)>& x_label,
                       const std::function<std::string(double)>& y_label, const std::string& x_title,
                       const std::string& y_title) {
  const int left = x.from, right = x.to, bottom = y.from, top = y.to;
  std::string out = fmt::format("<g class=\"axes\" stroke=\"#444\"><line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>"
                                "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{3}\"/></g>\n",
                                left, bottom, right, top);
  for (double t : x.ticks())
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#eee\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
                       x.at(t), bottom, top, bottom + 15, x_label(t));
  for (double t : y.ticks())
    out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#eee\"/>"
                       "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
                       left, y.at(t), right, left - 4, y.at(t) + 4, y_label(t));
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n", (left + right) / 2, bottom + 32,
                     xml_escaped(x_title), x.log ? " (log scale)" : "");
  out += fmt::format("<text transform=\"translate(14,{}) rotate(-90)\" text-anchor=\"middle\">{}{}</text>\n",
                     (top + bottom) / 2, xml_escaped(y_title), y.log ? " (log scale)" : "");
  return out;
}

}  // namespace fixroute
