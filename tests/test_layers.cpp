// The layers point one way (docs/architecture.md): nothing under sw/ -- the host side, its
// command line and its Python module -- includes the hardware harnesses (tb/) or the
// SystemC models (systemc/); those register into sw/'s registries instead.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

TEST(Layers, NothingUnderSwIncludesTbOrSystemc) {
  const std::regex hardware_include(R"(^\s*#\s*include\s*["<](tb|systemc)/)");
  std::vector<std::string> found;
  int files = 0;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(fs::path(FIXROUTE_SOURCE_DIR) / "sw")) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    ++files;
    std::ifstream in(e.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number)
      if (std::regex_search(line, hardware_include))
        found.push_back(fs::relative(e.path(), FIXROUTE_SOURCE_DIR).string() + ":" + std::to_string(number) + ": " + line);
  }
  EXPECT_GT(files, 100);
  EXPECT_THAT(found, ::testing::IsEmpty());
}
