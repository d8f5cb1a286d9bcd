// One run_case for the commands that run many (sweep, table4): in a child process where
// the engine runs once per process (SystemC elaborates once), its report as JSON.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "sw/verify/run_case.h"

namespace fixroute {

// The run's report (to_json(run_case(req))); an error in a child run is rethrown here as
// std::runtime_error naming the case.
nlohmann::json run_reported(const RunRequest& req);

// A field of such a report as a table cell: "-" where it is null.
inline std::string shown(const nlohmann::json& v) { return v.is_null() ? std::string("-") : v.dump(); }

}  // namespace fixroute
