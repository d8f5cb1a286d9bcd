#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sw/schedulers/port_rules.h"
#include "sw/core/router_kind.h"
#include "sw/core/errors.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/core/algorithm.h"
#include "sw/topology/topology.h"

#include "test_support.h"

using namespace fixroute;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

NetworkTables tables_for(const Topology& topo, const char* algorithm = "", PortModel model = {}) {
  return build_tables(find_algorithm("total-exchange", algorithm, topo), topo, model);
}

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("fixroute_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

using fixroute::testing_support::slurp;

void spit(const fs::path& p, const std::string& s) { std::ofstream(p) << s; }

void expect_refused(const fs::path& dir, const std::string& why) {
  try {
    load_tables(dir.string());
    FAIL() << "a bad table set was loaded";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(why));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("\n")));
  }
}

}  // namespace

TEST(Tables, ImageRoundTrip) {
  Topology topo = Topology::parse("ring:6");
  NetworkTables t = tables_for(topo);
  for (const RouterTable& r : t.routers) {
    std::vector<uint32_t> words = encode_image(r, topo.num_ports());
    EXPECT_EQ(decode_image(hex_to_image(image_to_hex(words), "test"), topo.num_ports(), topo.num_nodes()), r);
  }
}

TEST(Tables, DirectoryRoundTripIsExact) {
  Topology topo = Topology::parse("line:7");
  NetworkTables t = tables_for(topo, "scatter-sequence", PortModel{false, true});
  fs::path dir = fresh_dir("roundtrip");
  write_tables(t, topo, dir.string());
  NetworkTables back = load_tables(dir.string());
  EXPECT_EQ(back.topology, "line:7");
  EXPECT_EQ(back.algorithm, "scatter-sequence");
  EXPECT_EQ(back.port_model, (PortModel{false, true}));
  ASSERT_EQ(back.routers.size(), t.routers.size());
  for (size_t i = 0; i < t.routers.size(); ++i) EXPECT_EQ(back.routers[i], t.routers[i]);
  fs::remove_all(dir);
}

TEST(Tables, ImageBitsGrowWithTimeDependentTables) {
  Topology topo = Topology::parse("line:8");
  // Each router's image: 5 header words, 3 words per port, 3 per initial packet, 1 checksum.
  NetworkTables t = tables_for(topo);
  EXPECT_EQ(table_bits(t.routers[0], 2), (5 + 3 * 2 + 3 * 7 + 1) * 32);
}

class CorruptTables : public ::testing::Test {
 protected:
  void SetUp() override {
    topo_ = Topology::parse("ring:5");
    dir_ = fresh_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    write_tables(tables_for(topo_), topo_, dir_.string());
  }
  void TearDown() override { fs::remove_all(dir_); }
  Topology topo_ = Topology::parse("ring:3");
  fs::path dir_;
};

TEST_F(CorruptTables, CleanSetLoads) { EXPECT_EQ(load_tables(dir_.string()).routers.size(), 5u); }

TEST_F(CorruptTables, EditedJsonFailsItsChecksum) {
  fs::path p = dir_ / "router-2.json";
  std::string s = slurp(p);
  size_t at = s.find("\"hops\": 2");
  ASSERT_NE(at, std::string::npos);
  s.replace(at, 9, "\"hops\": 1");
  spit(p, s);
  expect_refused(dir_, "checksum mismatch");
}

TEST_F(CorruptTables, TruncatedHexIsRefused) {
  fs::path p = dir_ / "router-1.hex";
  std::string s = slurp(p);
  spit(p, s.substr(0, s.size() - 18));
  expect_refused(dir_, "router-1.hex");
}

TEST_F(CorruptTables, GarbageHexIsRefused) {
  spit(dir_ / "router-3.hex", "zzzz\n");
  expect_refused(dir_, "not one 32-bit hex word");
}

TEST_F(CorruptTables, MissingRouterFileIsRefused) {
  fs::remove(dir_ / "router-4.json");
  expect_refused(dir_, "cannot read");
}

TEST_F(CorruptTables, OtherVersionIsRefused) {
  fs::path p = dir_ / "network.json";
  std::string s = slurp(p);
  size_t at = s.find("\"version\": 4");
  ASSERT_NE(at, std::string::npos);
  s.replace(at, 12, "\"version\": 7");
  spit(p, s);
  expect_refused(dir_, "unsupported version");
}

