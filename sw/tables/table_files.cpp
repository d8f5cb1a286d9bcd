#include "table_files.h"

#include <fmt/format.h>

#include <cstdint>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include <unistd.h>

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

namespace {

// Every number of a table file is a whole number of at most 32 bits, but the sizes "bits"
// and "bytes": read as int, a number with a fraction or an exponent beyond int's range is
// undefined behaviour and a wider whole number wraps round, so a hand-edited value would
// be taken as another.
void check_table_numbers(const json& j, const std::string& what, const std::string& key) {
  if (j.is_structured()) {
    if (j.is_object())
      for (const auto& [k, v] : j.items()) check_table_numbers(v, what, k);
    else
      for (const json& v : j) check_table_numbers(v, what, key);
    return;
  }
  if (!j.is_number()) return;
  const bool wide = key == "bits" || key == "bytes";
  auto fits = [&] {  // only asked of whole numbers: a float converted to an integer is the fault itself
    if (j.is_number_unsigned()) return j.get<uint64_t>() <= (wide ? uint64_t{INT64_MAX} : uint64_t{INT32_MAX});
    return wide || (j.get<int64_t>() >= INT32_MIN && j.get<int64_t>() <= INT32_MAX);
  };
  if (!j.is_number_integer() || !fits())
    bad_table(what, fmt::format("\"{}\" holds {}, not a whole number of at most {} bits", key, j.dump(), wide ? 64 : 32));
}

}  // namespace

json parse_table_json(const std::string& text, const std::string& what) {
  // The parser keeps its own stack; the depth is checked as each value opens, so a deep
  // document is refused before any recursive walk (checks, checksum, dump) meets it.
  const json::parser_callback_t bounded = [&](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxTableJsonDepth)
      bad_table(what, fmt::format("nests deeper than {} levels (not a table file)", kMaxTableJsonDepth));
    return true;
  };
  try {
    return json::parse(text, bounded);
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("not valid JSON ({})", e.what()));
  }
}

json parse_checked_json(const std::string& text, const std::string& what, const char* format, int version) {
  json j = parse_table_json(text, what);
  check_table_numbers(j, what, "");
  // `value` would throw a JSON type error on a "format" that is not a string
  if (!j.is_object() || !j.contains("format") || j["format"] != format)
    bad_table(what, fmt::format("\"format\" is not \"{}\"", format));
  if (!j.contains("version") || j["version"] != version)
    bad_table(what, fmt::format("unsupported version (this build reads version {})", version));
  if (!j.contains("checksum") || !j["checksum"].is_string())
    checksum_mismatch(what, "no checksum");
  else if (j["checksum"].get<std::string>() != hex32(json_checksum(j)))
    checksum_mismatch(what, "checksum mismatch (the file was changed or truncated)");
  return j;
}

namespace {
struct AuditState {
  TableAudit mode = TableAudit::Enforce;
  std::vector<std::string> faults;
  std::vector<std::string> resealed;  // the `what` of each file whose checksum was stale
};
thread_local AuditState* audit = nullptr;

TableAudit audit_mode() { return audit ? audit->mode : TableAudit::Enforce; }
bool noted_stale(const std::string& what) {
  return audit && std::find(audit->resealed.begin(), audit->resealed.end(), what) != audit->resealed.end();
}
}  // namespace

ScopedTableAudit::ScopedTableAudit(TableAudit mode) {
  if (audit) throw std::logic_error("a table audit is already under way on this thread");
  audit = new AuditState{mode, {}, {}};
}
ScopedTableAudit::~ScopedTableAudit() {
  delete audit;
  audit = nullptr;
}
const std::vector<std::string>& ScopedTableAudit::faults() const { return audit->faults; }
const std::vector<std::string>& ScopedTableAudit::resealed() const { return audit->resealed; }
void ScopedTableAudit::add_fault(const std::string& line) { audit->faults.push_back(line); }

void checksum_mismatch(const std::string& what, const std::string& why) {
  switch (audit_mode()) {
    case TableAudit::Enforce:
      bad_table(what, why);
    case TableAudit::Collect:
      audit->faults.push_back(fmt::format("bad table {}: {}", what, why));
      return;
    case TableAudit::Reseal:
      if (!noted_stale(what)) audit->resealed.push_back(what);
      return;
  }
}

void check_image_crc(const std::vector<uint32_t>& w, const std::string& what) {
  if (w.empty() || crc32(w.data(), (w.size() - 1) * sizeof(uint32_t)) != w.back())
    checksum_mismatch(what, "checksum mismatch");
}

