// Runs too large for the machine, refused before anything is built: each router kind says
// what a run holds at the least (RouterKind::run_bytes), compared with the memory the
// machine has available or with --max-memory (docs/cli.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace fixroute {

// "4G", "512M", "1.5GiB", "64k", "1000000" (bytes; K, M, G, T are powers of 1024, with or
// without "iB"/"B"); throws InputError for anything else, zero or negative.
int64_t parse_memory_size(const std::string& text);

// The machine's MemAvailable (/proc/meminfo), nullopt where it cannot be read.
std::optional<int64_t> available_memory_bytes();

// "3.2 GiB", "512.0 MiB", "900 B".
std::string format_bytes(double bytes);

// Throws InputError, with the estimate, where `bytes` exceed `max_memory` (0: the memory
// available; unknown: no limit). `what` names the run ("torus:64x64 gossip").
void check_run_fits(const std::string& what, int64_t bytes, int64_t max_memory);
// The same for writing tables: `what` names the write ("writing the tables of mesh:1024x1024 permutation").
void check_write_fits(const std::string& what, int64_t bytes, int64_t max_memory);

}  // namespace fixroute
