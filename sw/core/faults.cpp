#include "faults.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

constexpr const char* kForms = "link:A-B@STEP, router:N@STEP, drop:A-B@STEP or flip:N:Q:P@STEP";
constexpr int64_t kMaxStep = int64_t{1} << 40;
constexpr int64_t kMaxListedLosses = 20;  // a dead link early in a large run loses many: the first are named

int64_t number(const std::string& digits, const std::string& text) {
  if (digits.size() > 12) throw InputError(fmt::format("--fault '{}': {} is too large", text, digits));
  return std::stoll(digits);
}

}  // namespace

Fault parse_fault(const std::string& text) {
  static const std::regex pair(R"((link|drop):(\d+)-(\d+)@(\d+))");
  static const std::regex single(R"(router:(\d+)@(\d+))");
  static const std::regex flip(R"(flip:(\d+):(\d+):(\d+)@(\d+))");
  std::smatch m;
  Fault f;
  f.text = text;
  if (std::regex_match(text, m, pair)) {
    f.type = m[1] == "link" ? FaultType::Link : FaultType::Drop;
    f.a = static_cast<int>(std::min<int64_t>(number(m[2], text), INT32_MAX));
    f.b = static_cast<int>(std::min<int64_t>(number(m[3], text), INT32_MAX));
    f.step = number(m[4], text);
  } else if (std::regex_match(text, m, single)) {
    f.type = FaultType::Router;
    f.a = static_cast<int>(std::min<int64_t>(number(m[1], text), INT32_MAX));
    f.step = number(m[2], text);
  } else if (std::regex_match(text, m, flip)) {
    f.type = FaultType::Flip;
    f.a = static_cast<int>(std::min<int64_t>(number(m[1], text), INT32_MAX));
    f.in_port = static_cast<int>(std::min<int64_t>(number(m[2], text), INT32_MAX));
    f.out_port = static_cast<int>(std::min<int64_t>(number(m[3], text), INT32_MAX));
    f.step = number(m[4], text);
  } else {
    throw InputError(fmt::format("--fault '{}': expected {}", text, kForms));
  }
  if (f.step < 1 || f.step > kMaxStep)
    throw InputError(fmt::format("--fault '{}': the step must be 1 .. {}", text, kMaxStep));
  return f;
}

void check_faults(const std::vector<Fault>& faults, const Topology& topology) {
  const int n = topology.num_nodes();
  for (const Fault& f : faults) {
    auto node = [&](int v) {
      if (v < 0 || v >= n) throw InputError(fmt::format("--fault '{}': {} has no node {}", f.text, topology.spec(), v));
    };
    node(f.a);
    switch (f.type) {
      case FaultType::Link:
      case FaultType::Drop:
        node(f.b);
        if (!topology.adjacent(f.a, f.b))
          throw InputError(fmt::format("--fault '{}': nodes {} and {} of {} are not linked", f.text, f.a, f.b, topology.spec()));
        break;
      case FaultType::Flip:
        for (int p : {f.in_port, f.out_port})
          if (p >= topology.num_ports())
            throw InputError(fmt::format("--fault '{}': the routers of {} have ports 0 .. {}", f.text, topology.spec(),
                                         topology.num_ports() - 1));
        break;
      case FaultType::Router:
        break;
    }
  }
  std::vector<bool> stuck(static_cast<size_t>(n), false);
  for (const Fault& f : faults)
    if (f.type == FaultType::Router) stuck[static_cast<size_t>(f.a)] = true;
  if (n > 0 && std::all_of(stuck.begin(), stuck.end(), [](bool s) { return s; }))
    throw InputError(fmt::format("--fault: every router of {} stuck: nothing would run", topology.spec()));
}

FaultInjector::FaultInjector(const std::vector<Fault>& faults, const Topology& topology)
    : faults_(faults), losses_per_fault_(faults.size(), 0) {
  check_faults(faults_, topology);
  stuck_from_.assign(static_cast<size_t>(topology.num_nodes()), 0);
  for (const Fault& f : faults_) {
    if (f.type == FaultType::Router) {
      int64_t& from = stuck_from_[static_cast<size_t>(f.a)];
      from = from == 0 ? f.step : std::min(from, f.step);
    }
    has_flips_ = has_flips_ || f.type == FaultType::Flip;
  }
}

void refuse_flips(const FaultInjector* faults, const std::string& routers, const std::string& tables) {
  if (faults && faults->has_flips())
    throw InputError(fmt::format("--fault flip: {} have no forward mask to flip ({}); link:, router: and drop: faults "
                                 "apply to them",
                                 routers, tables));
}

bool FaultInjector::stuck(int node, int64_t step) const {
  const int64_t from = stuck_from_[static_cast<size_t>(node)];
  return from != 0 && step >= from;
}

int64_t FaultInjector::stuck_from(int node) const { return stuck_from_[static_cast<size_t>(node)]; }

