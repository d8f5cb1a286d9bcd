// A user's program on the installed library: builds the tables of two cases, runs them on
// the ref engine, verifies them, and prints what it measured, one line each, then where the
// installed tool and RTL are. Exit 1 unless both runs verified.
#include <cstdio>
#include <filesystem>

#include "sw/verify/run_case.h"

int main() {
  bool all_ok = true;
  for (const char* topology : {"ring:8", "torus:4x4"}) {
    fixroute::RunRequest request;
    request.topology = topology;
    request.collective = topology[0] == 'r' ? "total-exchange" : "gossip";
    const fixroute::RunResult result = fixroute::run_case(request);
    std::printf("%s %s [%s] on %s: %lld steps, %s\n", result.topology.c_str(), result.collective.c_str(),
                result.algorithm.c_str(), result.engine.c_str(), static_cast<long long>(result.steps()),
                result.ok() ? "verified" : "FAILED");
    all_ok = all_ok && result.ok();
  }
  std::printf("tool %s, rtl %s\n", std::filesystem::exists(FIXROUTE_EXECUTABLE) ? "installed" : "missing",
              std::filesystem::exists(std::filesystem::path(FIXROUTE_RTL_DIR) / "port_rules" / "fr_router.v") ? "installed" : "missing");
  return all_ok ? 0 : 1;
}
