#include "trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "sw/core/errors.h"

namespace fixroute {

void sort_trace(std::vector<TraceEvent>& trace) {
  const auto before = [](const TraceEvent& a, const TraceEvent& b) {
    return std::tie(a.step, a.from, a.to, a.origin, a.dest, a.seq) <
           std::tie(b.step, b.from, b.to, b.origin, b.dest, b.seq);
  };
  // Hardware engines read their links router by router, so rows come in (step, from)
  // order already, out of order only among one router's ports: those short runs are
  // sorted on their own (a whole sort of every step was a tenth of a SystemC run).
  const auto sender_before = [](const TraceEvent& a, const TraceEvent& b) {
    return std::tie(a.step, a.from) < std::tie(b.step, b.from);
  };
  if (std::is_sorted(trace.begin(), trace.end(), before)) return;  // engines that read ports in neighbour order
  if (!std::is_sorted(trace.begin(), trace.end(), sender_before))
    return std::sort(trace.begin(), trace.end(), before);
  for (auto first = trace.begin(); first != trace.end();) {
    auto end = first + 1;
    while (end != trace.end() && end->step == first->step && end->from == first->from) ++end;
    if (end - first > 1) std::sort(first, end, before);
    first = end;
  }
}

TraceCsvWriter::TraceCsvWriter(const std::string& path, const std::string& header, const std::string& what)
    : out_(path, what) {
  file_ = out_.open();
  write(header + "\n");
}

TraceCsvWriter::~TraceCsvWriter() {
  if (file_) std::fclose(file_);
}

void TraceCsvWriter::write(const char* data, size_t size) { std::fwrite(data, 1, size, file_); }

void TraceCsvWriter::finish() {
  std::FILE* file = file_;
  file_ = nullptr;
  out_.close_and_commit(file);
}

}  // namespace fixroute
