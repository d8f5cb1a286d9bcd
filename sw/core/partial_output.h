// Outputs written under a temporary name and renamed into place when complete
// (docs/cli.md, "Output files"): an interrupted or failed command leaves the old file
// or none, never half of one. Covers trace and results CSVs, waveforms, drawings and
// table directories.
#pragma once
#include <string>

namespace fixroute {

class PartialOutput {
 public:
  enum class Kind { File, Directory };
  // `temp` is where the output is written; it is removed when the object dies before
  // commit() and when the process gets SIGINT or SIGTERM (remove_partial_outputs_on_interrupt).
  PartialOutput(std::string final_path, std::string temp, Kind kind = Kind::File);
  // A file written as `final_path`.tmp.
  explicit PartialOutput(const std::string& final_path) : PartialOutput(final_path, final_path + ".tmp") {}
  ~PartialOutput();
  PartialOutput(const PartialOutput&) = delete;
  PartialOutput& operator=(const PartialOutput&) = delete;

  const std::string& temp() const { return temp_; }
  const std::string& final_path() const { return final_; }
  // Renames the file into place; throws InputError ("cannot write 'PATH'") when it cannot.
  void commit();
  // Gives the temporary up without renaming (a directory moved into place by its owner).
  void release();

 private:
  std::string final_, temp_;
  Kind kind_;
  int slot_ = -1;  // in the interrupt handler's list
};

// Writes `text` to `path` through a PartialOutput; throws InputError ("cannot write
// WHAT 'PATH'") when it cannot.
void write_output_file(const std::string& path, const std::string& text, const std::string& what = "");

// Installs SIGINT and SIGTERM handlers that remove every live PartialOutput's temporary
// (files, and the files of flat directories) and then end the process by the signal.
void remove_partial_outputs_on_interrupt();

}  // namespace fixroute
