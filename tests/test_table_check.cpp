// Hand-edited tables (issue: bad input and hand-edited tables): `tables --check` lists every
// fault, `tables --reseal` recomputes checksums after a deliberate edit, a resealed set that
// routes wrongly is caught by the scoreboard; table directories and other outputs are
// written whole or not at all, also when the process is interrupted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/core/partial_output.h"
#include "sw/core/router_kind.h"
#include "sw/kinds/combining/tables.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/tables/table_check.h"
#include "sw/tables/table_files.h"
#include "sw/topology/topology.h"
#include "test_support.h"

using namespace fixroute;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
namespace fs = std::filesystem;
using fixroute::testing_support::Outcome;
using fixroute::testing_support::run_cli;
using fixroute::testing_support::slurp;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("fixroute_check_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

std::shared_ptr<const Tables> built(const std::string& spec, const std::string& collective, const std::string& algorithm,
                                    PortModel model = {}) {
  const Problem problem{Topology::parse(spec), collective, model, "", 0};
  return find_algorithm(problem, algorithm).build(problem);
}

void write_set(const Tables& t, const fs::path& dir, TableForm form = TableForm::Files) {
  write_any_tables(t, Topology::parse(t.topology), dir.string(), form);
}

void spit(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

// ring:6 total exchange with router 2's first initial packet sent to node 4 instead.
NetworkTables misrouted_ring6() {
  NetworkTables t = as_kind<NetworkTables>(*built("ring:6", "total-exchange", "message-shift"));
  Packet& p = t.routers[2].initial[0].packet;
  EXPECT_NE(p.dest, 4);
  p.dest = 4;
  return t;
}

}  // namespace

TEST(TableCheck, ACleanSetPassesEveryCheck) {
  const fs::path dir = fresh_dir("clean");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  const TableCheckReport r = check_table_dir(dir.string());
  EXPECT_TRUE(r.faults.empty());
  EXPECT_EQ(r.summary, "port-rules tables of ring:6 total-exchange [message-shift], 6 routers");
  EXPECT_TRUE(reseal_table_dir(dir.string()).resealed.empty());
}

// JSON nested far deeper than any table file (the check's walk, the checksum and the dump
// recurse) is refused as it is read: 30 000 levels crashed the checker before.
TEST(TableCheck, JsonNestedThirtyThousandDeepIsRefusedNotACrash) {
  const fs::path dir = fresh_dir("deep");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  const std::string deep = std::string(30000, '[') + std::string(30000, ']');
  spit(dir / "router-2.json", "{\"format\": \"fixroute-router\", \"node\": " + deep + "}");
  TableCheckReport r = check_table_dir(dir.string());
  ASSERT_EQ(r.faults.size(), 1u);
  EXPECT_THAT(r.faults[0], HasSubstr("router-2.json': nests deeper than 64 levels"));
  EXPECT_THROW(load_any_tables(dir.string()), InputError);
  EXPECT_THROW(reseal_table_dir(dir.string()), InputError);
  spit(dir / "network.json", deep);
  r = check_table_dir(dir.string());
  ASSERT_EQ(r.faults.size(), 1u);
  EXPECT_THAT(r.faults[0], HasSubstr("network.json': nests deeper than 64 levels"));
  const Outcome o = run_cli("run ring:6 total-exchange --tables " + dir.string());
  EXPECT_EQ(o.code, 2) << o.err;
}

TEST(TableCheck, ResealOfACorruptImageNamesTheFaultAsCheckDoes) {
  const fs::path dir = fresh_dir("reseal_corrupt");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  std::string hex = slurp(dir / "router-3.hex");
  const size_t third = hex.find('\n', hex.find('\n') + 1) + 1;  // the node word
  hex.replace(third, 8, "deadbeef");
  spit(dir / "router-3.hex", hex);
  try {
    reseal_table_dir(dir.string());
    FAIL() << "resealed a corrupt image";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("differs from"));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("-559038737")));
  }
}

