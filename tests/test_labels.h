// CTest labels (`ctest -L rtl`, `make check` = unit), declared beside the tests they mark:
//
//   FIXROUTE_LABEL("rtl");                                   every test of this file
//   FIXROUTE_LABEL("slow", "LargeNetwork");                  a suite (any instantiation of a
//   FIXROUTE_LABEL("slow", "Larger/Decomposition");            parameterized one, or one named)
//   FIXROUTE_LABEL("rtl", "FaultOnEngine", "_Rtl_");         the suite's tests whose name
//                                                              contains a part
//
// A test takes the label of the most specific mark naming it (name part, then suite, then
// file); a test no mark names is `unit`. Each test executable writes its own CTest script
// from these (sc_gtest_main.cpp, `--fixroute_ctest_file`) and refuses, failing the build, a
// label CTest does not use, a mark that names no test, or two marks of one specificity
// giving one test two labels.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace fixroute::testing_support {

struct LabelMark {
  std::string file;       // the source file of the mark: __FILE__
  std::string label;
  std::string suite;      // "" = every test of the file
  std::string name_part;  // "" = every test of the suite
};

inline std::vector<LabelMark>& label_marks() {
  static std::vector<LabelMark> marks;
  return marks;
}

inline bool add_label_mark(std::string file, std::string label, std::string suite = "", std::string name_part = "") {
  label_marks().push_back({std::move(file), std::move(label), std::move(suite), std::move(name_part)});
  return true;
}

}  // namespace fixroute::testing_support

#define FIXROUTE_LABEL_JOIN2(a, b) a##b
#define FIXROUTE_LABEL_JOIN(a, b) FIXROUTE_LABEL_JOIN2(a, b)
#define FIXROUTE_LABEL(...)                                                            \
  [[maybe_unused]] static const bool FIXROUTE_LABEL_JOIN(fixroute_label_mark_, __COUNTER__) = \
      ::fixroute::testing_support::add_label_mark(__FILE__, __VA_ARGS__)
