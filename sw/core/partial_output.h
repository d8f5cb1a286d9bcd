// How every output a command writes reaches its path (docs/cli.md, "Output files"):
// - a regular file or a new path: written under a temporary name in the same directory and
//   renamed into place when complete, so an interrupted or failed command leaves the old
//   file or none, never half of one;
// - `-`: standard output, written straight through;
// - an existing device, FIFO or socket (/dev/null, a named pipe, /dev/stdout): written
//   straight through, never replaced;
// - a symlink: followed, and its target written by the rules above (the link stays).
// Covers trace and results CSVs, waveforms, drawings, reports and table directories.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace fixroute {

class PartialOutput {
 public:
  enum class Kind { File, Directory };
  // A file output at `path` (`what` names it in errors: "trace", "waveform", ...).
  // `temp_suffix` ends the temporary's name (a waveform writer may insist on its own
  // ending). Throws InputError, with the system's reason, when the path cannot be written:
  // a directory, a directory that does not exist, no permission, a name too long.
  explicit PartialOutput(const std::string& path, const std::string& what = "", const std::string& temp_suffix = ".tmp");
  // A directory written by its owner as `temp` and moved into place (write_table_dir).
  PartialOutput(std::string final_path, std::string temp, Kind kind);
  ~PartialOutput();
  PartialOutput(const PartialOutput&) = delete;
  PartialOutput& operator=(const PartialOutput&) = delete;

  // Where a writer that opens its file by name writes: the temporary; for an output
  // written straight through, a scratch file that commit() copies through.
  const std::string& temp() const { return temp_; }
  const std::string& final_path() const { return final_; }
  // Written straight through (`-`, a device, a FIFO) rather than renamed into place.
  bool straight() const { return straight_; }
  bool standard_output() const { return stdout_; }
  // Opens the stream a writer of its own fills (binary): the temporary, or the device,
  // FIFO or standard output itself. The caller closes it (fclose) before commit().
  // Throws InputError with the system's reason.
  std::FILE* open();
  // Completes the output: renames the temporary into place, or copies a scratch file
  // through; throws InputError ("cannot write WHAT 'PATH': REASON") when it cannot.
  void commit();
  // Closes `file` (from open()) and commits; a write error or a failed close (a full disk)
  // throws InputError with the system's reason.
  void close_and_commit(std::FILE* file);
  // Gives the temporary up without renaming (a directory moved into place by its owner).
  void release();
  // "WHAT 'PATH'" for messages.
  std::string name() const;

 private:
  std::string final_, temp_, what_;
  std::string target_;  // the file the output ends as (a symlink's target)
  Kind kind_ = Kind::File;
  bool straight_ = false, stdout_ = false, streamed_ = false;
  int slot_ = -1;  // in the interrupt handler's list
  struct Counted;  // the stream open() returns, counting its bytes against output_limit()
  std::unique_ptr<Counted> counted_;
};

// The most bytes any one output may have (--max-output; 0: no limit, the default of the
// library). A stream from PartialOutput::open() stops taking bytes past it, and its
// close_and_commit() refuses the output (nothing is left of it), naming the limit.
void set_output_limit(int64_t bytes);
int64_t output_limit();

// Refuses (InputError, the system's reason) an output path that could not be written,
// before any work: what PartialOutput's constructor checks, without creating anything.
void check_output_path(const std::string& path, const std::string& what = "");

// Writes `text` to `path` through a PartialOutput; throws InputError ("cannot write
// WHAT 'PATH': REASON") when it cannot.
void write_output_file(const std::string& path, const std::string& text, const std::string& what = "");

// Installs SIGINT and SIGTERM handlers that remove every live PartialOutput's temporary
// (files, and the files of flat directories) and then end the process by the signal.
void remove_partial_outputs_on_interrupt();

}  // namespace fixroute