int FaultInjector::taking(int64_t step, int from, int to) const {
  for (size_t k = 0; k < faults_.size(); ++k) {
    const Fault& f = faults_[k];
    const bool takes = (f.type == FaultType::Link && step >= f.step &&
                        ((f.a == from && f.b == to) || (f.a == to && f.b == from))) ||
                       (f.type == FaultType::Drop && step == f.step && f.a == from && f.b == to) ||
                       (f.type == FaultType::Router && step >= f.step && f.a == to);
    if (takes) return static_cast<int>(k);
  }
  return -1;
}

bool FaultInjector::loses(int64_t step, int from, int to) const {
  if (from < 0 || to < 0) return false;
  return stuck(from, step) || taking(step, from, to) >= 0;
}

template <class Name>
bool FaultInjector::arrives_named(int64_t step, int from, int to, Name&& sent) {
  if (from < 0 || to < 0) return true;
  if (stuck(from, step)) return false;  // a stuck sender sends nothing: nothing to record
  const int k = taking(step, from, to);
  if (k < 0) return true;
  const Fault& f = faults_[static_cast<size_t>(k)];
  const std::string where = f.type == FaultType::Link   ? fmt::format("lost on dead link {}-{}", f.a, f.b)
                            : f.type == FaultType::Drop ? fmt::format("dropped on arc {}->{}", from, to)
                                                        : fmt::format("lost: sent to stuck router {}", to);
  ++losses_per_fault_[static_cast<size_t>(k)];
  ++lost_count_;
  Loss loss{step, from, to, fmt::format("step {}: {} {}, last seen at node {} ({})", step, sent(), where, from, f.text)};
  if (static_cast<int64_t>(lost_.size()) < kMaxListedLosses) {
    lost_.push_back(std::move(loss));
  } else if (auto last = std::max_element(lost_.begin(), lost_.end()); loss < *last) {
    *last = std::move(loss);
  }
  return false;
}

bool FaultInjector::arrives(int64_t step, int from, int to, int origin, int dest, int seq) {
  return arrives_named(step, from, to, [&] {
    return dest < 0 ? fmt::format("packet {}->* seq {}", origin, seq) : fmt::format("packet {}->{} seq {}", origin, dest, seq);
  });
}

bool FaultInjector::arrives_set(int64_t step, int from, int to, int carried) {
  return arrives_named(step, from, to, [&] { return fmt::format("set of {} origin{}", carried, carried == 1 ? "" : "s"); });
}

bool FaultInjector::arrives_sum(int64_t step, int from, int to) {
  return arrives_named(step, from, to, [] { return std::string("sum"); });
}

bool FaultInjector::arrives_message(int64_t step, int from, int to, int source) {
  return arrives_named(step, from, to, [&] { return fmt::format("message from node {}", source); });
}

bool FaultInjector::arrives_phit(int64_t step, int from, int to, int src, int dst, int chain, int period) {
  return arrives_named(step, from, to,
                       [&] { return fmt::format("phit {}->{} (chain {}, period {})", src, dst, chain, period); });
}

int FaultInjector::never_stuck_node() const {
  for (size_t i = 0; i < stuck_from_.size(); ++i)
    if (stuck_from_[i] == 0) return static_cast<int>(i);
  return 0;
}

std::vector<Fault> FaultInjector::flips_at(int64_t step) const {
  std::vector<Fault> due;
  for (const Fault& f : faults_)
    if (f.type == FaultType::Flip && f.step == step) due.push_back(f);
  return due;
}

std::vector<std::string> FaultInjector::injected(int64_t ended_at) const {
  std::vector<std::pair<int64_t, std::string>> lines;
  std::vector<Loss> lost = lost_;
  std::sort(lost.begin(), lost.end());
  for (const Loss& l : lost) lines.emplace_back(l.step, l.line);

  for (size_t k = 0; k < faults_.size(); ++k) {
    const Fault& f = faults_[k];
    if (f.step > ended_at)
      lines.emplace_back(f.step, fmt::format("step {}: {} not injected: the run ended at step {}", f.step, f.text, ended_at));
    else if (f.type == FaultType::Flip)
      lines.emplace_back(f.step, fmt::format("step {}: router {} in-port {} forwarding to out-port {} flipped ({})", f.step,
                                             f.a, f.in_port, f.out_port, f.text));
    else if (f.type == FaultType::Router)
      lines.emplace_back(f.step, fmt::format("step {}: router {} stuck ({})", f.step, f.a, f.text));
    else if (losses_per_fault_[k] == 0)
      lines.emplace_back(f.step, fmt::format("step {}: {} took no packet", f.step, f.text));
  }
  std::stable_sort(lines.begin(), lines.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (auto& l : lines) out.push_back(std::move(l.second));
  if (lost_count_ > kMaxListedLosses) out.push_back(fmt::format("... and {} more lost", lost_count_ - kMaxListedLosses));
  return out;
}

}  // namespace fixroute
