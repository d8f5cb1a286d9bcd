#include "rtl_config_port.h"

#include <algorithm>

#include "sw/topology/topology.h"

namespace fixroute {

namespace {
constexpr int kResetCycles = 4;
}  // namespace

bool in_curated_sizes(const std::vector<std::string>& sizes, const Topology& topology) {
  return std::find(sizes.begin(), sizes.end(), topology.spec()) != sizes.end();
}

const char* rtl_table_error_name(int code) {
  switch (code) {
    case 1: return "bad magic word";
    case 2: return "unsupported version";
    case 3: return "wrong port count";
    case 4: return "wrong length, or fields that disagree (a count of zero, a register or node beyond the header's)";
    case 5: return "checksum mismatch";
    case 6: return "words written out of order or past the configuration port's addresses";
    case 7: return "it needs more than the router was built with (initial packets, switch steps, taps, furthest-first)";
    default: return "unknown";
  }
}

int64_t rtl_reset_and_load(RtlConfigPort& rtl, const std::vector<std::vector<uint32_t>>& images) {
  int64_t cycles = 0;
  const int routers = static_cast<int>(images.size());
  rtl.set_reset(true);
  for (int node = 0; node < (rtl.config_port_per_router() ? routers : 1); ++node) rtl.set_config(node, false, 0, 0, false);
  for (int c = 0; c < kResetCycles; ++c, ++cycles) rtl.tick();
  rtl.set_reset(false);
  if (rtl.config_port_per_router()) {  // word a of every image in the same cycle
    size_t longest = 0;
    for (const auto& image : images) longest = std::max(longest, image.size());
    for (size_t a = 0; a < longest; ++a, ++cycles) {
      for (int node = 0; node < routers; ++node) {
        const auto& image = images[static_cast<size_t>(node)];
        rtl.set_config(node, a < image.size(), static_cast<uint32_t>(a), a < image.size() ? image[a] : 0, false);
      }
      rtl.tick();
    }
    for (int node = 0; node < routers; ++node) rtl.set_config(node, false, 0, 0, true);
    rtl.tick();
    for (int node = 0; node < routers; ++node) rtl.set_config(node, false, 0, 0, false);
    return cycles + 1;
  }
  for (size_t node = 0; node < images.size(); ++node)
    for (size_t a = 0; a < images[node].size(); ++a, ++cycles) {
      rtl.set_config(static_cast<int>(node), true, static_cast<uint32_t>(a), images[node][a], false);
      rtl.tick();
    }
  rtl.set_config(0, false, 0, 0, true);
  rtl.tick();
  rtl.set_config(0, false, 0, 0, false);
  return cycles + 1;
}

}  // namespace fixroute
