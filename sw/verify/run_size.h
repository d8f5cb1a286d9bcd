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

// "90", "90s", "15m", "1.5h" (seconds, minutes, hours); throws InputError for anything
// else, zero or negative.
double parse_duration(const std::string& text);

// "42 s", "3.5 min", "2.1 h", "4.0 days".
std::string format_seconds(double seconds);

// The least time a run of `router_steps` (routing steps x routers; hardware engines: at
// least as many router-cycles) takes on an engine that simulates at most
// `router_steps_per_second` (Engine::top_router_steps_per_second).
double least_run_seconds(double router_steps, double router_steps_per_second);

// Throws InputError, with the estimate, where `seconds` exceed `max_seconds` (--max-time; 0:
// no limit). `what` names the run; `how` says how the estimate was made.
void check_run_time(const std::string& what, double seconds, double max_seconds, const std::string& how);

// Throws InputError, with the estimate, where `bytes` exceed `max_memory` (0: the memory
// available; unknown: no limit). `what` names the run ("torus:64x64 gossip").
void check_run_fits(const std::string& what, int64_t bytes, int64_t max_memory);
// The same for writing tables: `what` names the write ("writing the tables of mesh:1024x1024 permutation").
void check_write_fits(const std::string& what, int64_t bytes, int64_t max_memory);

}  // namespace fixroute