void for_each_router(int count, const std::function<void(int)>& check_one) {
  if (audit_mode() != TableAudit::Collect) {
    for (int n = 0; n < count; ++n) check_one(n);
    return;
  }
  int faulty = 0;
  for (int n = 0; n < count; ++n) {
    try {
      check_one(n);
    } catch (const InputError& e) {
      audit->faults.push_back(e.what());
      ++faulty;
    } catch (const json::exception& e) {
      audit->faults.push_back(fmt::format("bad table: router {}: missing or mistyped field ({})", n, e.what()));
      ++faulty;
    }
  }
  if (faulty) throw TableCheckStopped(fmt::format("{} of {} routers faulty", faulty, count));
}

bool image_is_the_edit(const std::string& image_what, const std::string& json_what, const std::string& differs) {
  if (audit_mode() == TableAudit::Reseal) {
    const bool image_stale = noted_stale(image_what), json_stale = noted_stale(json_what);
    if (image_stale != json_stale) return image_stale;
    if (image_stale)
      bad_table(image_what, fmt::format("{}, and both were edited: reseal after editing one of them", differs));
  }
  bad_table(image_what, differs);
}

uint32_t crc32(const void* data, size_t size) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  const auto* bytes = static_cast<const Bytef*>(data);
  for (size_t done = 0; done < size;) {  // zlib takes a 32-bit length
    const uInt chunk = static_cast<uInt>(std::min<size_t>(size - done, 1u << 30));
    crc = ::crc32(crc, bytes + done, chunk);
    done += chunk;
  }
  return static_cast<uint32_t>(crc);
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

namespace {
constexpr uint32_t kPackedMagic = 0x4652504B;  // "FRPK"
constexpr uint32_t kPackedVersion = 1;
constexpr size_t kPackedHeaderWords = 3;  // magic, version, router count
}  // namespace

TableForm default_table_form(int nodes) { return nodes > kMaxFilesFormNodes ? TableForm::Packed : TableForm::Files; }

const char* table_form_name(TableForm form) { return form == TableForm::Packed ? "packed" : "files"; }

TableForm manifest_form(const json& manifest, const std::string& what) {
  const json form = manifest.value("form", json("files"));
  if (form == "files") return TableForm::Files;
  if (form == "packed") return TableForm::Packed;
  bad_table(what, fmt::format("\"form\" is {}, not \"files\" or \"packed\"", form.dump()));
}

namespace {
// Words to and from the file's little-endian bytes.
void words_to_bytes(const uint32_t* words, size_t count, std::string& bytes) {
  bytes.resize(count * 4);
  for (size_t i = 0; i < count; ++i)
    for (size_t b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<char>((words[i] >> (8 * b)) & 0xFFu);
}
uint32_t word_at(const std::string& bytes, size_t i) {
  uint32_t v = 0;
  for (size_t b = 0; b < 4; ++b) v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[4 * i + b])) << (8 * b);
  return v;
}
}  // namespace

