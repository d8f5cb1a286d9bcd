// A Boolean satisfiability model solved by CaDiCaL (Debian's libcadical-dev): variables,
// clauses, "exactly one" and "at most one" over sets of variables (the sequential-counter
// encoding), and a check within a time limit. The exact TDM search (tdm-exact) asks it;
// on its schedules CaDiCaL settles in seconds what z3's pseudo-Boolean solver leaves open
// after ten minutes (docs/tdm.md, "tdm-exact").
#pragma once
#include <memory>
#include <vector>

namespace CaDiCaL {
class Solver;
}

namespace fixroute {

enum class SatAnswer { Satisfiable, Unsatisfiable, OutOfTime };

class SatModel {
 public:
  SatModel();
  ~SatModel();
  SatModel(const SatModel&) = delete;
  SatModel& operator=(const SatModel&) = delete;

  int variable();  // a new variable, numbered from 1
  void clause(const std::vector<int>& literals);  // literal v or -v
  // At most one of `vars` true; a variable listed twice is false (it would count twice).
  void at_most_one(std::vector<int> vars);
  void exactly_one(const std::vector<int>& vars);

  SatAnswer check(unsigned milliseconds);
  bool value(int var) const;  // after Satisfiable

 private:
  std::unique_ptr<CaDiCaL::Solver> solver_;
  int variables_ = 0;
};

}  // namespace fixroute
