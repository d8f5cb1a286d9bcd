// The fixroute executable's (and the benchmarks') heap: jemalloc on transparent huge
// pages. A million-node network's tables are a million small router tables; with 4 KiB
// pages, first touches (page faults) and glibc malloc's small-chunk bookkeeping were two
// thirds of `fixroute tables torus:1024x1024 gossip` (bench/results.md). jemalloc reads
// this string at start-up (jemalloc(3), "malloc_conf"); MALLOC_CONF still overrides it.
// Not linked into sanitizer or fuzzer builds (their runtimes bring their own allocator)
// nor into the shared library (a process's allocator is the executable's choice).
extern "C" {
const char* malloc_conf = "thp:always,metadata_thp:auto";
}
