#include "child_run.h"

#include <fmt/format.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "sw/core/router_kind.h"

namespace fixroute {

namespace {

// run_case in a child process (for engines that run once per process), its report sent
// back through a pipe as JSON.
nlohmann::json run_in_child(const RunRequest& req) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cannot make a pipe for a child run");
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot fork a child run");
  if (pid == 0) {
    close(fds[0]);
    int status = 0;
    std::string report;
    try {
      report = to_json(run_case(req)).dump();
    } catch (const std::exception& e) {
      report = nlohmann::json{{"child_error", e.what()}}.dump();
      status = 1;
    }
    for (size_t at = 0; at < report.size();) {
      const ssize_t n = write(fds[1], report.data() + at, report.size() - at);
      if (n <= 0) _exit(2);
      at += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(status);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string what = fmt::format("{} {} [{}] on {}", req.topology, req.collective, req.algorithm, req.engine);
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(out);
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(fmt::format("child run of {} ended without a report (status {})", what, status));
  }
  if (report.contains("child_error"))
    throw std::runtime_error(fmt::format("child run of {}: {}", what, report["child_error"].get<std::string>()));
  return report;
}

}  // namespace

nlohmann::json run_reported(const RunRequest& req) {
  return find_engine(req.engine).one_run_per_process ? run_in_child(req) : to_json(run_case(req));
}

}  // namespace fixroute
