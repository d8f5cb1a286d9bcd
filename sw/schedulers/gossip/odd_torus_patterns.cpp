// Partial-cycle patterns for 2D tori with both sizes odd (the pattern file's entries for
// 3 and 5 columns, the staircase for 7 and more) and for odd rows under even columns;
// two-packet and Hamiltonian patterns. The searched entries are data
// (torus_patterns.txt, pattern_file.h). See odd_torus_patterns.h.
#include "odd_torus_patterns.h"

#include "pattern_file.h"

#include <cstddef>

namespace fixroute::partial_cycles {

namespace {

constexpr int kStaircaseFrom = 7;  // the smallest C the staircase takes (its end cap is 6 columns wide)

// The staircase for C x C, C odd >= 7 (read off the search's 15 x 15 pattern,
// `odd_torus_search 15 15 1 laps`, and checked on every odd C up to 25 and grown rows).
// Row r takes cycle X = r mod 2 ('1' + X) and Y the other.
//  - rows 0, 1: two laps of the paper's construction, zigzags at columns 0 and 3: X on
//    the links 0..2, Y on 3..C-1; Y turns down at column 0, X at column 3;
//  - rows 2 .. C-4: X on links 0..2, Y on 3..C-r, the link C+1-r free, X on C+2-r..C-1;
//    X turns down at column 3, Y at column C+1-r: the free link steps one column left per
//    row, which is how the odd number of rows is absorbed;
//  - rows C-3 .. C-1: an end cap of six columns that brings the step back to column 0 and
//    leaves row C-1 turning down as row 1 does (so rows 0, 1 repeat).
std::vector<std::string> staircase(int cols) {
  std::vector<std::string> lines;
  auto row = [&](int r, const std::string& head, char rest, std::vector<std::pair<int, char>> downs) {
    const char x = r % 2 == 0 ? '1' : '2', y = r % 2 == 0 ? '2' : '1';
    auto cycle = [&](char c) { return c == 'X' ? x : c == 'Y' ? y : c; };
    std::string right;
    for (char c : head) right += cycle(c);
    right += std::string(static_cast<size_t>(cols) - head.size(), cycle(rest));
    std::string down(static_cast<size_t>(cols), '0');
    for (const auto& [col, c] : downs) down[static_cast<size_t>(col)] = cycle(c);
    lines.push_back(right + " " + down);
  };
  row(0, "XXX", 'Y', {{0, 'Y'}, {3, 'X'}});
  row(1, "XXX", 'Y', {{0, 'Y'}, {3, 'X'}});
  for (int r = 2; r <= cols - 4; ++r) {
    const int free_link = cols + 1 - r;
    row(r, "XXX" + std::string(static_cast<size_t>(free_link - 3), 'Y') + "0", 'X', {{3, 'X'}, {free_link, 'Y'}});
  }
  row(cols - 3, "XX0YY", 'X', {{2, 'X'}, {5, 'Y'}});
  row(cols - 2, "X0YY0", 'X', {{1, 'X'}, {4, 'Y'}});
  row(cols - 1, "0YY0", 'X', {{0, 'X'}, {3, 'Y'}});
  return lines;
}

int cycle_of(char digit) { return digit - '0' - 1; }

LinkCycles links_of(const TorusPattern& p) {
  LinkCycles out;
  for (const std::string& line : p.lines)
    for (int c = 0; c < p.cols; ++c) {
      out.right.push_back(cycle_of(line[static_cast<size_t>(c)]));
      out.down.push_back(cycle_of(line[static_cast<size_t>(p.cols + 1 + c)]));
    }
  return out;
}

// `pattern` grown to rows x cols, or nullopt when it cannot reach that size.
std::optional<LinkCycles> grown_to(const TorusPattern& p, int rows, int cols) {
  const bool rows_fit = rows == p.rows || (p.rows_repeat && rows > p.rows && (rows - p.rows) % 2 == 0);
  const bool cols_fit = cols == p.cols || (p.cols_repeat && cols > p.cols && (cols - p.cols) % p.block_width == 0);
  if (!rows_fit || !cols_fit) return std::nullopt;
  const LinkCycles tall = with_rows_repeated(links_of(p), p.cols, (rows - p.rows) / 2);
  return with_column_block_repeated(tall, p.cols, p.block_first, p.block_width, (cols - p.cols) / p.block_width);
}

}  // namespace

bool both_sizes_odd_2d(const std::vector<int>& dims) {
  return dims.size() == 2 && dims[0] % 2 == 1 && dims[1] % 2 == 1;
}

std::optional<LinkCycles> odd_torus_links(int rows, int cols) {
  if (cols >= kStaircaseFrom && cols % 2 == 1) {
    TorusPattern p;
    p.rows = p.cols = cols;
    p.dims = {cols, cols};
    p.rows_repeat = true;
    p.lines = staircase(cols);
    return grown_to(p, rows, cols);
  }
  for (const TorusPattern& p : patterns_in("partial-cycles"))  // at most one entry fits a size
    if (std::optional<LinkCycles> links = grown_to(p, rows, cols)) return links;
  return std::nullopt;
}

std::optional<LinkCycles> fewer_rows_links(int rows, int cols) {
  if (rows % 2 == 0 || rows >= cols) return std::nullopt;
  // an entry searched for this very size first (it may take fewer steps than a family grown to it)
  for (const TorusPattern& p : patterns_in("partial-cycles-fewer-rows"))
    if (p.rows == rows && p.cols == cols) return links_of(p);
  for (const TorusPattern& p : patterns_in("partial-cycles-fewer-rows"))  // at most one family grows to a size
    if (std::optional<LinkCycles> links = grown_to(p, rows, cols)) return links;
  return std::nullopt;
}

TorusLinkCycles along_dimensions(const LinkCycles& links, int rows, int cols) {
  return TorusLinkCycles{{rows, cols}, {links.down, links.right}};
}

std::optional<TorusLinkCycles> dimensional_links(const std::vector<int>& dims) {
  if (dims.size() < 3) return std::nullopt;
  for (const TorusPattern& p : patterns_in(kDimensionalCatalogue)) {
    if (p.dims != dims) continue;
    const size_t d = dims.size(), cols = static_cast<size_t>(p.cols);
    TorusLinkCycles out{dims, std::vector<std::vector<int>>(d)};
    for (const std::string& line : p.lines)  // word w: the links along dimension d-1-w
      for (size_t w = 0; w < d; ++w)
        for (size_t c = 0; c < cols; ++c) out.along[d - 1 - w].push_back(cycle_of(line[w * (cols + 1) + c]));
    return out;
  }
  return std::nullopt;
}

std::optional<LinkCycles> two_packet_links(int rows, int cols) {
  if (rows < 3 || cols < 3 || rows % 2 == 0 || cols % 2 == 0) return std::nullopt;
  if (rows > 3 && cols == 3) return transposed(*two_packet_links(cols, rows), cols, rows);  // 3 x R exists
  for (const TorusPattern& p : patterns_in("two-packet"))
    if (std::optional<LinkCycles> links = grown_to(p, rows, cols)) return links;
  return std::nullopt;
}

std::optional<LinkCycles> hamiltonian_links(int rows, int cols) {
  if (rows != 4 && cols == 4) {
    const std::optional<LinkCycles> across = hamiltonian_links(cols, rows);
    return across ? std::optional<LinkCycles>(transposed(*across, cols, rows)) : std::nullopt;
  }
  if (rows != 4 || cols < 5 || cols % 2 == 0) return std::nullopt;
  for (const TorusPattern& p : patterns_in("hamiltonian"))
    if (std::optional<LinkCycles> links = grown_to(p, rows, cols)) return links;
  return std::nullopt;
}

LinkCycles with_rows_repeated(const LinkCycles& pattern, int cols, int pairs) {
  return with_row_block_repeated(pattern, cols, 0, 2, pairs);
}

LinkCycles with_row_block_repeated(const LinkCycles& pattern, int cols, int first, int width, int copies) {
  const size_t row_size = static_cast<size_t>(cols), rows = pattern.right.size() / row_size;
  const size_t from = static_cast<size_t>(first), end = static_cast<size_t>(first + width);
  std::vector<size_t> order;  // rows up to the block's end, `copies` more of the block, then the rest
  for (size_t r = 0; r < end; ++r) order.push_back(r);
  for (int k = 0; k < copies; ++k)
    for (size_t r = from; r < end; ++r) order.push_back(r);
  for (size_t r = end; r < rows; ++r) order.push_back(r);
  LinkCycles out;
  for (size_t r : order) {
    out.right.insert(out.right.end(), pattern.right.begin() + static_cast<std::ptrdiff_t>(r * row_size),
                     pattern.right.begin() + static_cast<std::ptrdiff_t>((r + 1) * row_size));
    out.down.insert(out.down.end(), pattern.down.begin() + static_cast<std::ptrdiff_t>(r * row_size),
                    pattern.down.begin() + static_cast<std::ptrdiff_t>((r + 1) * row_size));
  }
  return out;
}

LinkCycles with_columns_repeated(const LinkCycles& pattern, int cols, int pairs) {
  return with_column_block_repeated(pattern, cols, 0, 2, pairs);
}

// Columns through the transpose: the pattern's columns are the rows of its transpose.
LinkCycles with_column_block_repeated(const LinkCycles& pattern, int cols, int first, int width, int copies) {
  const int rows = static_cast<int>(pattern.right.size()) / cols;
  return transposed(with_row_block_repeated(transposed(pattern, rows, cols), rows, first, width, copies),
                    cols + width * copies, rows);
}

LinkCycles transposed(const LinkCycles& pattern, int rows, int cols) {
  LinkCycles out;
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) {
      const size_t v = static_cast<size_t>(r * cols + c);
      out.right.push_back(pattern.down[v]);  // a link down in the pattern is one to the right in its transpose
      out.down.push_back(pattern.right[v]);
    }
  return out;
}

}  // namespace fixroute::partial_cycles
