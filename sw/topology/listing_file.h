// The line-oriented text files users give (graph:FILE links, flows:FILE traffic): a record
// a line, words separated by blanks, `#` to the end of a line a comment. Errors are one line
// naming the file, its line and what is wrong (InputError), as `what` words them.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fixroute {

class ListingFile {
 public:
  // Reads `path` whole: refused when it is a directory, not a regular file, unreadable or
  // larger than `max_bytes`. `what` starts every error ("bad graph file").
  ListingFile(const std::string& path, const char* what, int64_t max_bytes);
  const std::string& absolute() const { return absolute_; }  // the file's absolute path
  // The lines that hold words: (line number, words).
  const std::vector<std::pair<int, std::vector<std::string>>>& lines() const { return lines_; }
  // A decimal number of at most 9 digits, in [least, below): else fail(line, ...).
  int number(int line, const std::string& text, int64_t least, int64_t below, const char* name) const;
  [[noreturn]] void fail(const std::string& why) const;
  [[noreturn]] void fail(int line, const std::string& why) const;

 private:
  std::string path_, what_, absolute_;
  std::vector<std::pair<int, std::vector<std::string>>> lines_;
};

}  // namespace fixroute
