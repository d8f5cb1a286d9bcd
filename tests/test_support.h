// Small helpers shared by the test suites.
#pragma once
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace fixroute::testing_support
