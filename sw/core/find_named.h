// Lookup by name in a registry, with the one-line refusal every registry gives; and the
// order a registry keeps.
#pragma once
#include <fmt/format.h>

#include <algorithm>
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

// Registries are filled by static objects in link order, which the build decides (a unity
// build reverses it across its units): each keeps its entries ordered by `key` instead, so
// listings, refusals and ties between equals are the same whatever the build.
template <class T, class Key>
void register_in_order(std::vector<T>& registry, T entry, Key key) {
  const auto at = std::upper_bound(registry.begin(), registry.end(), entry,
                                   [&](const T& a, const T& b) { return key(a) < key(b); });
  registry.insert(at, std::move(entry));
}

}  // namespace fixroute
