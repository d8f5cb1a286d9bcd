// Partial-cycle patterns for 2D tori with both sizes odd (a catalogue for 3 and 5
// columns, the staircase for 7 and more) and for odd rows under even columns (a
// catalogue); two-packet and Hamiltonian patterns. See odd_torus_patterns.h.
#include "odd_torus_patterns.h"

#include <cstddef>

namespace fixroute::partial_cycles {

namespace {

// A catalogue entry in the search's output format: whether rows 0, 1 and columns 0, 1 may
// be repeated, then one line per torus row: the cycle of each link to the right, a space,
// the cycle of each link downwards; '0' free, '1' cycle 0, '2' cycle 1. Where the columns
// repeat in a wider block (read off a pattern, not printed by the search), its first
// column and width.
struct Pattern {
  int rows;
  int cols;
  bool rows_repeat;
  bool cols_repeat;
  std::vector<std::string> lines;
  int block_first = 0;
  int block_width = 2;
};

// Small sizes for partial-cycles, as tools/odd_torus_search prints them (3 3 -1, 5 3 6,
// 5 5 5).
const std::vector<Pattern>& catalogue() {
  static const std::vector<Pattern> patterns{
      {3, 3, false, false, {"121 012", "012 201", "200 021"}},
      {5, 3, true, false, {"211 120", "122 210", "010 201", "221 102", "102 210"}},
      {5, 5, true, false, {"11222 20100", "22111 10200", "10220 01002", "21102 02010", "02011 10200"}},
  };
  return patterns;
}

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

LinkCycles links_of(const Pattern& p) {
  LinkCycles out;
  for (const std::string& line : p.lines)
    for (int c = 0; c < p.cols; ++c) {
      out.right.push_back(cycle_of(line[static_cast<size_t>(c)]));
      out.down.push_back(cycle_of(line[static_cast<size_t>(p.cols + 1 + c)]));
    }
  return out;
}

// `pattern` grown to rows x cols, or nullopt when it cannot reach that size.
std::optional<LinkCycles> grown_to(const Pattern& p, int rows, int cols) {
  const bool rows_fit = rows == p.rows || (p.rows_repeat && rows > p.rows && (rows - p.rows) % 2 == 0);
  const bool cols_fit = cols == p.cols || (p.cols_repeat && cols > p.cols && (cols - p.cols) % p.block_width == 0);
  if (!rows_fit || !cols_fit) return std::nullopt;
  const LinkCycles tall = with_rows_repeated(links_of(p), p.cols, (rows - p.rows) / 2);
  return with_column_block_repeated(tall, p.cols, p.block_first, p.block_width, (cols - p.cols) / p.block_width);
}

// Odd rows fewer than the columns, for Theorem 2 as written (R*C/4 + R/2 + 1), as
// `odd_torus_search R C EXTRA` prints them: single sizes (EXTRA -1; 7 x 8 with EXTRA 1,
// its rows 0, 1 repeating, which rows < columns never uses). Searched: a few
// minutes each: nothing within 4 minutes for 9x10, 7x12 and 5x16; the other sizes under
// 16 x 16 without an entry not searched to the end. Those are built transposed.
const std::vector<Pattern>& fewer_rows_catalogue() {
  static const std::vector<Pattern> patterns{
      {3, 4, false, false, {"2211 1020", "1020 0102", "0102 2010"}},
      {3, 6, false, false, {"102012 102012", "020121 020121", "211200 210201"}},
      {5, 6, false, false, {"102222 210000", "011110 200001", "222201 100020", "111022 200100", "220111 102000"}},
      {3, 8, false, false, {"22002011 10210200", "10210220 01021002", "01121102 20012010"}},
      {7, 8, true, false,
       {"22221111 10002000", "11112222 20001000", "22221110 00002001", "11102201 00010020", "22011022 00200100",
        "10220111 01002000", "01112222 20001000"}},
      {5, 8, false, false,
       {"02012120 10201212", "10200000 01021212", "01000002 20121210", "20000010 02121201", "00121201 12012120"}},
      {3, 10, false, false, {"2010200211 2010201210", "1122012002 1020012012", "0201121120 1201021020"}},
      {5, 10, false, false,
       {"0002120120 1210212012", "0210002000 1021210212", "1000210002 2121021210", "0021000010 2102121201",
        "2100001201 1212120120"}},
      // 7 x 10 grows by copies of columns 1..8: 7 x (10 + 8k), at or under Theorem 2 as
      // written (checked to 7 x 50).
      {7, 10, false, true,
       {"1000010212 2121201021", "0001201000 2120120121", "0020020000 2102102121", "0100100000 2012012121",
        "2002000021 1210212102", "0010000100 1201212012", "0200002000 1021210212"},
       1, 8},
      {3, 12, false, false, {"102011021022 210200102100", "210220102110 021002010201", "021102210201 102010021020"}},
      {5, 12, false, false,
       {"200200200201 121021021020", "001001001020 120120120102", "020020120100 102102012012",
        "100102002000 012010210212", "012010010012 201201201201"}},
      {3, 14, false, false,
       {"10220110221220 01002001002102", "01102201102102 20010020010210", "22011022010011 10200100201200"}},
      {5, 14, false, false,
       {"00000201000220 12121020121002", "00001020021100 12120102102012", "00022100102000 12100212010212",
        "12110002010002 21201210201210", "21200010200011 12121201021200"}},
      // 3 x 16 and 3 x 11 are periodic in their columns: a block of six (columns 2..7,
      // resp. 1..6) repeated gives 3 x (16 + 6k) and 3 x (11 + 6k) (read off the output,
      // runs to 3 x 46 and 3 x 47: one under Theorem 2 as written, one over
      // the lower bound).
      {3, 16, false, true,
       {"2011022011022011 1200100200100200", "1220110220110220 0102001002001002",
        "0102201102201102 2010020010020010"},
       2, 6},
      // columns odd too (built transposed with the both-odd patterns, these took more: docs/gossip.md)
      {3, 7, false, false, {"1211021 0210021", "2002200 2012001", "0120112 0120102"}},
      {3, 9, false, false, {"110220102 201002010", "201102211 120010020", "022011020 100200102"}},
      {3, 11, false, true, {"22011022011 10200100200", "10220110220 01002001002", "01102201102 20010020010"}, 1, 6},
      {3, 13, false, false, {"0002201122011 0212001020010", "2120110201102 0120100201002", "1211022010220 1210020010200"}},
      // 3 x 15 grows by copies of columns 9..14: 3 x (15 + 6k), at or under Theorem 2 as
      // written (checked to 3 x 63).
      {3, 15, false, true,
       {"110211020110220 100210020100200", "022002201022011 020012001020010", "201120112201102 001020102001002"},
       9, 6},
      {5, 9, false, false,
       {"001100020 120012102", "122000102 210212010", "010002010 201210201", "200010200 021201021",
        "000221001 121002120"}},
      {5, 11, false, false,
       {"02010012120 10201201212", "10200200000 01021021212", "01001000012 20120121201", "20020121200 02102012121",
        "00102000001 12010212120"}},
      {7, 11, false, false,
       {"02200200221 10021021002", "11001001100 00120120012", "20120022002 02012100210", "02002110211 10210201020",
        "10211221120 01020102012", "01020102002 20102010210", "20112010010 02001201201"}},
  };
  return patterns;
}

// Two-packet patterns, as `odd_torus_search R C EXTRA two-packet` prints them (3 3 -1,
// 3 5 2, 5 5 2), each cycle through all nodes but two. 5 x 5 repeats rows 0, 1 and
// columns 0, 1 (every R, C >= 5); 3 x 5 repeats columns 0, 1 (3 x C, and C x 3
// transposed); 3 x 3 on its own.
const std::vector<Pattern>& two_packet_catalogue() {
  static const std::vector<Pattern> patterns{
      {3, 3, false, false, {"021 122", "211 212", "012 001"}},
      {3, 5, false, true, {"22122 11211", "12012 22002", "21021 11121"}},
      {5, 5, true, true, {"22212 11112", "22212 11121", "21201 22200", "12102 11112", "22212 11121"}},
  };
  return patterns;
}

// Two Hamiltonian cycles on 4 x 5 whose columns 0, 1 repeat (`odd_torus_search 4 5 13
// hamiltonian`, checked grown up to 4 x 31; the tests check every odd width to 41, and
// 101).
const std::vector<Pattern>& hamiltonian_catalogue() {
  static const std::vector<Pattern> patterns{
      {4, 5, false, true, {"22112 11122", "12212 22111", "11221 22212", "21121 11221"}},
  };
  return patterns;
}

}  // namespace

bool both_sizes_odd_2d(const std::vector<int>& dims) {
  return dims.size() == 2 && dims[0] % 2 == 1 && dims[1] % 2 == 1;
}

std::optional<LinkCycles> odd_torus_links(int rows, int cols) {
  if (cols >= kStaircaseFrom && cols % 2 == 1) return grown_to({cols, cols, true, false, staircase(cols)}, rows, cols);
  for (const Pattern& p : catalogue())  // at most one entry fits a size
    if (std::optional<LinkCycles> links = grown_to(p, rows, cols)) return links;
  return std::nullopt;
}

std::optional<LinkCycles> fewer_rows_links(int rows, int cols) {
  if (rows % 2 == 0 || rows >= cols) return std::nullopt;
  for (const Pattern& p : fewer_rows_catalogue())  // at most one entry fits a size
    if (std::optional<LinkCycles> links = grown_to(p, rows, cols)) return links;
  return std::nullopt;
}

std::optional<LinkCycles> two_packet_links(int rows, int cols) {
  if (rows < 3 || cols < 3 || rows % 2 == 0 || cols % 2 == 0) return std::nullopt;
  if (rows > 3 && cols == 3) return transposed(*two_packet_links(cols, rows), cols, rows);  // 3 x R exists
  for (const Pattern& p : two_packet_catalogue())
    if (std::optional<LinkCycles> links = grown_to(p, rows, cols)) return links;
  return std::nullopt;
}

std::optional<LinkCycles> hamiltonian_links(int rows, int cols) {
  if (rows != 4 && cols == 4) {
    const std::optional<LinkCycles> across = hamiltonian_links(cols, rows);
    return across ? std::optional<LinkCycles>(transposed(*across, cols, rows)) : std::nullopt;
  }
  if (rows != 4 || cols < 5 || cols % 2 == 0) return std::nullopt;
  for (const Pattern& p : hamiltonian_catalogue())
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
