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
#include "sw/report/draw.h"
#include "sw/tables/port_rule_tables.h"
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

}  // namespace fixroute::testing_support
