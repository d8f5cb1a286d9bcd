// The layers point one way (docs/architecture.md): nothing under sw/ -- the host side, its
// command line and its Python module -- includes the hardware harnesses (tb/) or the
// SystemC models (systemc/); those register into sw/'s registries instead. And a router
// kind lives in its own folders: code outside them never names a kind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
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

namespace {

// The kinds, from their packages: sw/kinds/<folder>/.
std::vector<std::string> kind_folders() {
  std::vector<std::string> folders;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(FIXROUTE_SOURCE_DIR) / "sw" / "kinds"))
    if (e.is_directory()) folders.push_back(e.path().filename().string());
  std::sort(folders.begin(), folders.end());
  return folders;
}

// Whether `relative` (a path under the source tree) is inside one of a kind's folders, or
// among the schedulers, which name the kind they produce tables for.
bool in_kind_folders(const std::string& relative, const std::vector<std::string>& kinds) {
  if (relative.rfind("sw/schedulers/", 0) == 0) return true;
  for (const std::string& kind : kinds)
    for (const char* layer : {"sw/kinds/", "systemc/", "rtl/", "tb/"})
      if (relative.rfind(std::string(layer) + kind + "/", 0) == 0) return true;
  return false;
}

}  // namespace

// A line that names a kind: includes one of its headers (so it may use its types), uses a
// kind's name constant (k...Kind) or compares a string with a kind's name.
class KindNaming {
 public:
  explicit KindNaming(const std::vector<std::string>& kinds) {
    std::string folders, names;
    for (const std::string& kind : kinds) {
      folders += (folders.empty() ? "" : "|") + kind;
      std::string name = kind;
      std::replace(name.begin(), name.end(), '_', '-');
      names += (names.empty() ? "" : "|") + name;
    }
    include_ = std::regex("^\\s*#\\s*include\\s*[\"<](sw/kinds|systemc|tb|rtl)/(" + folders + ")/");
    constant_ = std::regex("\\bk[A-Z][A-Za-z]*Kind\\b");
    compared_ = std::regex("(==|!=)\\s*\"(" + names + ")\"|\"(" + names + ")\"\\s*(==|!=)");
  }
  bool names_a_kind(const std::string& line) const {
    return std::regex_search(line, include_) || std::regex_search(line, constant_) || std::regex_search(line, compared_);
  }

 private:
  std::regex include_, constant_, compared_;
};

TEST(Layers, KindNamingSeesWhatItLooksFor) {
  const std::vector<std::string> kinds = kind_folders();
  const KindNaming naming(kinds);
  EXPECT_TRUE(naming.names_a_kind("#include \"sw/kinds/crossbar/tables.h\""));
  EXPECT_TRUE(naming.names_a_kind("  #include \"tb/port_rules/rtl_driver.h\""));
  EXPECT_TRUE(naming.names_a_kind("if (engine_runs(e, kCombiningSumKind, t)) {"));
  EXPECT_TRUE(naming.names_a_kind("  if (kind.name == \"broadcast-trees\") return 1;"));
  EXPECT_TRUE(naming.names_a_kind("  if (\"combining\" != name) return 1;"));
  EXPECT_FALSE(naming.names_a_kind("{\"combining\", model.combining},"));  // the port model's flag
  EXPECT_FALSE(naming.names_a_kind("#include \"sw/core/router_kind.h\""));
  EXPECT_FALSE(naming.names_a_kind("#include \"tb/round_cosim.h\""));
  EXPECT_TRUE(in_kind_folders("sw/kinds/" + kinds.front() + "/kind.cpp", kinds));
  EXPECT_TRUE(in_kind_folders("tb/" + kinds.front() + "/cosim.cpp", kinds));
  EXPECT_TRUE(in_kind_folders("sw/schedulers/combining.cpp", kinds));
  EXPECT_FALSE(in_kind_folders("tb/cosim.cpp", kinds));
  EXPECT_FALSE(in_kind_folders("sw/verify/run_case.cpp", kinds));
}

// No file of sw/, systemc/ or tb/ outside a kind's folders names a kind.
TEST(Layers, NoKindIsNamedOutsideItsFolders) {
  const std::vector<std::string> kinds = kind_folders();
  ASSERT_GE(kinds.size(), 5u);
  const KindNaming naming(kinds);
  std::vector<std::string> found;
  int files = 0;
  for (const char* layer : {"sw", "systemc", "tb"})
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(fs::path(FIXROUTE_SOURCE_DIR) / layer)) {
      const std::string ext = e.path().extension().string();
      const std::string relative = fs::relative(e.path(), FIXROUTE_SOURCE_DIR).string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h") || in_kind_folders(relative, kinds)) continue;
      ++files;
      std::ifstream in(e.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number)
        if (naming.names_a_kind(line)) found.push_back(relative + ":" + std::to_string(number) + ": " + line);
    }
  EXPECT_GT(files, 50);
  EXPECT_THAT(found, ::testing::IsEmpty());
}
