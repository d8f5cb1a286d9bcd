// Small helpers shared by the test suites.
#pragma once
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "sw/schedulers/port_rules.h"
#include "sw/kinds/port_rules/draw.h"
#include "sw/report/draw.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/topology/topology.h"

namespace fixroute::testing_support {

// A GoogleTest parameter name from any text ("torus:5x7" -> "torus_5x7").
inline std::string test_name(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return text;
}

// The whole content of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Links of an SVG from `fixroute draw` in stroke `colour`: solid <line x1...> elements
// count one, dashed wrap-around half-links one half (feed arrows are not links).
inline int drawn_links(const std::string& svg, const std::string& colour) {
  int solid = 0, halves = 0;
  for (size_t at = svg.find("<line x1"); at != std::string::npos; at = svg.find("<line x1", at + 1)) {
    std::string element = svg.substr(at, svg.find("/>", at) - at);
    if (element.find("stroke=\"" + colour + "\"") == std::string::npos) continue;
    (element.find("dasharray") == std::string::npos ? solid : halves)++;
  }
  return solid + halves / 2;
}

// The number of feed arrows in a drawing (draw.h marks each with class="feed").
inline int drawn_feeds(const std::string& svg) {
  const std::string mark = "class=\"feed\"";
  int n = 0;
  for (size_t at = svg.find(mark); at != std::string::npos; at = svg.find(mark, at + 1)) ++n;
  return n;
}

// A gossip algorithm's tables on a torus, drawn as `fixroute draw` draws them.
struct GossipDrawing {
  Topology topology;
  NetworkTables tables;
  std::string svg;
  int links(const std::string& colour) const { return drawn_links(svg, colour); }
  int feeds() const { return drawn_feeds(svg); }
};

inline GossipDrawing draw_gossip(const std::string& spec, const std::string& algorithm) {
  GossipDrawing d{Topology::parse(spec), {}, {}};
  d.tables = build_tables(find_algorithm("gossip", algorithm, d.topology), d.topology, {});
  d.svg = draw_port_rules(d.topology, d.tables, "test");
  return d;
}

// The fixroute binary run from a scratch directory (FIXROUTE_BIN, set by tests/CMakeLists.txt).
namespace fs = std::filesystem;
struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

// One scratch directory per test process; sc_gtest_main.cpp removes it at exit.
inline fs::path scratch_path() { return fs::temp_directory_path() / ("fixroute_cli_" + std::to_string(::getpid())); }

inline fs::path scratch() {
  fs::path dir = scratch_path();
  fs::create_directories(dir);
  return dir;
}

inline Outcome run_cli(const std::string& args) {
  fs::path dir = scratch();
  std::string cmd = std::string("cd ") + dir.string() + " && " + FIXROUTE_BIN + " " + args + " >" +
                    (dir / "out").string() + " 2>" + (dir / "err").string();
  int status = std::system(cmd.c_str());
  Outcome o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = slurp(dir / "out");
  o.err = slurp(dir / "err");
  return o;
}

// The GTKWave save file written beside a waveform (W.vcd -> W.gtkw): it names the dump,
// groups every router 0..routers-1 with a group per port (ports 0..ports-1) inside, opens
// and closes every group, and lists each $var of the dump exactly once. Returns what is
// wrong, "" when nothing is.
inline std::string gtkwave_save_file_fault(const fs::path& vcd, int routers, int ports) {
  const fs::path save = fs::path(vcd).replace_extension(".gtkw");
  if (!fs::exists(save)) return "no save file " + save.string();
  const std::string dump = slurp(vcd);
  std::istringstream lines(slurp(save));
  std::string line, expect_dump = "[dumpfile] \"" + fs::path(vcd).filename().string() + "\"";  // beside the save file
  std::getline(lines, line);
  if (line != expect_dump) return "first line '" + line + "', not '" + expect_dump + "'";
  int open = 0, traces = 0;
  std::string flags, groups;
  while (std::getline(lines, line)) {
    if (line.rfind("@", 0) == 0) {
      flags = line;
    } else if (line.rfind("-", 0) == 0) {
      const bool begins = flags == "@800200" || flags == "@c00200";
      open += begins ? 1 : -1;
      if (begins) groups += line.substr(1) + (open == 1 ? ":" : ",");
      if (open < 0) return "a group closed that was not open: " + line;
    } else if (!line.empty() && line[0] != '[') {
      ++traces;
      const std::string leaf = line.substr(line.rfind('.') + 1);
      const size_t range = leaf.rfind('[');  // a vector's [hi:lo] follows its name
      const std::string var = range != std::string::npos && leaf.find(':', range) != std::string::npos
                                  ? leaf.substr(0, range) : leaf;
      if (dump.find(" " + var + " ") == std::string::npos) return "no $var " + var + " in the dump";
    }
  }
  if (open != 0) return "groups left open";
  for (int r = 0; r < routers; ++r) {
    const std::string router = "router" + std::to_string(r) + ":";
    const size_t at = groups.find(router);
    if (at == std::string::npos) return "no group " + router + " in " + groups;
    const std::string inside = groups.substr(at + router.size(), groups.find(':', at + router.size()) - at);
    for (int p = 0; p < ports; ++p)
      if (inside.find("port " + std::to_string(p) + ",") == std::string::npos)
        return router + " has no group port " + std::to_string(p) + ": " + inside;
  }
  int vars = 0;
  for (size_t at = dump.find("$var"); at != std::string::npos && at < dump.find("$enddefinitions");
       at = dump.find("$var", at + 4))
    ++vars;
  if (traces != vars) return std::to_string(traces) + " traces for " + std::to_string(vars) + " $vars";
  return "";
}

}  // namespace fixroute::testing_support
