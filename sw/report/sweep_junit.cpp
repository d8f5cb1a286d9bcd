#include "sweep_junit.h"

#include <fmt/format.h>

#include <map>

#include "svg.h"

namespace fixroute {

namespace {

std::string case_name(const SweepRow& r) {
  std::string name = r.topology;
  if (!r.permutation.empty()) name += " " + r.permutation;
  name += fmt::format(" {}{} {}", r.port_model == "circuit" ? "" : r.port_model + " ",
                      r.port_model == "circuit" ? "circuit" : r.duplex + (r.combining ? " combining" : ""), r.engine);
  return name;
}

}  // namespace

std::string sweep_junit_xml(const std::vector<SweepRow>& rows) {
  std::map<std::string, std::vector<const SweepRow*>> suites;  // by collective.algorithm, in name order
  for (const SweepRow& r : rows) suites[r.collective + "." + r.algorithm].push_back(&r);
  size_t failures = 0;
  double seconds = 0;
  for (const SweepRow& r : rows) {
    failures += r.ok ? 0 : 1;
    seconds += r.seconds.value_or(0);
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"fixroute sweep\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3f}\">\n",
                     rows.size(), failures, seconds);
  for (const auto& [suite, members] : suites) {
    size_t suite_failures = 0;
    double suite_seconds = 0;
    for (const SweepRow* r : members) {
      suite_failures += r->ok ? 0 : 1;
      suite_seconds += r->seconds.value_or(0);
    }
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.3f}\">\n",
                       xml_escaped(suite), members.size(), suite_failures, suite_seconds);
    for (const SweepRow* r : members) {
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", xml_escaped(suite),
                         xml_escaped(case_name(*r)), r->seconds.value_or(0));
      const std::string steps = r->steps ? std::to_string(*r->steps) : "-";
      const std::string formula = r->formula ? std::to_string(*r->formula) : "-";
      if (r->ok) {
        out += fmt::format(">\n      <system-out>steps {}, formula {}</system-out>\n    </testcase>\n", steps, formula);
        continue;
      }
      std::string detail;
      for (const std::string& line : r->failure) detail += line + "\n";
      out += fmt::format(">\n      <failure message=\"{}\" type=\"verification\">{}</failure>\n    </testcase>\n",
                         xml_escaped(fmt::format("{} steps, formula {}: {}", steps, formula,
                                                 r->failure.empty() ? std::string("not verified") : r->failure.front())),
                         xml_escaped(detail));
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace fixroute
