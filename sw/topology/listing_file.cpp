#include "sw/topology/listing_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sw/core/errors.h"

namespace fixroute {

namespace {
// A path as errors quote it: at most 64 characters.
std::string quoted(const std::string& text) {
  return text.size() <= 64 ? text : fmt::format("{}... ({} characters)", text.substr(0, 64), text.size());
}
}  // namespace

ListingFile::ListingFile(const std::string& path, const char* what, int64_t max_bytes) : path_(path), what_(what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file = fs::absolute(fs::path(path), ec).lexically_normal();
  absolute_ = file.string();
  if (fs::is_directory(file, ec)) fail("is a directory");
  std::ifstream in(file);
  if (!in) fail(std::strerror(errno));
  if (!fs::is_regular_file(file, ec)) fail("is not a regular file");
  if (fs::file_size(file, ec) > static_cast<uintmax_t>(max_bytes)) fail(fmt::format("larger than {} MiB", max_bytes >> 20));
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (const size_t hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    std::istringstream words(text);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (!w.empty()) lines_.emplace_back(number, std::move(w));
  }
  if (in.bad()) fail(std::strerror(errno));
}

int ListingFile::number(int line, const std::string& text, int64_t least, int64_t below, const char* name) const {
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    fail(line, fmt::format("{} '{}' is not a whole number", name, quoted(text)));
  const long value = std::strtol(text.c_str(), nullptr, 10);
  if (value < least) fail(line, fmt::format("{} {} is below {}", name, value, least));
  if (value >= below) fail(line, fmt::format("{} {} is not below {}", name, value, below));
  return static_cast<int>(value);
}

void ListingFile::fail(const std::string& why) const {
  throw InputError(fmt::format("{} '{}': {}", what_, quoted(path_), why));
}

void ListingFile::fail(int line, const std::string& why) const { fail(fmt::format("line {}: {}", line, why)); }

}  // namespace fixroute
