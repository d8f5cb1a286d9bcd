// The table directory every router kind writes and reads (docs/table-format.md): the
// directory, network.json with its format, version, kind and checksum, the hex memory
// images, and the one-line refusal of a bad file. Each kind adds its own fields and files
// (port_rule_tables.h, xbar_tables.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sw/core/errors.h"
#include "sw/core/partial_output.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

// network.json of every router kind: 4 records the kind ("port-rules", "crossbar").
constexpr int kManifestVersion = 4;

[[noreturn]] void bad_table(const std::string& what, const std::string& why);  // throws InputError
std::string read_table_file(const std::filesystem::path& path, const std::string& what);
void write_table_file(const std::filesystem::path& path, const std::string& text);
std::string hex32(uint32_t v);
uint32_t crc32(const void* data, size_t size);
uint32_t json_checksum(const nlohmann::json& j);  // CRC-32 of the dump without "checksum"
// The deepest nesting a table file's JSON may have (its own files nest 4 deep): deeper is
// refused as it is read, before anything recurses through it.
constexpr int kMaxTableJsonDepth = 64;
// Parses a table file's JSON; refuses (bad_table) text that is not JSON or nests deeper
// than kMaxTableJsonDepth.
nlohmann::json parse_table_json(const std::string& text, const std::string& what);
// Parses a JSON table document and checks "format", "version" and "checksum".
nlohmann::json parse_checked_json(const std::string& text, const std::string& what, const char* format, int version);

// Memory image: 32-bit words, one per hex line.
std::string image_to_hex(const std::vector<uint32_t>& words);
std::vector<uint32_t> hex_to_image(const std::string& text, const std::string& what);

// How a load treats what it finds wrong (docs/table-format.md, "Checking and resealing").
// Enforce (every run): the first fault throws. Collect (`tables --check`): each fault is
// listed and the load goes on; every router is checked on its own. Reseal (`tables
// --reseal`): a checksum that does not match is noted and accepted, and where a router's
// two forms (its JSON and its hex image) differ, the one whose checksum broke is taken as
// the edit; any other fault throws. One audit per thread at a time.
enum class TableAudit { Enforce, Collect, Reseal };
class ScopedTableAudit {
 public:
  explicit ScopedTableAudit(TableAudit mode);
  ~ScopedTableAudit();
  ScopedTableAudit(const ScopedTableAudit&) = delete;
  ScopedTableAudit& operator=(const ScopedTableAudit&) = delete;
  // Collect: "bad table WHAT: why" lines, in the order found.
  const std::vector<std::string>& faults() const;
  // Reseal: the files whose checksums did not match, in the order found.
  const std::vector<std::string>& resealed() const;
  // Collect: a fault the load threw after the per-router checks (kept unless it is the
  // stop for_each_router throws after faulty routers).
  void add_fault(const std::string& line);
};
// Thrown under Collect when routers were faulty: the network-wide checks would only
// repeat what is listed. Caught by `tables --check`.
class TableCheckStopped : public InputError {
 public:
  using InputError::InputError;
};
// A checksum that does not match: throws under Enforce, is listed under Collect, noted
// under Reseal.
void checksum_mismatch(const std::string& what, const std::string& why);
// The last word of every kind's memory image is the CRC-32 of the words before it.
void check_image_crc(const std::vector<uint32_t>& image, const std::string& what);
// Runs check_one(n) for n in 0..count-1; under Collect a router's fault is listed and the
// next router checked, and the load stops after the last with TableCheckStopped.
void for_each_router(int count, const std::function<void(int)>& check_one);
// Where a router's hex image `image_what` and its JSON form `json_what` decode
// differently: true when the image is to be taken (Reseal, only the image's checksum
// broke), false for the JSON (Reseal, only the JSON's checksum broke); otherwise throws
// bad_table(image_what, differs).
bool image_is_the_edit(const std::string& image_what, const std::string& json_what, const std::string& differs);

// The directory's form (TableForm, core/router_kind.h) is network.json's "form".
constexpr const char* kPackedFile = "tables.bin";
// Above this many nodes `fixroute tables` writes the packed form.
constexpr int kMaxFilesFormNodes = 32768;
TableForm default_table_form(int nodes);
const char* table_form_name(TableForm form);
// network.json's "form" ("files" where absent); throws InputError for another value.
TableForm manifest_form(const nlohmann::json& manifest, const std::string& what);

// The packed file: magic, version, router count, then per router its image's length in
// words and the image; 32-bit little-endian words. Written as the images come (under a
// temporary name, renamed by finish(); removed if it never is).
class PackedImageWriter {
 public:
  PackedImageWriter(const std::string& dir, size_t routers);
  void add(const std::vector<uint32_t>& image);
  // Renames the file into place; returns the manifest's "packed" field (file, routers, bytes).
  nlohmann::json finish();

 private:
  void put(const uint32_t* words, size_t count);
  PartialOutput file_;
  std::ofstream out_;
  std::string scratch_;
  size_t routers_ = 0, added_ = 0, bytes_ = 0;
};