// network.json names its router kind; run_case and `fixroute run --tables` read it from there.
TEST_F(CorruptTables, ManifestWithoutItsKindIsRefused) {
  fs::path p = dir_ / "network.json";
  std::string s = slurp(p);
  size_t at = s.find("\"kind\": \"port-rules\"");
  ASSERT_NE(at, std::string::npos);
  spit(p, s.substr(0, at) + "\"kind\": \"wormhole\"" + s.substr(at + 20));
  try {
    load_any_tables(dir_.string());
    FAIL() << "tables of an unknown kind were loaded";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("\"kind\" is 'wormhole'; this build reads"));
    EXPECT_THAT(e.what(), HasSubstr("port-rules"));
  }
}

TEST_F(CorruptTables, NotJsonIsRefused) {
  spit(dir_ / "network.json", "{ nope");
  expect_refused(dir_, "not valid JSON");
}

TEST_F(CorruptTables, HexFromAnotherRouterIsRefused) {
  fs::copy_file(dir_ / "router-0.hex", dir_ / "router-1.hex", fs::copy_options::overwrite_existing);
  expect_refused(dir_, "router-1.hex");
}

TEST(TableValidation, RefusesOutOfRangeEntries) {
  Topology topo = Topology::parse("line:4");
  NetworkTables t = tables_for(topo);
  NetworkTables bad = t;
  bad.routers[3].ports[1].forward_mask = 1u;  // node 3 has no right neighbour
  EXPECT_THROW(validate(bad, topo), InputError);
  bad = t;
  bad.routers[1].initial[0].packet.dest = 9;
  EXPECT_THROW(validate(bad, topo), InputError);
  bad = t;
  bad.routers[1].ports[0].send_phase = 1;  // phase must be below period 1
  EXPECT_THROW(validate(bad, topo), InputError);
  bad = t;
  bad.routers[0].initial[0].release = 0;
  EXPECT_THROW(validate(bad, topo), InputError);
  bad = t;
  bad.routers.pop_back();
  EXPECT_THROW(validate(bad, topo), InputError);
  EXPECT_NO_THROW(validate(t, topo));
}

TEST(TableValidation, ImageWithWrongMagicOrChecksumIsRefused) {
  Topology topo = Topology::parse("line:4");
  std::vector<uint32_t> w = encode_image(tables_for(topo).routers[1], 2);
  std::vector<uint32_t> bad = w;
  bad[0] ^= 1;
  EXPECT_THROW(decode_image(bad, 2, 4), InputError);
  bad = w;
  bad[7] ^= 0x100;
  EXPECT_THROW(decode_image(bad, 2, 4), InputError);
  EXPECT_THROW(decode_image(w, 4, 4), InputError);  // port count of another topology
}

// The packed form: every router's image in one file (large networks; `tables --packed`).
namespace {

std::shared_ptr<const Tables> built(const std::string& spec, const std::string& collective, const std::string& algorithm,
                                    const std::string& permutation = "") {
  const Problem problem{Topology::parse(spec), collective, PortModel{}, permutation, 0};
  return find_algorithm(problem, algorithm).build(problem);
}

void expect_same_tables(const Tables& a, const Tables& b) {
  ASSERT_STREQ(a.kind(), b.kind());
  EXPECT_EQ(a.topology, b.topology);
  EXPECT_EQ(a.algorithm, b.algorithm);
  EXPECT_EQ(a.construction, b.construction);
  if (const auto* pa = dynamic_cast<const NetworkTables*>(&a)) {
    EXPECT_TRUE(pa->routers == as_kind<NetworkTables>(b).routers);
  } else {
    const auto& xa = as_kind<XbarTables>(a);
    const auto& xb = as_kind<XbarTables>(b);
    EXPECT_TRUE(xa.routers == xb.routers);
    EXPECT_EQ(xa.phase_starts, xb.phase_starts);
    EXPECT_EQ(xa.permutation, xb.permutation);
  }
}

}  // namespace