TEST(TableCheck, ListsEveryFaultOfEveryRouter) {
  const fs::path dir = fresh_dir("faults");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  std::string json = slurp(dir / "router-1.json");
  json.replace(json.find("\"send_period\": 1"), 16, "\"send_period\": 0");
  spit(dir / "router-1.json", json);
  spit(dir / "router-4.hex", "0000zz00\n");
  const TableCheckReport r = check_table_dir(dir.string());
  ASSERT_EQ(r.faults.size(), 3u) << ::testing::PrintToString(r.faults);
  EXPECT_THAT(r.faults[0], HasSubstr("router-1.json': checksum mismatch"));
  EXPECT_THAT(r.faults[1], HasSubstr("router-1.json': port 0 send_period 0"));
  EXPECT_THAT(r.faults[2], HasSubstr("router-4.hex': line 1 is not one 32-bit hex word"));
  EXPECT_TRUE(r.summary.empty());
  // A fault other than a checksum is not resealed: the directory stays as it was.
  EXPECT_THROW(reseal_table_dir(dir.string()), InputError);
  EXPECT_EQ(slurp(dir / "router-4.hex"), "0000zz00\n");
}

// A table value read as an int must be one: a number with a fraction or an exponent (a
// float beyond int's range was undefined behaviour in the conversion; the table_dir fuzz
// target found it) and a whole number wider than 32 bits (it would wrap round) are refused.
TEST(TableCheck, ANumberThatIsNotAWhole32BitNumberIsRefused) {
  for (const char* value : {"5.44e77", "1.0", "4294967297", "-2147483649"}) {
    const fs::path dir = fresh_dir("numbers");
    write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
    std::string json = slurp(dir / "router-1.json");
    json.replace(json.find("\"send_period\": 1"), 16, std::string("\"send_period\": ") + value);
    spit(dir / "router-1.json", json);
    const TableCheckReport r = check_table_dir(dir.string());
    ASSERT_EQ(r.faults.size(), 1u) << value << ": " << ::testing::PrintToString(r.faults);
    EXPECT_THAT(r.faults[0], HasSubstr("\"send_period\" holds ")) << value;
    EXPECT_THAT(r.faults[0], HasSubstr("not a whole number of at most 32 bits")) << value;
    EXPECT_THROW(reseal_table_dir(dir.string()), InputError) << value;
    fs::remove_all(dir);
  }
}

// A "format" that is not a string is the same fault as a wrong one (it escaped as a JSON type
// error; the table_dir fuzz target found it).
TEST(TableCheck, AFormatThatIsNotAStringIsRefused) {
  const fs::path dir = fresh_dir("format");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  nlohmann::json j = nlohmann::json::parse(slurp(dir / "network.json"));
  j["format"] = nlohmann::json::object();
  spit(dir / "network.json", j.dump(1));
  try {
    load_any_tables(dir.string());
    ADD_FAILURE() << "loaded";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("\"format\" is not"));
  }
  const TableCheckReport r = check_table_dir(dir.string());
  ASSERT_EQ(r.faults.size(), 1u) << ::testing::PrintToString(r.faults);
  fs::remove_all(dir);
}

TEST(TableCheck, AManifestThatIsNotJsonIsOneFault) {
  const fs::path dir = fresh_dir("manifest");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  spit(dir / "network.json", "{");
  const TableCheckReport r = check_table_dir(dir.string());
  ASSERT_EQ(r.faults.size(), 1u);
  EXPECT_THAT(r.faults[0], HasSubstr("network.json': not valid JSON"));
  EXPECT_THROW(check_table_dir((dir / "nonexistent").string()), InputError);
}

TEST(TableReseal, AnEditedRouterJsonIsTakenAndTheScoreboardNamesTheWrongPacket) {
  const fs::path dir = fresh_dir("json_edit");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  nlohmann::json j = nlohmann::json::parse(slurp(dir / "router-2.json"));
  const int old_dest = j["initial"][0]["dest"];
  j["initial"][0]["dest"] = 4;
  spit(dir / "router-2.json", j.dump(1));
  EXPECT_THROW(load_any_tables(dir.string()), InputError);

  const ResealReport r = reseal_table_dir(dir.string());
  ASSERT_EQ(r.resealed.size(), 1u);
  EXPECT_THAT(r.resealed[0], HasSubstr("router-2.json"));
  EXPECT_TRUE(check_table_dir(dir.string()).faults.empty());
  EXPECT_EQ(as_kind<NetworkTables>(*load_any_tables(dir.string())).routers, misrouted_ring6().routers);

  Outcome o = run_cli("run ring:6 total-exchange --tables " + dir.string());
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_THAT(o.out, HasSubstr("step 1: packet 2->4 seq 4 is not a packet of this collective"));
  EXPECT_THAT(o.out, HasSubstr(fmt::format("packet 2->{} seq 4 never reached node {}", old_dest, old_dest)));
}

