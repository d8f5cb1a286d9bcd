// Entry point of the test executables: libsystemc's main() calls sc_main().
#include <gtest/gtest.h>

#include <system_error>
#include <systemc>  // declares sc_main with the C linkage libsystemc calls

#include "test_support.h"

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  std::error_code ignored;  // leave no CLI scratch files in the temp directory
  std::filesystem::remove_all(fixroute::testing_support::scratch_path(), ignored);
  return status;
}
