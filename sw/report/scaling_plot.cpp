#include "scaling_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "svg.h"
#include "sw/core/errors.h"

namespace fixroute {

namespace {

constexpr const char* kEngineColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

double seconds_per_unit(const std::string& unit, const std::string& source) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  throw InputError(fmt::format("{}: unknown time unit '{}'", source, unit));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// 10^e as SVG text: "10" and the exponent raised.
std::string power_of_ten(double v) {
  return fmt::format("10<tspan dy=\"-5\" font-size=\"8\">{}</tspan>", static_cast<int>(std::lround(std::log10(v))));
}

std::string seconds_label(double s) {
  const int e = static_cast<int>(std::lround(std::log10(s)));
  static const char* const kUnits[] = {"ns", "µs", "ms", "s"};
  if (e < -9 || e > 2) return power_of_ten(s) + " s";
  const int unit = e >= 0 ? 3 : (e + 9) / 3;  // -9..-7 ns, -6..-4 us, -3..-1 ms, 0.. s
  const int shown = e >= 0 ? e : e - (unit - 3) * 3;
  return fmt::format("{} {}", static_cast<int64_t>(std::llround(std::pow(10.0, shown))), kUnits[unit]);
}

// The engine a benchmark family times (bench/bench_engines.cpp); other families keep their name.
std::string engine_of(const std::string& family) {
  if (family == "RefVerified") return "ref (verified as it runs)";
  if (family == "Ref") return "ref";
  if (family == "Rtl") return "rtl (router array)";
  if (family == "Systemc") return "systemc";
  return family;
}

}  // namespace

std::string scaling_context(const std::string& json_text) {
  const nlohmann::json doc = nlohmann::json::parse(json_text, nullptr, false);
  if (!doc.is_object() || !doc.contains("context") || !doc["context"].is_object()) return "";
  const nlohmann::json& c = doc["context"];
  std::string out;
  if (c.contains("date") && c["date"].is_string()) out = c["date"].get<std::string>().substr(0, 10);
  if (c.contains("num_cpus") && c["num_cpus"].is_number_integer())
    out += fmt::format("{}{} CPUs", out.empty() ? "" : ", ", c["num_cpus"].get<int64_t>());
  if (c.contains("mhz_per_cpu") && c["mhz_per_cpu"].is_number())
    out += fmt::format(" at {:.0f} MHz", c["mhz_per_cpu"].get<double>());
  return out;
}

std::vector<ScalingPoint> scaling_points(const std::string& json_text, const std::string& source) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not JSON ({})", source, e.what()));
  }
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    throw InputError(fmt::format("{}: not a Google Benchmark output (no \"benchmarks\" list)", source));

  struct Case {
    ScalingPoint point;
    std::vector<double> iteration_seconds;
    bool has_median = false;
  };
  std::vector<std::string> order;
  std::map<std::string, Case> cases;
  for (const nlohmann::json& b : doc["benchmarks"]) {
    if (!b.is_object()) throw InputError(fmt::format("{}: a benchmark entry that is not an object", source));
    const auto number = [&](const char* key) -> std::optional<double> {
      if (!b.contains(key) || !b[key].is_number()) return std::nullopt;
      return b[key].get<double>();
    };
    const std::optional<double> steps = number("steps"), routers = number("routers"), time = number("real_time");
    if (!steps || !routers) continue;
    if (!time || !b.contains("time_unit") || !b["time_unit"].is_string() || !b.contains("run_name") ||
        !b["run_name"].is_string())
      throw InputError(fmt::format("{}: a benchmark entry without run_name, real_time or time_unit", source));
    const std::string run = b["run_name"].get<std::string>();
    const std::string type = b.value("run_type", std::string("iteration"));
    if (type == "aggregate" && b.value("aggregate_name", std::string()) != "median") continue;
    const double seconds = *time * seconds_per_unit(b["time_unit"].get<std::string>(), source);
    auto [it, fresh] = cases.try_emplace(run);
    Case& c = it->second;
    if (fresh) {
      order.push_back(run);
      const size_t slash = run.find('/');
      std::string family = run.substr(0, slash);
      if (family.rfind("BM_", 0) == 0) family = family.substr(3);
      c.point.engine = engine_of(family);
      // the case's own name: without Google Benchmark's "/iterations:1/real_time"
      c.point.work = slash == std::string::npos ? run : run.substr(slash + 1, run.find('/', slash + 1) - slash - 1);
      c.point.router_steps = *steps * *routers;
    }
    if (type == "aggregate") {
      c.point.seconds = seconds;
      c.has_median = true;
    } else {
      c.iteration_seconds.push_back(seconds);
    }
  }
  std::vector<ScalingPoint> out;
  for (const std::string& run : order) {
    Case& c = cases.at(run);
    if (!c.has_median) c.point.seconds = median(c.iteration_seconds);
    if (c.point.router_steps > 0 && c.point.seconds > 0) out.push_back(c.point);
  }
  return out;
}

