// The version of fixroute (the project's, CMakeLists.txt) and of the JSON documents it
// prints: every JSON output (`run --json`, `bound --json`, `cosim --json`, `table4 --json`,
// Python's reports) carries "format" (which document) and "format_version" (this number,
// raised when a field changes meaning or goes; new fields do not raise it).
#pragma once
#include <nlohmann/json_fwd.hpp>

namespace fixroute {

const char* fixroute_version();  // "0.1.0"

constexpr int kJsonFormatVersion = 1;

// `document` with "format": `format`, "format_version" and "fixroute_version" added.
nlohmann::json stamped(const char* format, nlohmann::json document);

}  // namespace fixroute
