#include "table_files.h"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <sstream>

#include "sw/core/errors.h"

namespace fixroute {

using nlohmann::json;
namespace fs = std::filesystem;

void bad_table(const std::string& what, const std::string& why) {
  throw InputError(fmt::format("bad table {}: {}", what, why));
}

std::string read_table_file(const fs::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) bad_table(what, fmt::format("cannot read '{}'", path.string()));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_table_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw InputError(fmt::format("cannot write '{}'", path.string()));
}

std::string hex32(uint32_t v) { return fmt::format("{:08x}", v); }

uint32_t json_checksum(const json& j) {
  json copy = j;
  copy.erase("checksum");
  std::string text = copy.dump();
  return crc32(text.data(), text.size());
}

json parse_checked_json(const std::string& text, const std::string& what, const char* format, int version) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("not valid JSON ({})", e.what()));
  }
  if (!j.is_object() || j.value("format", "") != format)
    bad_table(what, fmt::format("\"format\" is not \"{}\"", format));
  if (!j.contains("version") || j["version"] != version)
    bad_table(what, fmt::format("unsupported version (this build reads version {})", version));
  if (!j.contains("checksum") || !j["checksum"].is_string())
    bad_table(what, "no checksum");
  if (j["checksum"].get<std::string>() != hex32(json_checksum(j)))
    bad_table(what, "checksum mismatch (the file was changed or truncated)");
  return j;
}

uint32_t crc32(const void* data, size_t size) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  const auto* bytes = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < size; ++i) crc = table[(crc ^ bytes[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string image_to_hex(const std::vector<uint32_t>& words) {
  std::string out;
  out.reserve(words.size() * 9);
  for (uint32_t v : words) {
    out += hex32(v);
    out += '\n';
  }
  return out;
}

std::vector<uint32_t> hex_to_image(const std::string& text, const std::string& what) {
  std::vector<uint32_t> words;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    if (line.size() != 8 || line.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      bad_table(what, fmt::format("line {} is not one 32-bit hex word", lineno));
    words.push_back(static_cast<uint32_t>(std::stoul(line, nullptr, 16)));
  }
  return words;
}

void create_table_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(fmt::format("cannot create directory '{}': {}", dir, ec.message()));
}

void write_manifest(const std::string& dir, const char* kind, json fields) {
  fields["format"] = "fixroute-tables";
  fields["version"] = kManifestVersion;
  fields["kind"] = kind;
  fields["checksum"] = hex32(json_checksum(fields));
  write_table_file(fs::path(dir) / "network.json", fields.dump(1) + "\n");
}

json read_manifest(const std::string& dir, const char* kind, std::string& what) {
  const fs::path path = fs::path(dir) / "network.json";
  what = fmt::format("'{}'", path.string());
  json j = parse_checked_json(read_table_file(path, what), what, "fixroute-tables", kManifestVersion);
  if (j.value("kind", "") != kind) bad_table(what, fmt::format("\"kind\" is not \"{}\"", kind));
  return j;
}

}  // namespace fixroute
