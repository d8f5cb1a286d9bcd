#include "sat_model.h"

#include <cadical.hpp>

#include <algorithm>
#include <chrono>

namespace fixroute {

namespace {

// Stops CaDiCaL once the time is up (it asks regularly during its search).
class Deadline : public CaDiCaL::Terminator {
 public:
  explicit Deadline(unsigned milliseconds)
      : end_(std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds)) {}
  bool terminate() override { return std::chrono::steady_clock::now() >= end_; }

 private:
  std::chrono::steady_clock::time_point end_;
};

constexpr size_t kPairwiseUpTo = 5;  // below that, pairwise clauses are fewer than a counter's

}  // namespace

SatModel::SatModel() : solver_(std::make_unique<CaDiCaL::Solver>()) {}
SatModel::~SatModel() = default;

int SatModel::variable() { return ++variables_; }

void SatModel::clause(const std::vector<int>& literals) {
  for (int l : literals) solver_->add(l);
  solver_->add(0);
}

void SatModel::at_most_one(std::vector<int> vars) {
  std::sort(vars.begin(), vars.end());
  for (size_t i = 1; i < vars.size(); ++i)
    if (vars[i] == vars[i - 1]) clause({-vars[i]});
  vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
  const size_t n = vars.size();
  if (n < 2) return;
  if (n <= kPairwiseUpTo) {
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j) clause({-vars[i], -vars[j]});
    return;
  }
  counter(vars, 1);
}

void SatModel::at_most(const std::vector<int>& vars, int k) {
  if (k <= 0) {
    for (int x : vars) clause({-x});
    return;
  }
  if (k == 1) return at_most_one(vars);
  if (vars.size() > static_cast<size_t>(k)) counter(vars, k);
}

// Sinz's sequential counter: s[i][j] says "at least j + 1 of vars[0..i] are true"; vars has
// more than k entries.
void SatModel::counter(const std::vector<int>& vars, int k) {
  const size_t n = vars.size(), width = static_cast<size_t>(k);
  std::vector<int> before(width), now(width);
  for (size_t j = 0; j < width; ++j) before[j] = variable();
  clause({-vars[0], before[0]});
  for (size_t j = 1; j < width; ++j) clause({-before[j]});
  for (size_t i = 1; i + 1 < n; ++i) {
    for (size_t j = 0; j < width; ++j) now[j] = variable();
    clause({-vars[i], now[0]});
    clause({-before[0], now[0]});
    for (size_t j = 1; j < width; ++j) {
      clause({-vars[i], -before[j - 1], now[j]});
      clause({-before[j], now[j]});
    }
    clause({-vars[i], -before[width - 1]});
    std::swap(before, now);
  }
  clause({-vars[n - 1], -before[width - 1]});
}

void SatModel::only_if(int x, int condition) {
  if (condition)
    clause({-x, condition});
  else
    clause({-x});
}

int SatModel::true_variable() {
  const int x = variable();
  clause({x});
  return x;
}

void SatModel::exactly_one(const std::vector<int>& vars) {
  clause(vars);
  at_most_one(vars);
}

SatAnswer SatModel::check(unsigned milliseconds) {
  Deadline deadline(milliseconds);
  solver_->connect_terminator(&deadline);
  const int result = solver_->solve();
  solver_->disconnect_terminator();
  return result == 10 ? SatAnswer::Satisfiable : result == 20 ? SatAnswer::Unsatisfiable : SatAnswer::OutOfTime;
}

bool SatModel::value(int var) const { return solver_->val(var) > 0; }

}  // namespace fixroute
