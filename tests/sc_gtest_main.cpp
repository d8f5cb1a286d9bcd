// Entry point of the test executables: libsystemc's main() calls sc_main().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>
#include <systemc>  // declares sc_main with the C linkage libsystemc calls

#include "test_labels.h"
#include "test_support.h"

namespace {

using fixroute::testing_support::LabelMark;

bool suite_named(const std::string& suite, const std::string& mark) {
  return suite == mark || (suite.size() > mark.size() && suite.compare(suite.size() - mark.size(), mark.size(), mark) == 0 &&
                           suite[suite.size() - mark.size() - 1] == '/');
}

// 3 names a test part, 2 a suite, 1 the file, 0 does not name the test.
int specificity(const LabelMark& mark, const ::testing::TestInfo& test) {
  if (mark.suite.empty()) return mark.file == test.file() ? 1 : 0;
  if (!suite_named(test.test_suite_name(), mark.suite)) return 0;
  if (mark.name_part.empty()) return 2;
  return std::string(test.name()).find(mark.name_part) != std::string::npos ? 3 : 0;
}

std::string where(const LabelMark& mark) {
  return mark.file + ": FIXROUTE_LABEL(\"" + mark.label + "\"" + (mark.suite.empty() ? "" : ", \"" + mark.suite + "\"") +
         (mark.name_part.empty() ? "" : ", \"" + mark.name_part + "\"") + ")";
}

// Writes the CTest script declaring each test of this executable with its label
// (test_labels.h); false, with the reason on stderr, when a mark is wrong.
bool write_ctest_file(const std::filesystem::path& out) {
  const auto& marks = fixroute::testing_support::label_marks();
  static const char* const kLabels[] = {"unit", "systemc", "rtl", "cosim", "slow"};
  for (const LabelMark& mark : marks)
    if (std::find_if(std::begin(kLabels), std::end(kLabels), [&](const char* l) { return mark.label == l; }) == std::end(kLabels)) {
      std::cerr << where(mark) << ": no such label (one of";
      for (const char* label : kLabels) std::cerr << " " << label;
      std::cerr << ")\n";
      return false;
    }
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "cannot tell this executable's path: " << ec.message() << "\n";
    return false;
  }
  std::vector<int> used(marks.size(), 0);
  std::ostringstream script;
  const ::testing::UnitTest& tests = *::testing::UnitTest::GetInstance();
  for (int s = 0; s < tests.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *tests.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const ::testing::TestInfo& test = *suite.GetTestInfo(t);
      const std::string name = std::string(test.test_suite_name()) + "." + test.name();
      int best = 0;
      const LabelMark* chosen = nullptr;
      for (size_t m = 0; m < marks.size(); ++m) {
        const int level = specificity(marks[m], test);
        if (level == 0) continue;
        used[m] = 1;
        if (level > best) {
          best = level;
          chosen = &marks[m];
        } else if (level == best && marks[m].label != chosen->label) {
          std::cerr << name << " has two labels: " << where(*chosen) << " and " << where(marks[m]) << "\n";
          return false;
        }
      }
      const std::string label = chosen ? chosen->label : "unit";
      // Named as gtest_discover_tests names them: a parameterized test shows its parameter.
      std::string shown = test.value_param() ? name + "  # GetParam() = " + test.value_param() : name;
      shown.erase(shown.find_last_not_of(' ') + 1);
      script << "add_test([==[" << shown << "]==] [==[" << exe.string() << "]==] [==[--gtest_filter=" << name
             << "]==])\nset_tests_properties([==[" << shown << "]==] PROPERTIES WORKING_DIRECTORY [==["
             << exe.parent_path().string() << "]==] SKIP_REGULAR_EXPRESSION [==[\\[  SKIPPED \\]]==] LABELS " << label
             << ")\n";
    }
  }
  for (size_t m = 0; m < marks.size(); ++m)
    if (!used[m]) {
      std::cerr << where(marks[m]) << " names no test of this executable\n";
      return false;
    }
  // Written whole and then renamed: CTest never reads half a script.
  const std::filesystem::path partial = out.string() + ".partial";
  {
    std::ofstream file(partial);
    file << script.str();
    if (!file.flush()) {
      std::cerr << "cannot write " << partial << "\n";
      return false;
    }
  }
  std::filesystem::rename(partial, out, ec);
  if (ec) std::cerr << "cannot write " << out << ": " << ec.message() << "\n";
  return !ec;
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* const kCtestFile = "--fixroute_ctest_file=";
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], kCtestFile, std::strlen(kCtestFile)) == 0)
      return write_ctest_file(argv[i] + std::strlen(kCtestFile)) ? 0 : 1;
  const int status = RUN_ALL_TESTS();
  std::error_code ignored;  // leave no CLI scratch files in the temp directory
  std::filesystem::remove_all(fixroute::testing_support::scratch_path(), ignored);
  return status;
}
