// Entry point of the test executables: libsystemc's main() calls sc_main().
#include <gtest/gtest.h>

#include <systemc>  // declares sc_main with the C linkage libsystemc calls

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
