#include "sweep_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "svg.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

constexpr const char* kFamilyColours[] = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
                                          "#17becf", "#bcbd22", "#7f7f7f", "#ff7f0e", "#393b79"};
constexpr const char* kFormulaColour = "#222222";
constexpr const char* kTheoremColour = "#ff7f0e";
constexpr const char* kBoundColour = "#999999";
constexpr const char* kAboveColour = "#d62728";

// The topology's family: its spec with every number written n (torus:nxn, otis:ring:n).
std::string family_of(const std::string& spec) {
  std::string out;
  for (size_t i = 0; i < spec.size();) {
    if (std::isdigit(static_cast<unsigned char>(spec[i]))) {
      out += 'n';
      while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) ++i;
    } else {
      out += spec[i++];
    }
  }
  return out;
}

std::string text_of(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string("-"); }

// What makes two rows the same case on different engines.
using CaseKey = std::tuple<std::string, std::string, std::string, std::string, std::string, bool, std::string>;
CaseKey case_of(const SweepRow& r) {
  return {r.topology, r.collective, r.algorithm, r.port_model, r.duplex, r.combining, r.permutation};
}

// A plot's group: one collective, algorithm and port model.
using GroupKey = std::tuple<std::string, std::string, std::string, std::string, bool>;
GroupKey group_of(const SweepRow& r) { return {r.collective, r.algorithm, r.port_model, r.duplex, r.combining}; }
std::string group_title(const GroupKey& g) {
  return fmt::format("{} · {} · {}/{}{}", std::get<0>(g), std::get<1>(g), std::get<2>(g), std::get<3>(g),
                     std::get<4>(g) ? " · combining" : "");
}
std::string group_id(const GroupKey& g) {
  std::string id = fmt::format("plot-{}-{}-{}-{}{}", std::get<0>(g), std::get<1>(g), std::get<2>(g), std::get<3>(g),
                               std::get<4>(g) ? "-combining" : "");
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') c = '-';
  return id;
}

std::string tick_label(double v) { return fmt::format("{}", static_cast<int64_t>(std::llround(v))); }

struct PlotPoint {
  const SweepRow* row;
  int nodes;
};

constexpr int kPlotWidth = 560;
constexpr int kLeft = 56, kRight = 16, kTop = 16, kAxisBottom = 250;

