// Combining tables with the sum rule (docs/swapped-networks.md, "The routers"): the program
// of each router that combines 64-bit values by addition (broadcast, prefix sum and data
// sum of the biswapped-network paper, section 3). A router holds `registers` values: those
// in its `init` mask start as its own input value, the others as 0. In round t (rows do not
// repeat; a run lasts `rounds` rounds), on each port p it sends one packet carrying the sum
// of the registers in send(t, p) (an empty mask: nothing), and a packet arriving on port p
// is added into every register of add(t, p). Its answer is the sum of its `result` mask.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;

constexpr const char* kCombiningSumKind = "combining-sum";
constexpr int kCombiningSumTableVersion = 1;  // of the memory images (network.json: kManifestVersion)
constexpr int kMaxSumRegisters = 16;          // a register mask is one 16-bit field
constexpr int kMaxSumRounds = 65536;
constexpr int kMaxSumPorts = 64;
constexpr int kMaxSumNodes = 1 << 20;

using RegisterMask = uint16_t;

struct CombiningSumTables : Tables {
  const char* kind() const override { return kCombiningSumKind; }
  int nodes = 0;
  int ports = 0;
  int registers = 1;
  int rounds = 0;
  std::vector<RegisterMask> init;     // per node
  std::vector<RegisterMask> result;   // per node
  // per (node, round, port): send mask in bits 0-15, add mask in bits 16-31
  std::vector<uint32_t> entries;

  size_t at(int node, int64_t round, int port) const {  // round from 1
    return (static_cast<size_t>(node) * static_cast<size_t>(rounds) + static_cast<size_t>(round - 1)) *
               static_cast<size_t>(ports) +
           static_cast<size_t>(port);
  }
  RegisterMask send(int node, int64_t round, int port) const { return static_cast<RegisterMask>(entries[at(node, round, port)]); }
  RegisterMask add(int node, int64_t round, int port) const {
    return static_cast<RegisterMask>(entries[at(node, round, port)] >> 16);
  }
};

// Tables of `rounds` rounds and `registers` registers for every router of `topology`,
// register 0 starting as each router's value and being its answer, nothing sent yet.
CombiningSumTables empty_combining_sum_tables(const Topology& topology, int registers, int rounds);

// Refuses (InputError) tables a router cannot carry out: sizes, registers out of range,
// sends on ports without a link, adds on a port the neighbour sends nothing on that round.
void validate_combining_sum(const CombiningSumTables& tables, const Topology& topology, const std::string& what);

// One router's memory image (docs/table-format.md, "Combining-sum tables"): magic, version,
// node, ports, registers, rounds, init | result << 16, then rounds x ports entry words, CRC-32.
std::vector<uint32_t> encode_combining_sum_image(const CombiningSumTables& tables, int node);
int64_t combining_sum_table_bits(const CombiningSumTables& tables);

void write_combining_sum_tables(const CombiningSumTables& tables, const std::string& dir, TableForm form);
CombiningSumTables load_combining_sum_tables(const std::string& dir);  // validates everything, or throws

}  // namespace fixroute
