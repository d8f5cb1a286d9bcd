#include "partial_output.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cerrno>
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

namespace {

std::string quoted(const std::string& what, const std::string& path) {
  return what.empty() ? fmt::format("'{}'", path) : fmt::format("{} '{}'", what, path);
}

[[noreturn]] void refuse(const std::string& what, const std::string& path, const std::string& reason) {
  throw InputError(fmt::format("cannot write {}: {}", quoted(what, path), reason));
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Where an output at `path` goes: `straight` (standard output, a device, a FIFO, a socket;
// also /dev/stdout, /dev/stderr, /dev/fd/N and /proc, never replaced) or `target`, the regular
// file (a symlink followed) to be replaced whole. Refuses what cannot be written.
struct Resolved {
  bool straight = false, standard_output = false;
  std::string target;
};
Resolved resolve(const std::string& path, const std::string& what) {
  if (path.empty()) throw InputError(fmt::format("no path given for {}", what.empty() ? "an output" : what));
  if (path == "-") return {true, true, ""};
  // The process's own streams by name: never replaced, whatever they are.
  if (starts_with(path, "/proc/") || starts_with(path, "/dev/fd/") || path == "/dev/stdout" || path == "/dev/stderr")
    return {true, false, path};
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) refuse(what, path, "it is a directory; name a file");
    if (!S_ISREG(st.st_mode)) return {true, false, path};
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(path, ec);
    if (ec) refuse(what, path, ec.message());
    if (::access(real.parent_path().c_str(), W_OK) != 0)
      refuse(what, path, fmt::format("{} (directory '{}')", std::strerror(errno), real.parent_path().string()));
    return {false, false, real.string()};
  }
  if (errno != ENOENT) refuse(what, path, std::strerror(errno));
  // A new file, or the missing target of a symlink, created.
  std::filesystem::path target = path;
  for (int links = 0; links < 40; ++links) {
    struct stat lst {};
    if (::lstat(target.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) break;
    std::error_code ec;
    const std::filesystem::path next = std::filesystem::read_symlink(target, ec);
    if (ec) refuse(what, path, ec.message());
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  if (target.filename().empty() || path.back() == '/') refuse(what, path, "names a directory (ends in '/'); name a file");
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0)
    refuse(what, path, fmt::format("no such directory '{}'", dir.string()));
  if (!S_ISDIR(dst.st_mode)) refuse(what, path, fmt::format("'{}' is not a directory", dir.string()));
  if (::access(dir.c_str(), W_OK) != 0)
    refuse(what, path, fmt::format("{} (directory '{}')", std::strerror(errno), dir.string()));
  return {false, false, target.string()};
}

// A scratch file's name for an output written straight through by a writer that opens
// by name: in TMPDIR, unique to the process.
std::string scratch_name(const std::string& suffix) {
  static std::atomic<int> count{0};
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  return (dir / fmt::format("fixroute-{}-{}{}", ::getpid(), count++, suffix)).string();
}

}  // namespace

namespace {
std::atomic<int64_t> limit_bytes{0};
}  // namespace

void set_output_limit(int64_t bytes) { limit_bytes.store(bytes); }
int64_t output_limit() { return limit_bytes.load(); }

// A stream that passes bytes on to `to` until the limit, then takes no more (a write
// past it fails: ferror, and `exceeded`).
struct PartialOutput::Counted {
  std::FILE* to = nullptr;
  int64_t written = 0, limit = 0;
  bool exceeded = false;
  static ssize_t write(void* cookie, const char* buffer, size_t size) {
    auto* c = static_cast<Counted*>(cookie);
    if (c->limit > 0 && c->written + static_cast<int64_t>(size) > c->limit) {
      c->exceeded = true;
      errno = EFBIG;
      return -1;
    }
    const size_t n = std::fwrite(buffer, 1, size, c->to);
    c->written += static_cast<int64_t>(n);
    return n == size ? static_cast<ssize_t>(n) : -1;
  }
  static int close(void* cookie) {
    auto* c = static_cast<Counted*>(cookie);
    const int result = std::fclose(c->to);
    c->to = nullptr;
    return result;
  }
};

PartialOutput::PartialOutput(const std::string& path, const std::string& what, const std::string& temp_suffix)
    : final_(path), what_(what) {
  const Resolved r = resolve(path, what);
  straight_ = r.straight;
  stdout_ = r.standard_output;
  target_ = r.target;
  temp_ = straight_ ? scratch_name(temp_suffix) : target_ + temp_suffix;
  slot_ = claim_slot(temp_, false);
}

PartialOutput::PartialOutput(std::string final_path, std::string temp, Kind kind)
    : final_(std::move(final_path)), temp_(std::move(temp)), target_(final_), kind_(kind) {
  slot_ = claim_slot(temp_, kind_ == Kind::Directory);
}

PartialOutput::~PartialOutput() {
  if (counted_ && counted_->to) std::fclose(counted_->to);  // a stream never closed
  if (slot_ == -2) return;  // committed or released
  free_slot(slot_);
  std::error_code ignored;
  std::filesystem::remove_all(temp_, ignored);
}

std::string PartialOutput::name() const { return quoted(what_, final_); }

std::FILE* PartialOutput::open() {
  std::FILE* file = nullptr;
  if (stdout_) {
    std::fflush(stdout);
    const int fd = ::dup(STDOUT_FILENO);
    file = fd >= 0 ? ::fdopen(fd, "wb") : nullptr;
    if (!file && fd >= 0) ::close(fd);
  } else {
    file = std::fopen(straight_ ? target_.c_str() : temp_.c_str(), "wb");
  }
  if (!file) refuse(what_, final_, std::strerror(errno));
  streamed_ = straight_;
  if (output_limit() <= 0) return file;
  counted_ = std::make_unique<Counted>();
  counted_->to = file;
  counted_->limit = output_limit();
  std::FILE* counted = ::fopencookie(counted_.get(), "wb", {nullptr, &Counted::write, nullptr, &Counted::close});
  if (!counted) {
    std::fclose(file);
    counted_->to = nullptr;
    refuse(what_, final_, std::strerror(errno));
  }
  return counted;
}

void PartialOutput::commit() {
  if (straight_ && !streamed_) {  // the scratch file a writer filled by name, copied through
    std::FILE* in = std::fopen(temp_.c_str(), "rb");
    if (!in) refuse(what_, final_, std::strerror(errno));
    std::FILE* out = open();
    char buffer[1 << 16];
    size_t n = 0;
    bool written = true;
    while (written && (n = std::fread(buffer, 1, sizeof buffer, in)) > 0) written = std::fwrite(buffer, 1, n, out) == n;
    const int error = written ? 0 : errno;
    std::fclose(in);
    const bool closed = std::fclose(out) == 0;
    if (!written || !closed) refuse(what_, final_, std::strerror(written ? errno : error));
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
  } else if (!straight_) {
    std::error_code error;
    std::filesystem::rename(temp_, target_, error);
    if (error) refuse(what_, final_, error.message());
  }
  free_slot(slot_);
  slot_ = -2;
}

void PartialOutput::close_and_commit(std::FILE* file) {
  const bool written = std::ferror(file) == 0;
  const int error = errno;
  const bool closed = std::fclose(file) == 0;
  if (counted_ && counted_->exceeded)
    refuse(what_, final_,
           fmt::format("it passed --max-output ({} bytes); {}", counted_->limit,
                       straight_ ? "the stream was cut there" : "nothing kept (--max-output sets another limit)"));
  if (!written || !closed) refuse(what_, final_, std::strerror(written ? errno : error));
  commit();
}

void PartialOutput::release() {
  free_slot(slot_);
  slot_ = -2;
}

void check_output_path(const std::string& path, const std::string& what) { resolve(path, what); }

void write_output_file(const std::string& path, const std::string& text, const std::string& what) {
  PartialOutput out(path, what);
  std::FILE* file = out.open();
  std::fwrite(text.data(), 1, text.size(), file);
  out.close_and_commit(file);
}

void remove_partial_outputs_on_interrupt() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}

}  // namespace fixroute