TEST(TableReseal, AnEditedHexImageIsTakenAndItsJsonRewritten) {
  const fs::path dir = fresh_dir("hex_edit");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  const NetworkTables edited = misrouted_ring6();
  std::vector<uint32_t> image = encode_image(edited.routers[2], 2);
  image.back() = hex_to_image(slurp(dir / "router-2.hex"), "old").back();  // edited by hand: the old checksum stays
  spit(dir / "router-2.hex", image_to_hex(image));

  const ResealReport r = reseal_table_dir(dir.string());
  ASSERT_EQ(r.resealed.size(), 1u);
  EXPECT_THAT(r.resealed[0], HasSubstr("router-2.hex"));
  EXPECT_EQ(as_kind<NetworkTables>(*load_any_tables(dir.string())).routers, edited.routers);
  EXPECT_EQ(nlohmann::json::parse(slurp(dir / "router-2.json"))["initial"][0]["dest"], 4);
}

TEST(TableReseal, BothFormsEditedDifferentlyIsRefused) {
  const fs::path dir = fresh_dir("both_edit");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  nlohmann::json j = nlohmann::json::parse(slurp(dir / "router-2.json"));
  j["initial"][0]["dest"] = 1;
  spit(dir / "router-2.json", j.dump(1));
  std::vector<uint32_t> image = encode_image(misrouted_ring6().routers[2], 2);
  image.back() ^= 1;
  spit(dir / "router-2.hex", image_to_hex(image));
  try {
    reseal_table_dir(dir.string());
    FAIL() << "resealed two different edits";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("both were edited"));
  }
}

TEST(TableReseal, ACombiningManifestEditIsTaken) {
  PortModel model;
  model.combining = true;
  const auto tables = built("ring:6", "gossip", "flooding", model);
  const fs::path dir = fresh_dir("combining_edit");
  write_set(*tables, dir);
  nlohmann::json m = nlohmann::json::parse(slurp(dir / "network.json"));
  m["routers"][3]["rows"][0] = nlohmann::json::array({0});
  spit(dir / "network.json", m.dump(1));
  const TableCheckReport before = check_table_dir(dir.string());
  ASSERT_EQ(before.faults.size(), 2u) << ::testing::PrintToString(before.faults);
  EXPECT_THAT(before.faults[1], HasSubstr("router-3.hex': differs from the rows"));

  const ResealReport r = reseal_table_dir(dir.string());
  ASSERT_EQ(r.resealed.size(), 1u);
  EXPECT_THAT(r.resealed[0], HasSubstr("network.json"));
  const auto loaded = load_any_tables(dir.string());
  EXPECT_EQ(as_kind<CombiningTables>(*loaded).router_rows(3)[0], 1u);  // port 0 only
}

TEST(TableReseal, APackedImageWithAStaleChecksum) {
  const fs::path dir = fresh_dir("packed");
  const auto tables = built("torus:4x4", "gossip", "hamiltonian-2");
  write_set(*tables, dir, TableForm::Packed);
  std::string bytes = slurp(dir / "tables.bin");
  // Router 1's checksum word: after the header (3 words) and router 0's length and image.
  const uint32_t length0 = static_cast<uint8_t>(bytes[12]) | static_cast<uint32_t>(static_cast<uint8_t>(bytes[13])) << 8;
  const size_t length1_at = 4 * (3 + 1 + length0);
  const uint32_t length1 = static_cast<uint8_t>(bytes[length1_at]) |
                           static_cast<uint32_t>(static_cast<uint8_t>(bytes[length1_at + 1])) << 8;
  bytes[length1_at + 4 * length1] ^= 0x10;
  spit(dir / "tables.bin", bytes);
  const TableCheckReport r = check_table_dir(dir.string());
  ASSERT_EQ(r.faults.size(), 1u) << ::testing::PrintToString(r.faults);
  EXPECT_THAT(r.faults[0], HasSubstr("tables.bin' router 1: checksum mismatch"));
  EXPECT_EQ(reseal_table_dir(dir.string()).resealed.size(), 1u);
  EXPECT_TRUE(check_table_dir(dir.string()).faults.empty());
  EXPECT_EQ(as_kind<NetworkTables>(*load_any_tables(dir.string())).routers, as_kind<NetworkTables>(*tables).routers);
}