std::string scaling_svg(const std::vector<ScalingPoint>& points, const std::string& title, const std::string& subtitle) {
  if (points.empty()) throw InputError("no benchmark with the counters steps and routers to plot");
  constexpr int kWidth = 640, kLeft = 72, kRight = 24, kTop = 52, kBottom = 342;
  std::vector<std::string> engines;
  double x_low = 1e300, x_high = 0, y_low = 1e300, y_high = 0;
  for (const ScalingPoint& p : points) {
    if (std::find(engines.begin(), engines.end(), p.engine) == engines.end()) engines.push_back(p.engine);
    x_low = std::min(x_low, p.router_steps);
    x_high = std::max(x_high, p.router_steps);
    y_low = std::min(y_low, p.seconds);
    y_high = std::max(y_high, p.seconds);
  }
  const Axis x = Axis::decades(x_low, x_high, kLeft, kWidth - kRight);
  const Axis y = Axis::decades(y_low, y_high, kBottom, kTop);
  auto colour_of = [&](const std::string& engine) {
    const size_t i = static_cast<size_t>(std::find(engines.begin(), engines.end(), engine) - engines.begin());
    return kEngineColours[i % (sizeof kEngineColours / sizeof *kEngineColours)];
  };

  std::string out;
  if (!subtitle.empty()) out += fmt::format("<text x=\"8\" y=\"38\">{}</text>\n", xml_escaped(subtitle));
  out += plot_frame(x, y, power_of_ten, seconds_label, "router-steps (steps x routers)", "wall time of a run");

  std::vector<LegendEntry> legend;
  for (const std::string& engine : engines) {
    std::vector<const ScalingPoint*> series;
    for (const ScalingPoint& p : points)
      if (p.engine == engine) series.push_back(&p);
    std::stable_sort(series.begin(), series.end(),
                     [](const ScalingPoint* a, const ScalingPoint* b) { return a->router_steps < b->router_steps; });
    const char* colour = colour_of(engine);
    std::string line;
    for (const ScalingPoint* p : series) line += fmt::format("{:.1f},{:.1f} ", x.at(p->router_steps), y.at(p->seconds));
    if (series.size() > 1)
      out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n", colour, line);
    for (const ScalingPoint* p : series)
      out += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" data-engine=\"{}\" data-work=\"{}\" "
          "data-router-steps=\"{:.0f}\" data-seconds=\"{:.6g}\"><title>{} {}: {:.0f} router-steps in {:.3g} s "
          "({:.3g} ns a router-step)</title></circle>\n",
          x.at(p->router_steps), y.at(p->seconds), colour, xml_escaped(p->engine), xml_escaped(p->work),
          p->router_steps, p->seconds, xml_escaped(p->engine), xml_escaped(p->work), p->router_steps, p->seconds,
          p->seconds / p->router_steps * 1e9);
    legend.push_back({fmt::format("<line x1=\"0\" y1=\"7\" x2=\"28\" y2=\"7\" stroke=\"{0}\" stroke-width=\"1.5\"/>"
                                  "<circle cx=\"14\" cy=\"7\" r=\"4\" fill=\"{0}\"/>",
                                  colour),
                      engine});
  }
  const Legend strip = legend_strip(legend, 8, kBottom + 50, kWidth);
  const int height = kBottom + 50 + strip.height;
  return svg_head(kWidth, height, title, 14, 8, 20) + "<g font-size=\"11\">\n" + out + strip.svg + "</g>\n</svg>\n";
}

}  // namespace fixroute
