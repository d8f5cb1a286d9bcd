// Fuzz target: the command line's argument handling (sw/cli/command_line.h). The input is
// the words after `fixroute`, one per line. Parsing either gives one known command with
// its options converted, or is refused: CLI11's ParseError or an InputError (exit 2 in
// the tool). Nothing runs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "sw/cli/command_line.h"
#include "sw/core/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words{"fixroute"};
  std::string word;
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  fixroute::CommandLine cl;
  try {
    cl.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return 0;
  } catch (const fixroute::InputError&) {
    return 0;
  }
  static const char* const commands[] = {"run", "tables", "bound", "sweep", "table4", "cosim", "draw", "list"};
  bool known = false;
  for (const char* c : commands) known = known || cl.command == c;
  if (!known) std::abort();
  if (cl.command == "run" && (cl.run.max_memory < 0 || cl.run.threads < 1 || cl.run.threads > 64)) std::abort();
  if (cl.command == "cosim" && cl.cosim_faults.size() > words.size()) std::abort();
  return 0;
}
