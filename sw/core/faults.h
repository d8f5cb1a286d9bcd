// Injected faults (`--fault`, docs/faults.md): a dead link, a stuck router, one dropped
// packet, a flipped table bit. The forms are parsed here once; FaultInjector is the one
// definition of what each does in a run, which every engine's harness applies (the router
// models never see it: a fault is something done to the network, not a rule of a router).
#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace fixroute {

class Topology;

enum class FaultType {
  Link,    // link:A-B@S    the link A-B carries nothing either way from step S on
  Router,  // router:N@S    router N stuck from step S on: sends nothing, takes nothing in, keeps its queues
  Drop,    // drop:A-B@S    the packet crossing arc A->B in step S is lost
  Flip,    // flip:N:Q:P@S  from step S on, the table bit that forwards router N's in-port Q arrivals to out-port P is flipped
};

struct Fault {
  FaultType type = FaultType::Link;
  int a = -1;  // link, drop: one end (drop: the sender); router, flip: the router
  int b = -1;  // link, drop: the other end (drop: the receiver)
  int in_port = -1, out_port = -1;  // flip
  int64_t step = 1;
  std::string text;  // the form as given
};

// Parses one `--fault` value; throws InputError naming the documented forms.
Fault parse_fault(const std::string& text);
// Checks the faults against the network: nodes, links and ports that exist; throws InputError.
void check_faults(const std::vector<Fault>& faults, const Topology& topology);

class FaultInjector;
// Throws InputError where `faults` hold a flip and the routers (`routers`, "combining
// routers") have no forward mask to flip (`tables`: what their rows say instead).
void refuse_flips(const FaultInjector* faults, const std::string& routers, const std::string& tables);

// One run's faults in effect. Engines ask it whether a crossing arrives (a lost one is
// recorded with where it was last seen), whether a router is stuck, and which flips fall
// due at the start of a step; `injected()` is what the faults did, for the report.
class FaultInjector {
 public:
  FaultInjector(const std::vector<Fault>& faults, const Topology& topology);

  bool any() const { return !faults_.empty(); }
  bool has_flips() const { return has_flips_; }
  // Router `node` does nothing in `step`: it is stuck from an earlier or this step.
  bool stuck(int node, int64_t step) const;
  // The step router `node` stops at (stuck from it on), or 0 where it never does.
  int64_t stuck_from(int node) const;
  // A router never stuck (its step counter is the network's), 0 if every one is.
  int never_stuck_node() const;
  // Whether what `from` sends to `to` in `step` arrives; false: it is lost (recorded).
  bool arrives(int64_t step, int from, int to, int origin, int dest, int seq);
  // The same for a combining router's set of `carried` origins sent in round `step`.
  bool arrives_set(int64_t step, int from, int to, int carried);
  // The same for a summing router's sum sent in round `step`.
  bool arrives_sum(int64_t step, int from, int to);
  // The same for a crossbar router's message (it carries `source`, its circuit's first node).
  bool arrives_message(int64_t step, int from, int to, int source);
  // The same for a TDM router's phit of flow src -> dst (its chain and period) in slot `step`.
  bool arrives_phit(int64_t step, int from, int to, int src, int dst, int chain, int period);
  // Whether a crossing from->to in `step` is lost, without recording it.
  bool loses(int64_t step, int from, int to) const;
  // The flips that take effect at the start of `step`.
  std::vector<Fault> flips_at(int64_t step) const;
  // What the faults did, one line each, in the order of steps: every packet lost and
  // where, each fault that took no packet, and (given the run's last step `ended_at`)
  // each fault due after the run had ended, said to be not injected.
  std::vector<std::string> injected(int64_t ended_at = INT64_MAX) const;

 private:
  std::vector<Fault> faults_;
  std::vector<int64_t> stuck_from_;  // per node, 0: never
  bool has_flips_ = false;
  // The fault that takes what `from` sends `to` in `step` (its index), -1 for none.
  int taking(int64_t step, int from, int to) const;
  // arrives(), what was sent named by `sent` ("packet 2->7 seq 6") where it is lost.
  template <class Name>
  bool arrives_named(int64_t step, int from, int to, Name&& sent);
  std::vector<int64_t> losses_per_fault_;
  struct Loss {
    int64_t step;
    int from, to;
    std::string line;
    bool operator<(const Loss& o) const { return std::tie(step, from, to) < std::tie(o.step, o.from, o.to); }
  };
  std::vector<Loss> lost_;  // the first few in (step, sender, receiver) order, whatever order engines find them in
  int64_t lost_count_ = 0;
};

}  // namespace fixroute
