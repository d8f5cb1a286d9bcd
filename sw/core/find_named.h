// Lookup by name in a registry, with the one-line refusal every registry gives.
#pragma once
#include <fmt/format.h>

#include <string>
#include <vector>

#include "errors.h"

namespace fixroute {

// The entry of `all` whose `name` is `name`; else InputError
// "unknown WHAT 'NAME'; accepted: A, B, ...".
template <class T>
const T& find_named(const std::vector<T>& all, const std::string& name, const char* what) {
  std::string accepted;
  for (const T& entry : all) {
    if (entry.name == name) return entry;
    accepted += (accepted.empty() ? "" : ", ") + entry.name;
  }
  throw InputError(fmt::format("unknown {} '{}'; accepted: {}", what, name, accepted));
}

}  // namespace fixroute