// The packed file the manifest's "packed" field names, read whole: its size, header and
// framing checked (each image's own checksum is its kind's to check).
class PackedImages {
 public:
  // `nodes`: the routers the topology `spec` has (refused when the file frames another count).
  static PackedImages read(const std::string& dir, const nlohmann::json& packed_field, const std::string& what,
                           int nodes, const std::string& spec);
  size_t routers() const { return starts_.size(); }
  std::vector<uint32_t> image(size_t i) const;  // router i's (a copy: kinds decode vectors)
  std::string image_name(size_t i) const;        // for errors: the file and the router

 private:
  std::vector<uint32_t> words_;  // the images back to back, each after its length
  std::vector<size_t> starts_;   // where each begins in words_
  std::vector<size_t> lengths_;
  std::string file_;
};

// The manifest fields every kind's tables have (Tables: topology, collective, algorithm,
// construction), and reading them back: returns the topology, canonical spec in `tables`.
nlohmann::json common_manifest_fields(const Tables& tables);
Topology read_common_manifest_fields(const nlohmann::json& manifest, Tables& tables);

// Creates `dir` (throws InputError when it cannot).
void create_table_dir(const std::string& dir);
// Refuses (InputError) a table directory path that exists and is not a directory: before
// anything is built or written.
void check_table_dir_path(const std::string& dir);
// Writes a table directory whole or not at all: write(TEMP) fills a fresh sibling
// directory, which then becomes `dir` (renamed where `dir` does not exist; else its files
// are moved in, network.json last and the old one removed first, and the old set's other
// table files removed). An interruption before the move leaves the old set as it was.
void write_table_dir(const std::string& dir, const std::function<void(const std::string&)>& write);
// Writes `dir`/network.json: `fields` with "format", "version", "kind" and the checksum.
void write_manifest(const std::string& dir, const char* kind, nlohmann::json fields);
// `dir`/network.json checked (format, version, checksum) and of `kind`; `what` is set to
// the name errors give it.
nlohmann::json read_manifest(const std::string& dir, const char* kind, std::string& what);

// The files form's routers of the kinds whose rows network.json lists ("routers": one
// entry per node, in node order, each naming its hex image): checks the listing and
// calls each(n, entry, image words, the image's name for errors) per router, under
// for_each_router.
template <class Each>
void for_each_listed_router(const nlohmann::json& routers, int nodes, const std::filesystem::path& root,
                            const std::string& what, Each each) {
  if (routers.size() != static_cast<size_t>(nodes)) bad_table(what, "lists " + std::to_string(routers.size()) + " routers, not " + std::to_string(nodes));
  for_each_router(nodes, [&](int n) {
    const nlohmann::json& entry = routers[static_cast<size_t>(n)];
    if (entry.at("node").get<int>() != n)
      bad_table(what, "router " + std::to_string(n) + " is listed as node " + std::to_string(entry.at("node").get<int>()));
    const std::filesystem::path hex = root / entry.at("hex").get<std::string>();
    const std::string hwhat = "'" + hex.string() + "'";
    each(n, entry, hex_to_image(read_table_file(hex, hwhat), hwhat), hwhat);
  });
}

// Writes the packed form: DIR/tables.bin from encode(router) of each router in node order,
// then DIR/network.json, `manifest` with the form and the file's record.
template <class Routers, class Encode>
void write_packed_tables(const std::string& dir, const char* kind, nlohmann::json manifest, const Routers& routers,
                         Encode encode) {
  PackedImageWriter packed(dir, routers.size());
  for (const auto& router : routers) packed.add(encode(router));
  manifest["form"] = table_form_name(TableForm::Packed);
  manifest["packed"] = packed.finish();
  write_manifest(dir, kind, std::move(manifest));
}

// Writes the table directory of a kind whose routers are nodes 0..nodes-1, each with one
// image (encode(n)): in the packed form DIR/tables.bin; in the files form DIR/router-N.hex
// and, in network.json's "routers", each router's `field` (field_json(n)), its hex file and
// the image's CRC.
template <class FieldJson, class Encode>
void write_numbered_router_tables(const std::string& dir, const char* kind, nlohmann::json manifest, int nodes,
                                  TableForm form, const char* field, FieldJson field_json, Encode encode) {
  std::vector<int> ids(static_cast<size_t>(nodes));
  for (int n = 0; n < nodes; ++n) ids[static_cast<size_t>(n)] = n;
  if (form == TableForm::Packed) return write_packed_tables(dir, kind, std::move(manifest), ids, encode);
  nlohmann::json routers = nlohmann::json::array();
  for (int n : ids) {
    const std::vector<uint32_t> image = encode(n);
    const std::string hex = "router-" + std::to_string(n) + ".hex";
    write_table_file(std::filesystem::path(dir) / hex, image_to_hex(image));
    routers.push_back({{"node", n}, {field, field_json(n)}, {"hex", hex}, {"image_crc32", hex32(image.back())}});
  }
  manifest["routers"] = std::move(routers);
  write_manifest(dir, kind, std::move(manifest));
}

}  // namespace fixroute