TEST(PackedTables, RoundTripIsExactForEveryKind) {
  // unicast packets (total exchange), broadcast copies, taps with switch steps, crossbar phases
  const std::vector<std::array<std::string, 4>> cases = {{"line:7", "total-exchange", "furthest-first", ""},
                                                         {"torus:6x6", "gossip", "hamiltonian-2", ""},
                                                         {"torus:5x5", "gossip", "partial-cycles", ""},
                                                         {"mesh:8x8", "fft", "divide-and-conquer", ""},
                                                         {"mesh:4x4", "permutation", "", "transpose"}};
  for (const auto& [spec, collective, algorithm, permutation] : cases) {
    SCOPED_TRACE(spec + " " + collective);
    const auto tables = built(spec, collective, algorithm, permutation);
    const Topology topo = Topology::parse(spec);
    const fs::path dir = fresh_dir("packed");
    write_any_tables(*tables, topo, dir.string(), TableForm::Packed);
    EXPECT_TRUE(fs::exists(dir / kPackedFile));
    EXPECT_FALSE(fs::exists(dir / "router-0.hex")) << "one file for all routers";
    EXPECT_FALSE(fs::exists(dir / (std::string(kPackedFile) + ".tmp")));
    expect_same_tables(*tables, *load_any_tables(dir.string()));
    fs::remove_all(dir);
  }
}

TEST(PackedTables, ImagesGiveNodeIdsAndHopsWordsOfTheirOwn) {
  RouterTable r;
  r.node = 3;
  r.ports.resize(4);
  r.initial.push_back({2, Packet{1000000, kBroadcastDest, 1, 700000}, 1});
  r.initial.push_back({0, Packet{4000000, 4194303, 0, 5}, 2});
  const std::vector<uint32_t> w = encode_image(r, 4, TableForm::Packed);
  EXPECT_EQ(decode_image(w, 4, 1 << 22, "test", TableForm::Packed), r);
  EXPECT_THROW(decode_image(w, 4, 1 << 22, "test", TableForm::Files), InputError) << "the forms have their own magic";
  EXPECT_THROW(decode_image(w, 4, 4000000, "test", TableForm::Packed), InputError) << "dest beyond the network";
}

TEST(PackedTables, ImageBitsAreTheImagesLength) {
  const auto tables = built("torus:5x5", "gossip", "partial-cycles");
  const auto& t = as_kind<NetworkTables>(*tables);
  size_t switches = 0;
  for (const RouterTable& r : t.routers) {
    EXPECT_EQ(table_bits(r, 4), static_cast<int64_t>(encode_image(r, 4).size()) * 32);
    for (const PortRule& p : r.ports) switches += p.switch_steps.size();
  }
  EXPECT_GT(switches, 0u) << "the case exercises switch steps";
}

class DamagedPackedTables : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_dir("packed_damage");
    const Topology topo = Topology::parse("ring:5");
    write_any_tables(*built("ring:5", "total-exchange", "message-shift"), topo, dir_.string(), TableForm::Packed);
    bytes_ = slurp(dir_ / kPackedFile);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void expect_refused_with(const std::string& bytes, const std::string& why) {
    std::ofstream(dir_ / kPackedFile, std::ios::binary) << bytes;
    try {
      load_any_tables(dir_.string());
      FAIL() << "damaged packed tables were loaded";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(why));
      EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("\n")));
    }
  }
  fs::path dir_;
  std::string bytes_;
};

TEST_F(DamagedPackedTables, CleanSetLoads) { EXPECT_EQ(as_kind<NetworkTables>(*load_any_tables(dir_.string())).routers.size(), 5u); }

TEST_F(DamagedPackedTables, TruncatedFileIsRefused) {
  expect_refused_with(bytes_.substr(0, bytes_.size() - 4), "network.json records");
}

TEST_F(DamagedPackedTables, FlippedBitFailsTheRoutersChecksum) {
  std::string b = bytes_;
  b[b.size() - 12] ^= 0x01;  // inside the last router's image
  expect_refused_with(b, "router 4");
}

TEST_F(DamagedPackedTables, BadMagicIsRefused) {
  std::string b = bytes_;
  b[0] ^= 0x01;
  expect_refused_with(b, "not a packed fixroute table file");
}

TEST_F(DamagedPackedTables, FramingPastTheEndIsRefused) {
  std::string b = bytes_;
  b[12] = static_cast<char>(0xFF);  // the first image's length
  expect_refused_with(b, "runs past the end");
}

TEST(PackedTables, PerRouterFilesStopAtTheirNodeIdWidth) {
  const Topology topo = Topology::parse("torus:256x256");
  const auto tables = built("torus:256x256", "gossip", "hamiltonian-2");
  const fs::path dir = fresh_dir("files_too_large");
  try {
    write_any_tables(*tables, topo, dir.string(), TableForm::Files);
    FAIL() << "65536 port-rule routers written as per-router files";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("at most 32768 nodes"));
  }
  EXPECT_EQ(default_table_form(32768), TableForm::Files);
  EXPECT_EQ(default_table_form(32769), TableForm::Packed);
  fs::remove_all(dir);
}