PackedImageWriter::PackedImageWriter(const std::string& dir, size_t routers)
    : file_((fs::path(dir) / kPackedFile).string()), routers_(routers) {
  out_.open(file_.temp(), std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError(fmt::format("cannot write '{}'", file_.temp()));
  const uint32_t header[kPackedHeaderWords] = {kPackedMagic, kPackedVersion, static_cast<uint32_t>(routers)};
  put(header, kPackedHeaderWords);
}

void PackedImageWriter::put(const uint32_t* words, size_t count) {
  words_to_bytes(words, count, scratch_);
  out_.write(scratch_.data(), static_cast<std::streamsize>(scratch_.size()));
  bytes_ += scratch_.size();
}

void PackedImageWriter::add(const std::vector<uint32_t>& image) {
  const uint32_t length = static_cast<uint32_t>(image.size());
  put(&length, 1);
  put(image.data(), image.size());
  ++added_;
}

json PackedImageWriter::finish() {
  if (added_ != routers_) throw std::logic_error("packed tables: fewer images than routers announced");
  out_.close();
  if (!out_) throw InputError(fmt::format("cannot write '{}'", file_.temp()));
  file_.commit();
  return {{"file", kPackedFile}, {"routers", routers_}, {"bytes", bytes_}};
}

std::vector<uint32_t> PackedImages::image(size_t i) const {
  const auto first = words_.begin() + static_cast<std::ptrdiff_t>(starts_[i]);
  return {first, first + static_cast<std::ptrdiff_t>(lengths_[i])};
}

std::string PackedImages::image_name(size_t i) const { return fmt::format("'{}' router {}", file_, i); }

PackedImages PackedImages::read(const std::string& dir, const json& field, const std::string& what, int nodes,
                                const std::string& spec) {
  std::string name;
  size_t routers = 0, size = 0;
  try {
    name = field.at("file").get<std::string>();
    routers = field.at("routers").get<size_t>();
    size = field.at("bytes").get<size_t>();
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("\"packed\" is missing or mistyped ({})", e.what()));
  }
  if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
    bad_table(what, fmt::format("\"packed\" names '{}', not a file of the directory", name));
  const fs::path path = fs::path(dir) / name;
  const std::string fwhat = fmt::format("'{}'", path.string());
  const std::string bytes = read_table_file(path, fwhat);
  if (bytes.size() != size) bad_table(fwhat, fmt::format("has {} bytes, network.json records {}", bytes.size(), size));
  if (size % 4 != 0 || size < kPackedHeaderWords * 4) bad_table(fwhat, "is not a whole number of 32-bit words");
  auto word = [&](size_t i) { return word_at(bytes, i); };
  if (word(0) != kPackedMagic) bad_table(fwhat, "bad magic word (not a packed fixroute table file)");
  if (word(1) != kPackedVersion) bad_table(fwhat, fmt::format("version {} (this build reads {})", word(1), kPackedVersion));
  if (word(2) != routers) bad_table(fwhat, fmt::format("holds {} routers, network.json records {}", word(2), routers));
  PackedImages p;
  const size_t total = size / 4;
  p.words_.resize(total - kPackedHeaderWords);
  for (size_t i = kPackedHeaderWords; i < total; ++i) p.words_[i - kPackedHeaderWords] = word(i);
  for (size_t at = 0; at < p.words_.size();) {
    const size_t length = p.words_[at];
    if (length == 0 || length > p.words_.size() - at - 1)
      bad_table(fwhat, fmt::format("router {}'s image runs past the end of the file", p.starts_.size()));
    p.starts_.push_back(at + 1);
    p.lengths_.push_back(length);
    at += length + 1;
  }
  if (p.starts_.size() != routers) bad_table(fwhat, fmt::format("frames {} images, its header says {}", p.starts_.size(), routers));
  if (routers != static_cast<size_t>(nodes)) bad_table(what, fmt::format("packs {} routers, {} has {}", routers, spec, nodes));
  p.file_ = path.string();
  return p;
}

json common_manifest_fields(const Tables& t) {
  return {{"topology", t.topology}, {"collective", t.collective}, {"algorithm", t.algorithm},
          {"construction", t.construction}};
}

Topology read_common_manifest_fields(const json& m, Tables& t) {
  Topology topology = Topology::parse(m.at("topology").get<std::string>());
  t.topology = topology.spec();
  t.collective = m.at("collective").get<std::string>();
  t.algorithm = m.at("algorithm").get<std::string>();
  t.construction = m.at("construction").get<std::string>();
  return topology;
}

void create_table_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(fmt::format("cannot create directory '{}': {}", dir, ec.message()));
}

void check_table_dir_path(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw InputError(fmt::format("cannot write tables to '{}': not a directory", dir));
}

void write_table_dir(const std::string& dir, const std::function<void(const std::string&)>& write) {
  check_table_dir_path(dir);
  fs::path target = fs::path(dir).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();  // "out/"
  if (target.empty()) throw InputError("no table directory given");
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  PartialOutput temp(target.string(),
                     (parent / fmt::format(".{}.tmp-{}", target.filename().string(), ::getpid())).string(),
                     PartialOutput::Kind::Directory);
  std::error_code ec;
  fs::remove_all(temp.temp(), ec);
  write(temp.temp());
  if (!fs::exists(target)) return temp.commit();
  // The old manifest goes first: a set cut short while moving has none and loads as nothing.
  auto move = [&](const fs::path& from, const fs::path& to) {
    fs::rename(from, to, ec);
    if (ec) throw InputError(fmt::format("cannot write '{}': {}", to.string(), ec.message()));
  };
  fs::remove(target / "network.json", ec);
  std::vector<std::string> fresh;
  for (const fs::directory_entry& e : fs::directory_iterator(temp.temp())) fresh.push_back(e.path().filename().string());
  for (const fs::directory_entry& e : fs::directory_iterator(target)) {  // the old set's own files
    const std::string name = e.path().filename().string();
    const bool table_file = name == kPackedFile || (name.rfind("router-", 0) == 0 &&
                                                    (e.path().extension() == ".json" || e.path().extension() == ".hex"));
    if (table_file && std::find(fresh.begin(), fresh.end(), name) == fresh.end()) fs::remove(e.path(), ec);
  }
  for (const std::string& name : fresh)
    if (name != "network.json") move(fs::path(temp.temp()) / name, target / name);
  move(fs::path(temp.temp()) / "network.json", target / "network.json");
  fs::remove(temp.temp(), ec);
  temp.release();
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
  if (!j.contains("kind") || j["kind"] != kind) bad_table(what, fmt::format("\"kind\" is not \"{}\"", kind));
  return j;
}

}  // namespace fixroute
