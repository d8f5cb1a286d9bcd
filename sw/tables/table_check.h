// `fixroute tables --check DIR` and `--reseal DIR` (docs/table-format.md, "Checking and
// resealing"): any kind's table directory checked whole, every fault listed; and its
// checksums recomputed after a deliberate edit.
#pragma once
#include <string>
#include <vector>

namespace fixroute {

struct TableCheckReport {
  std::vector<std::string> faults;  // one line each, in the order found; empty: the set loads
  std::string summary;              // the set's kind, network and collective where it loads
};
// Throws nothing for a bad set (its faults are the report); InputError only for a
// directory that cannot be read at all.
TableCheckReport check_table_dir(const std::string& dir);

struct ResealReport {
  std::vector<std::string> resealed;  // the files whose checksums did not match; empty: nothing changed
};
// Loads the set accepting stale checksums (where a router's JSON and hex image differ,
// the one whose checksum broke is the edit), then writes it anew in its form (every
// checksum recomputed, each hex image re-encoded from what was taken). Any fault other
// than a checksum throws InputError, and the directory is left as it was.
ResealReport reseal_table_dir(const std::string& dir);

}  // namespace fixroute
