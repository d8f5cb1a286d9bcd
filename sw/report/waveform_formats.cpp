#include "waveform_formats.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "sw/core/errors.h"

extern char** environ;

namespace fixroute {

void convert_vcd_to_fst(const std::string& vcd, const std::string& fst) {
  const std::string log = fst + ".log";
  std::vector<std::string> words = {"vcd2fst", "-v", vcd, "-f", fst};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "vcd2fst", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  std::error_code ec;
  if (spawned != 0) {
    std::filesystem::remove(log, ec);
    throw InputError(fmt::format("an FST waveform is converted by GTKWave's vcd2fst, which cannot run here ({}); "
                                 "install Debian's gtkwave (scripts/install-deps.sh) or write a .vcd",
                                 std::strerror(spawned)));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::stringstream said;
  said << std::ifstream(log).rdbuf();
  std::filesystem::remove(log, ec);
  const bool converted = WIFEXITED(status) && WEXITSTATUS(status) == 0 && std::filesystem::exists(fst, ec);
  if (!converted) {
    std::string first = said.str().substr(0, said.str().find('\n'));
    throw InputError(fmt::format("vcd2fst could not convert the waveform to FST{}", first.empty() ? "" : ": " + first));
  }
}

}  // namespace fixroute
