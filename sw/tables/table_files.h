// The table directory every router kind writes and reads (docs/table-format.md): the
// directory, network.json with its format, version, kind and checksum, the hex memory
// images, and the one-line refusal of a bad file. Each kind adds its own fields and files
// (port_rule_tables.h, xbar_tables.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fixroute {

// network.json of every router kind: 4 records the kind ("port-rules", "crossbar").
constexpr int kManifestVersion = 4;

[[noreturn]] void bad_table(const std::string& what, const std::string& why);  // throws InputError
std::string read_table_file(const std::filesystem::path& path, const std::string& what);
void write_table_file(const std::filesystem::path& path, const std::string& text);
std::string hex32(uint32_t v);
uint32_t crc32(const void* data, size_t size);
uint32_t json_checksum(const nlohmann::json& j);  // CRC-32 of the dump without "checksum"
// Parses a JSON table document and checks "format", "version" and "checksum".
nlohmann::json parse_checked_json(const std::string& text, const std::string& what, const char* format, int version);

// Memory image: 32-bit words, one per hex line.
std::string image_to_hex(const std::vector<uint32_t>& words);
std::vector<uint32_t> hex_to_image(const std::string& text, const std::string& what);

// Creates `dir` (throws InputError when it cannot).
void create_table_dir(const std::string& dir);
// Writes `dir`/network.json: `fields` with "format", "version", "kind" and the checksum.
void write_manifest(const std::string& dir, const char* kind, nlohmann::json fields);
// `dir`/network.json checked (format, version, checksum) and of `kind`; `what` is set to
// the name errors give it.
nlohmann::json read_manifest(const std::string& dir, const char* kind, std::string& what);

}  // namespace fixroute
