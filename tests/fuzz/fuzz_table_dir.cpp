// Fuzz target: the table loaders of every kind and form (docs/table-format.md). The input
// is a table directory, each file as a line `@@ NAME`, its contents and a newline (the
// seeds are directories `fixroute tables` wrote); the files are written to a scratch
// directory, which is then loaded as a run would, checked as `tables --check` does, and
// resealed as `tables --reseal` does. Each either succeeds or refuses with an InputError.
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "sw/core/errors.h"
#include "sw/core/router_kind.h"
#include "sw/tables/table_check.h"

namespace fs = std::filesystem;

namespace {

// Names of the directory's own files only: letters, digits, '.', '-', '_' (no paths).
bool plain_name(const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 64) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_')) return false;
  return true;
}

void write_files(const std::string& input, const fs::path& dir) {
  size_t at = input.rfind("@@ ", 0) == 0 ? 0 : input.find("\n@@ ");
  if (at != 0 && at != std::string::npos) ++at;
  while (at != std::string::npos) {
    const size_t name_end = input.find('\n', at);
    if (name_end == std::string::npos) return;
    const std::string name = input.substr(at + 3, name_end - at - 3);
    const size_t next = input.find("\n@@ ", name_end);
    // Each file's contents end before the newline that separates it from the next file
    // (or the input's last byte, a newline).
    size_t end = next == std::string::npos ? input.size() : next;
    if (next == std::string::npos && end > name_end + 1 && input[end - 1] == '\n') --end;
    const std::string body = input.substr(name_end + 1, end - name_end - 1);
    if (plain_name(name)) std::ofstream(dir / name, std::ios::binary | std::ios::trunc) << body;
    at = next == std::string::npos ? next : next + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path dir = fs::temp_directory_path() / ("fixroute_fuzz_tables_" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  write_files(std::string(reinterpret_cast<const char*>(data), size), dir);
  try {
    fixroute::load_any_tables(dir.string());
  } catch (const fixroute::InputError&) {
  }
  try {
    fixroute::check_table_dir(dir.string());
  } catch (const fixroute::InputError&) {
  }
  try {
    fixroute::reseal_table_dir(dir.string());
  } catch (const fixroute::InputError&) {
  }
  return 0;
}
