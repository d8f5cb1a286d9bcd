// The process entry point of every fixroute executable (the CLI, the tests, the
// benchmarks): they all link libsystemc. It switches off SystemC's copyright banner,
// which would otherwise precede every error line and every JSON report, then hands over
// to SystemC, which calls the executable's sc_main().
#include <cstdlib>
#include <systemc>

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
