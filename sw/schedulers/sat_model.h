// A Boolean satisfiability model solved by CaDiCaL (Debian's libcadical-dev): variables,
// clauses, "exactly one" and "at most one" over sets of variables (the sequential-counter
// encoding), and a check within a time limit. The exact searches tdm-exact, trees-exact and
// generic-tree-exact ask it: on their models CaDiCaL settles what z3's pseudo-Boolean solver left open for
// many minutes (docs/tdm.md, "tdm-exact"; docs/broadcast-trees.md, "trees-exact").
#pragma once
#include <memory>
#include <optional>
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
  // At most `k` of `vars` true (a variable listed twice counts twice).
  void at_most(const std::vector<int>& vars, int k);
  // A variable that is true: where a model needs a constant.
  int true_variable();
  // x only where `condition` is true; a condition of 0 (none) makes x false.
  void only_if(int x, int condition);

  SatAnswer check(unsigned milliseconds);
  bool value(int var) const;  // after Satisfiable

 private:
  void counter(const std::vector<int>& vars, int k);

  std::unique_ptr<CaDiCaL::Solver> solver_;
  int variables_ = 0;
};

// Checks `model` within `milliseconds` and returns what each variable of `vars` set true
// stands for (`meaning[i]` for vars[i]), or nullopt: unsatisfiable (`proven` set) or out of
// time.
template <class Meaning>
std::optional<std::vector<Meaning>> chosen_by_sat(SatModel& model, unsigned milliseconds, const std::vector<int>& vars,
                                                  const std::vector<Meaning>& meaning, bool& proven) {
  const SatAnswer answer = model.check(milliseconds);
  proven = answer == SatAnswer::Unsatisfiable;
  if (answer != SatAnswer::Satisfiable) return std::nullopt;
  std::vector<Meaning> out;
  for (size_t i = 0; i < vars.size(); ++i)
    if (model.value(vars[i])) out.push_back(meaning[i]);
  return out;
}

}  // namespace fixroute
