#include "partial_output.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "sw/core/errors.h"

namespace fixroute {

namespace {

// The handler may only use what is async-signal-safe: fixed slots of plain characters,
// unlink, rmdir and the directory system calls.
constexpr size_t kSlots = 32;
constexpr size_t kPathBytes = 4096;
struct Slot {
  std::atomic<bool> used{false};
  bool directory = false;
  char path[kPathBytes] = {};
};
std::array<Slot, kSlots> slots;

int claim_slot(const std::string& path, bool directory) {
  if (path.size() >= kPathBytes) return -1;  // not cleaned on a signal; still removed by the destructor
  for (size_t i = 0; i < kSlots; ++i) {
    Slot& s = slots[i];
    if (s.used.load()) continue;
    s.directory = directory;
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    s.used.store(true);
    return static_cast<int>(i);
  }
  return -1;
}

void free_slot(int slot) {
  if (slot >= 0) slots[static_cast<size_t>(slot)].used.store(false);
}

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// A flat directory's files, then the directory (table directories have no subdirectories).
void remove_flat_directory(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  alignas(8) char buf[8192];
  for (int pass = 0; pass < 8; ++pass) {  // unlinking while reading may skip entries: read again
    ::lseek(fd, 0, SEEK_SET);
    bool removed = false;
    long n;
    while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
      for (long at = 0; at < n;) {
        const auto* d = reinterpret_cast<const LinuxDirent64*>(buf + at);
        at += d->d_reclen;
        if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) continue;
        removed = ::unlinkat(fd, d->d_name, 0) == 0 || removed;
      }
    if (!removed) break;
  }
  ::close(fd);
  ::rmdir(path);
}

extern "C" void on_interrupt(int sig) {
  for (Slot& s : slots) {
    if (!s.used.load()) continue;
    if (s.directory)
      remove_flat_directory(s.path);
    else
      ::unlink(s.path);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

PartialOutput::PartialOutput(std::string final_path, std::string temp, Kind kind)
    : final_(std::move(final_path)), temp_(std::move(temp)), kind_(kind) {
  slot_ = claim_slot(temp_, kind_ == Kind::Directory);
}

PartialOutput::~PartialOutput() {
  if (slot_ == -2) return;  // committed or released
  free_slot(slot_);
  std::error_code ignored;
  std::filesystem::remove_all(temp_, ignored);
}

void PartialOutput::commit() {
  std::error_code error;
  std::filesystem::rename(temp_, final_, error);
  if (error) throw InputError(fmt::format("cannot write '{}': {}", final_, error.message()));
  free_slot(slot_);
  slot_ = -2;
}

void PartialOutput::release() {
  free_slot(slot_);
  slot_ = -2;
}

void write_output_file(const std::string& path, const std::string& text, const std::string& what) {
  PartialOutput out(path);
  const std::string name = what.empty() ? fmt::format("'{}'", path) : fmt::format("{} '{}'", what, path);
  std::FILE* file = std::fopen(out.temp().c_str(), "wb");
  if (!file) throw InputError(fmt::format("cannot write {}", name));
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written) throw InputError(fmt::format("cannot write {}", name));
  out.commit();
}

void remove_partial_outputs_on_interrupt() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}

}  // namespace fixroute