std::string plot_svg(const std::vector<PlotPoint>& points, const std::vector<std::string>& engines) {
  // Families in order of first appearance, each a colour.
  std::vector<std::string> families;
  for (const PlotPoint& p : points) {
    const std::string f = family_of(p.row->topology);
    if (std::find(families.begin(), families.end(), f) == families.end()) families.push_back(f);
  }
  auto colour_of = [&](const std::string& family) {
    const size_t i = static_cast<size_t>(std::find(families.begin(), families.end(), family) - families.begin());
    return kFamilyColours[i % (sizeof kFamilyColours / sizeof *kFamilyColours)];
  };
  double x_low = 1e300, x_high = 0, y_low = 1e300, y_high = 0;
  auto cover_y = [&](const std::optional<int64_t>& v) {
    if (!v) return;
    y_low = std::min(y_low, static_cast<double>(*v));
    y_high = std::max(y_high, static_cast<double>(*v));
  };
  for (const PlotPoint& p : points) {
    x_low = std::min(x_low, static_cast<double>(p.nodes));
    x_high = std::max(x_high, static_cast<double>(p.nodes));
    cover_y(p.row->steps);
    cover_y(p.row->formula);
    cover_y(p.row->paper_formula);
    cover_y(p.row->lower_bound);
  }
  const Axis x = Axis::over(x_low, x_high, kLeft, kPlotWidth - kRight);
  const Axis y = Axis::over(y_low, y_high, kAxisBottom, kTop);

  std::string out;  // the drawing; the head comes last, once the legend's height is known
  out += plot_frame(x, y, tick_label, tick_label, "nodes", "steps");

  // The formula, theorem and bound of each case, as one line per family through the cases
  // in order of size.
  struct Series {
    const char* name;
    const char* colour;
    const char* dash;
    std::optional<int64_t> SweepRow::*value;
  };
  const Series series[] = {{"bound", kBoundColour, "2 3", &SweepRow::lower_bound},
                           {"theorem", kTheoremColour, "6 4", &SweepRow::paper_formula},
                           {"formula", kFormulaColour, "", &SweepRow::formula}};
  for (const Series& s : series)
    for (const std::string& family : families) {
      std::vector<std::pair<int, int64_t>> at;  // (nodes, value), one per case
      std::set<std::pair<std::string, std::string>> seen;
      for (const PlotPoint& p : points) {
        const std::optional<int64_t>& v = p.row->*s.value;
        if (!v || family_of(p.row->topology) != family) continue;
        if (!seen.insert({p.row->topology, p.row->permutation}).second) continue;
        at.emplace_back(p.nodes, *v);
      }
      if (at.empty()) continue;
      std::sort(at.begin(), at.end());
      std::string path;
      for (const auto& [n, v] : at)
        path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "" : " ", x.at(n), y.at(static_cast<double>(v)));
      const char* width = s.colour == kFormulaColour ? "1.2" : "1.5";
      out += fmt::format("<polyline class=\"series {}\" data-family=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{}\" "
                         "stroke-width=\"{}\"{}/>\n",
                         s.name, xml_escaped(family), path, s.colour, width,
                         *s.dash ? fmt::format(" stroke-dasharray=\"{}\"", s.dash) : "");
      if (at.size() == 1)  // a lone case: a tick mark, since a one-point line draws nothing
        out += fmt::format("<line class=\"series {}\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
                           "stroke-width=\"2\"/>\n",
                           s.name, x.at(at[0].first) - 8, y.at(static_cast<double>(at[0].second)),
                           x.at(at[0].first) + 8, y.at(static_cast<double>(at[0].second)), s.colour);
    }

  // A point per row; the engines side by side at the same size.
  for (const PlotPoint& p : points) {
    const SweepRow& r = *p.row;
    const double shift =
        (static_cast<double>(std::find(engines.begin(), engines.end(), r.engine) - engines.begin()) -
         (static_cast<double>(engines.size()) - 1) / 2) * 3.5;
    const bool above = r.meets_paper.has_value() && !*r.meets_paper;
    const std::string cls = std::string("point") + (above ? " above" : "") + (r.ok ? "" : " failed");
    out += fmt::format(
        "<circle class=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.2\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\" "
        "data-topology=\"{}\" data-engine=\"{}\" data-permutation=\"{}\" data-steps=\"{}\">"
        "<title>{} on {}{}: {} steps (formula {}, theorem {}, bound {}){}</title></circle>\n",
        cls, x.at(p.nodes) + shift, y.at(static_cast<double>(*r.steps)), r.ok ? colour_of(family_of(r.topology)) : "white",
        above || !r.ok ? kAboveColour : "none", above || !r.ok ? 2 : 0, xml_escaped(r.topology), xml_escaped(r.engine),
        xml_escaped(r.permutation), *r.steps, xml_escaped(r.topology), xml_escaped(r.engine),
        r.permutation.empty() ? "" : " " + xml_escaped(r.permutation), *r.steps, text_of(r.formula),
        text_of(r.paper_formula), text_of(r.lower_bound),
        above ? ", above the theorem" : r.ok ? "" : ", FAILED verification");
  }

  // The legend: families, then the lines.
  std::vector<LegendEntry> entries;
  for (const std::string& f : families)
    entries.push_back({fmt::format("<circle class=\"key\" cx=\"14\" cy=\"7\" r=\"4\" fill=\"{}\"/>", colour_of(f)), f});
  std::set<std::string> drawn;
  for (const PlotPoint& p : points) {
    if (p.row->formula) drawn.insert("formula");
    if (p.row->paper_formula) drawn.insert("theorem");
    if (p.row->lower_bound) drawn.insert("bound");
    if (p.row->meets_paper.has_value() && !*p.row->meets_paper) drawn.insert("above");
  }
  auto key_line = [](const char* colour, const char* dash) {
    return fmt::format("<line class=\"key\" x1=\"0\" y1=\"7\" x2=\"28\" y2=\"7\" stroke=\"{}\" stroke-width=\"1.5\"{}/>",
                       colour, *dash ? fmt::format(" stroke-dasharray=\"{}\"", dash) : "");
  };
  if (drawn.count("formula")) entries.push_back({key_line(kFormulaColour, ""), "formula the tables must hit"});
  if (drawn.count("theorem")) entries.push_back({key_line(kTheoremColour, "6 4"), "the paper's theorem"});
  if (drawn.count("bound")) entries.push_back({key_line(kBoundColour, "2 3"), "lower bound"});
  if (drawn.count("above"))
    entries.push_back({fmt::format("<circle class=\"key\" cx=\"14\" cy=\"7\" r=\"4\" fill=\"white\" stroke=\"{}\" "
                                   "stroke-width=\"2\"/>",
                                   kAboveColour),
                       "above the theorem"});
  const Legend legend = legend_strip(entries, 8, kAxisBottom + 40, kPlotWidth);
  const int height = kAxisBottom + 40 + legend.height;
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"{0}\" height=\"{1}\" "
                     "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"11\">\n"
                     "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
                     kPlotWidth, height) +
         out + legend.svg + "</svg>\n";
}

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 32px; } h3 { font-size: 14px; margin: 8px 0 4px; }
.plots { display: flex; flex-wrap: wrap; gap: 16px; }
.plot-box { border: 1px solid #ddd; padding: 6px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
.bad { color: #d62728; font-weight: bold; }
nav a { margin-right: 12px; }
)";

}  // namespace

