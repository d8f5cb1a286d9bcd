#include "sw/report/sweep_table.h"

#include <fmt/format.h>

#include <charconv>

#include "sw/core/errors.h"

namespace fixroute {

namespace {

std::string number(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string(); }
std::string boolean(bool v) { return v ? "true" : "false"; }

std::optional<int64_t> parse_number(const std::string& field, const char* column, const std::string& where) {
  if (field.empty()) return std::nullopt;
  int64_t v = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (error != std::errc() || end != field.data() + field.size())
    throw InputError(fmt::format("{}: {} '{}' is not an integer", where, column, field));
  return v;
}

bool parse_boolean(const std::string& field, const char* column, const std::string& where) {
  if (field == "true") return true;
  if (field == "false") return false;
  throw InputError(fmt::format("{}: {} '{}' is neither true nor false", where, column, field));
}

}  // namespace

const std::string& sweep_csv_header() {
  static const std::string header =
      "topology,collective,algorithm,port_model,duplex,engine,steps,formula,paper_formula,lower_bound,max_queue,"
      "table_bits,clock_cycles,ok,permutation,meets_paper,combining,buffers,paper_buffers";
  return header;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::string sweep_csv_line(const SweepRow& r) {
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", csv_field(r.topology),
                     csv_field(r.collective), csv_field(r.algorithm), r.port_model, r.duplex, csv_field(r.engine),
                     number(r.steps), number(r.formula), number(r.paper_formula), number(r.lower_bound),
                     number(r.max_queue), number(r.table_bits), number(r.clock_cycles), boolean(r.ok),
                     csv_field(r.permutation), r.meets_paper ? boolean(*r.meets_paper) : std::string(),
                     boolean(r.combining), number(r.buffers), number(r.paper_buffers));
}

SweepRow parse_sweep_csv_line(const std::string& line, const std::string& where) {
  const std::vector<std::string> f = csv_fields(line);
  constexpr size_t kColumns = 19;
  if (f.size() != kColumns)
    throw InputError(fmt::format("{}: {} fields, not the sweep's {}", where, f.size(), kColumns));
  SweepRow r;
  r.topology = f[0];
  r.collective = f[1];
  r.algorithm = f[2];
  r.port_model = f[3];
  r.duplex = f[4];
  r.engine = f[5];
  r.steps = parse_number(f[6], "steps", where);
  r.formula = parse_number(f[7], "formula", where);
  r.paper_formula = parse_number(f[8], "paper_formula", where);
  r.lower_bound = parse_number(f[9], "lower_bound", where);
  r.max_queue = parse_number(f[10], "max_queue", where);
  r.table_bits = parse_number(f[11], "table_bits", where);
  r.clock_cycles = parse_number(f[12], "clock_cycles", where);
  r.ok = parse_boolean(f[13], "ok", where);
  r.permutation = f[14];
  if (!f[15].empty()) r.meets_paper = parse_boolean(f[15], "meets_paper", where);
  r.combining = parse_boolean(f[16], "combining", where);
  r.buffers = parse_number(f[17], "buffers", where);
  r.paper_buffers = parse_number(f[18], "paper_buffers", where);
  return r;
}

}  // namespace fixroute
