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

}  // namespace fixroute::testing_support