std::string sweep_report_html(const std::vector<SweepRow>& rows, const std::vector<ReportDrawing>& drawings) {
  std::vector<std::string> engines;
  for (const SweepRow& r : rows)
    if (std::find(engines.begin(), engines.end(), r.engine) == engines.end()) engines.push_back(r.engine);
  size_t failed = 0, above = 0;
  for (const SweepRow& r : rows) {
    failed += r.ok ? 0 : 1;
    above += r.meets_paper.has_value() && !*r.meets_paper ? 1 : 0;
  }
  std::map<std::string, int> nodes_of;  // by topology spec
  for (const SweepRow& r : rows)
    if (!nodes_of.count(r.topology)) nodes_of[r.topology] = Topology::parse(r.topology).num_nodes();

  std::string out = "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                    "<meta charset=\"utf-8\"/>\n<title>fixroute sweep report</title>\n<style>" +
                    std::string(kStyle) + "</style>\n</head>\n<body>\n";
  std::string engine_list;
  for (const std::string& e : engines) engine_list += (engine_list.empty() ? "" : ", ") + xml_escaped(e);
  out += "<h1>fixroute sweep report</h1>\n";
  out += fmt::format("<p id=\"summary\">{} rows on {} engine(s) ({}): {} verified, <span class=\"{}\">{} failed</span>; "
                     "{} row(s) above the paper's theorem.</p>\n",
                     rows.size(), engines.size(), engine_list, rows.size() - failed, failed ? "bad" : "", failed, above);
  out += "<nav><a href=\"#plots\">steps against size</a><a href=\"#agreement\">engine agreement</a>"
         "<a href=\"#slowest\">slowest runs</a><a href=\"#above\">above the theorem</a>"
         "<a href=\"#drawings\">drawings</a></nav>\n";

  // Plots, one per group in the order the sweep ran them.
  std::vector<GroupKey> groups;
  std::map<GroupKey, std::vector<PlotPoint>> points;
  for (const SweepRow& r : rows) {
    const GroupKey g = group_of(r);
    if (!points.count(g)) groups.push_back(g);
    auto& list = points[g];
    if (r.steps) list.push_back({&r, nodes_of[r.topology]});
  }
  out += "<h2 id=\"plots\">Steps against network size</h2>\n<p>Each point is one row of the CSV (one case on one "
         "engine, engines side by side); its colour is the topology family. Lines join the cases of a family in "
         "order of size. Hover a point for its numbers.</p>\n<div class=\"plots\">\n";
  for (const GroupKey& g : groups) {
    const std::vector<PlotPoint>& list = points[g];
    out += fmt::format("<div class=\"plot-box\" id=\"{}\"><h3>{}</h3>\n", group_id(g), xml_escaped(group_title(g)));
    if (list.empty())
      out += "<p>no row has a step count</p>\n";
    else
      out += plot_svg(list, engines);
    out += "</div>\n";
  }
  out += "</div>\n";

  // Engine agreement: on the cases both ran, how many ended verified with the same steps.
  std::map<CaseKey, std::map<std::string, const SweepRow*>> by_case;
  for (const SweepRow& r : rows) by_case[case_of(r)][r.engine] = &r;
  out += "<h2 id=\"agreement\">Engine agreement</h2>\n<p>Cell (A, B): of the cases both engines ran, how many both "
         "verified with the same step count; on the diagonal, the engine's verified rows of all it ran.</p>\n"
         "<table class=\"agreement\">\n<tr><th class=\"name\"></th>";
  for (const std::string& e : engines) out += fmt::format("<th>{}</th>", xml_escaped(e));
  out += "</tr>\n";
  for (const std::string& a : engines) {
    out += fmt::format("<tr><th class=\"name\">{}</th>", xml_escaped(a));
    for (const std::string& b : engines) {
      size_t both = 0, agree = 0;
      for (const auto& [key, ran] : by_case) {
        const auto ia = ran.find(a), ib = ran.find(b);
        if (ia == ran.end() || ib == ran.end()) continue;
        ++both;
        const SweepRow &ra = *ia->second, &rb = *ib->second;
        agree += ra.ok && rb.ok && ra.steps == rb.steps ? 1 : 0;
      }
      out += fmt::format("<td class=\"{}\" data-both=\"{}\" data-agree=\"{}\">{} / {}</td>", agree == both ? "" : "bad",
                         both, agree, agree, both);
    }
    out += "</tr>\n";
  }
  out += "</table>\n";

  // The slowest runs.
  std::vector<const SweepRow*> timed;
  for (const SweepRow& r : rows)
    if (r.seconds) timed.push_back(&r);
  std::sort(timed.begin(), timed.end(), [](const SweepRow* a, const SweepRow* b) { return *a->seconds > *b->seconds; });
  out += "<h2 id=\"slowest\">Slowest runs</h2>\n";
  if (timed.empty()) {
    out += "<p>No run times were recorded (a CSV alone carries none).</p>\n";
  } else {
    double total = 0;
    for (const SweepRow* r : timed) total += *r->seconds;
    out += fmt::format("<p>{} timed runs, {:.1f} s in all (wall clock, tables built, run and verified).</p>\n"
                       "<table class=\"slowest\">\n<tr><th class=\"name\">topology</th><th class=\"name\">collective"
                       "</th><th class=\"name\">algorithm</th><th class=\"name\">engine</th><th>steps</th>"
                       "<th>seconds</th></tr>\n",
                       timed.size(), total);
    for (size_t i = 0; i < std::min<size_t>(timed.size(), 12); ++i) {
      const SweepRow& r = *timed[i];
      out += fmt::format("<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td>"
                         "<td class=\"name\">{}</td><td>{}</td><td>{:.3f}</td></tr>\n",
                         xml_escaped(r.topology), xml_escaped(r.collective), xml_escaped(r.algorithm),
                         xml_escaped(r.engine), text_of(r.steps), *r.seconds);
    }
    out += "</table>\n";
  }

  // Rows above the paper's theorem (meets_paper false), and failed rows.
  out += "<h2 id=\"above\">Above the paper's theorem</h2>\n";
  std::vector<const SweepRow*> flagged;
  for (const SweepRow& r : rows)
    if ((r.meets_paper.has_value() && !*r.meets_paper) || !r.ok) flagged.push_back(&r);
  if (flagged.empty()) {
    out += "<p>Every row meets the paper's theorem where it has one, and every row verified.</p>\n";
  } else {
    out += fmt::format("<p>{} row(s): the construction's count is measured exactly, but the paper states fewer steps "
                       "(or the run failed verification).</p>\n<details><summary>the rows</summary>\n"
                       "<table class=\"above\">\n<tr><th class=\"name\">topology</th><th class=\"name\">algorithm</th>"
                       "<th class=\"name\">ports</th><th class=\"name\">engine</th><th>steps</th><th>theorem</th>"
                       "<th>bound</th><th class=\"name\">verified</th></tr>\n",
                       flagged.size());
    for (const SweepRow* r : flagged)
      out += fmt::format("<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}/{}</td>"
                         "<td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"name{}\">{}</td></tr>\n",
                         xml_escaped(r->topology), xml_escaped(r->algorithm), r->port_model, r->duplex,
                         xml_escaped(r->engine), text_of(r->steps), text_of(r->paper_formula ? r->paper_formula : r->formula),
                         text_of(r->lower_bound), r->ok ? "" : " bad", r->ok ? "yes" : "FAILED");
    out += "</table>\n</details>\n";
  }

  out += "<h2 id=\"drawings\">Drawings of small cases</h2>\n";
  if (drawings.empty()) {
    out += "<p>None: no swept algorithm has a drawable small case.</p>\n";
  } else {
    out += "<ul>\n";
    for (const ReportDrawing& d : drawings)
      out += fmt::format("<li><a href=\"{}\">{}</a></li>\n", xml_escaped(d.file), xml_escaped(d.title));
    out += "</ul>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace fixroute
