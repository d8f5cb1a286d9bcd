// The ref engine: the C++ step models every router kind brings (its routers register from
// sw/kinds/<kind>/kind.cpp), registered like the hardware engines.
#include "sw/core/router_kind.h"

namespace fixroute {
namespace {

const EngineRegistrar ref_engine([] {
  Engine e;
  e.name = "ref";
  e.summary = "C++ step model, the golden reference";
  return e;
}());

}  // namespace
}  // namespace fixroute
