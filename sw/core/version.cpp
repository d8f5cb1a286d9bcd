#include "version.h"

#include <nlohmann/json.hpp>

#ifndef FIXROUTE_VERSION
#error "FIXROUTE_VERSION is set by CMakeLists.txt from project(VERSION)"
#endif

namespace fixroute {

const char* fixroute_version() { return FIXROUTE_VERSION; }

nlohmann::json stamped(const char* format, nlohmann::json document) {
  document["format"] = format;
  document["format_version"] = kJsonFormatVersion;
  document["fixroute_version"] = fixroute_version();
  return document;
}

}  // namespace fixroute
