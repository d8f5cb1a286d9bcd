// Error types shared by the whole host side.
#pragma once
#include <stdexcept>
#include <string>

namespace fixroute {

// Bad input from the user: a topology spec, an option, a table file. The CLI maps it
// to exit code 2 with its one-line message, as the command-line contract asks (docs/cli.md).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fixroute