TEST(TableCheckCli, CheckAndResealExitCodes) {
  const fs::path dir = fresh_dir("cli");
  Outcome o = run_cli("tables ring:6 total-exchange -o " + dir.string());
  ASSERT_EQ(o.code, 0) << o.err;
  o = run_cli("tables --check " + dir.string());
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_THAT(o.out, HasSubstr("every check passed"));
  nlohmann::json j = nlohmann::json::parse(slurp(dir / "router-2.json"));
  j["initial"][0]["dest"] = 4;
  spit(dir / "router-2.json", j.dump(1));
  o = run_cli("tables --check " + dir.string());
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_THAT(o.out, HasSubstr("2 faults"));
  o = run_cli("tables --reseal " + dir.string());
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_THAT(o.out, HasSubstr("resealed '"));
  o = run_cli("tables --check " + dir.string());
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  o = run_cli("tables --check " + dir.string() + " ring:6");
  EXPECT_EQ(o.code, 2);
  o = run_cli("tables ring:6 total-exchange");
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("tables needs TOPOLOGY COLLECTIVE -o DIR"));
}

TEST(TableDirectory, ASmallerSetReplacesALargerOneWhole) {
  const fs::path dir = fresh_dir("replace");
  write_set(*built("ring:8", "total-exchange", "message-shift"), dir);
  spit(dir / "notes.txt", "mine");
  write_set(*built("ring:5", "total-exchange", "message-shift"), dir);
  EXPECT_FALSE(fs::exists(dir / "router-5.json"));
  EXPECT_FALSE(fs::exists(dir / "router-7.hex"));
  EXPECT_TRUE(fs::exists(dir / "router-4.hex"));
  EXPECT_EQ(slurp(dir / "notes.txt"), "mine");  // not a table file: left alone
  EXPECT_EQ(load_any_tables(dir.string())->topology, "ring:5");
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    EXPECT_EQ(e.path().filename().string().find("." + dir.filename().string() + ".tmp"), std::string::npos);
}

TEST(TableDirectory, AWriteThatFailsLeavesTheOldSet) {
  const fs::path dir = fresh_dir("failed");
  write_set(*built("ring:6", "total-exchange", "message-shift"), dir);
  const std::string before = slurp(dir / "network.json");
  EXPECT_THROW(write_table_dir(dir.string(),
                               [](const std::string& temp) {
                                 create_table_dir(temp);
                                 spit(fs::path(temp) / "router-0.json", "half");
                                 throw InputError("interrupted");
                               }),
               InputError);
  EXPECT_EQ(slurp(dir / "network.json"), before);
  EXPECT_NO_THROW(load_any_tables(dir.string()));
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    EXPECT_EQ(e.path().filename().string().find("." + dir.filename().string() + ".tmp"), std::string::npos);
}

TEST(PartialOutput, CommitRenamesAndAnAbandonedOneLeavesNothing) {
  const fs::path dir = fresh_dir("partial");
  fs::create_directories(dir);
  {
    PartialOutput out((dir / "a.csv").string());
    spit(out.temp(), "x");
  }
  EXPECT_TRUE(fs::is_empty(dir));
  spit(dir / "b.csv", "old");
  {
    PartialOutput out((dir / "b.csv").string());
    spit(out.temp(), "new");
    EXPECT_EQ(slurp(dir / "b.csv"), "old");
    out.commit();
  }
  EXPECT_EQ(slurp(dir / "b.csv"), "new");
  EXPECT_THAT(std::vector<fs::path>(fs::directory_iterator(dir), fs::directory_iterator()),
              ElementsAre(dir / "b.csv"));
}

TEST(PartialOutput, AnInterruptRemovesTheTemporaries) {
  const fs::path dir = fresh_dir("interrupt");
  fs::create_directories(dir);
  const fs::path file = dir / "trace.csv", tables = dir / "tables";
  EXPECT_EXIT(
      {
        remove_partial_outputs_on_interrupt();
        PartialOutput csv(file.string());
        spit(csv.temp(), "half a trace");
        PartialOutput set(tables.string(), (dir / ".tables.tmp").string(), PartialOutput::Kind::Directory);
        fs::create_directories(set.temp());
        for (int i = 0; i < 300; ++i) spit(fs::path(set.temp()) / ("router-" + std::to_string(i) + ".hex"), "0");
        std::raise(SIGTERM);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_TRUE(fs::is_empty(dir)) << "left: " << fs::directory_iterator(dir)->path();
}
