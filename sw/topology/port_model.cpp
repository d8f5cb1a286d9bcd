#include "port_model.h"

#include <fmt/format.h>

#include "sw/core/errors.h"

namespace fixroute {

PortModel PortModel::parse(const std::string& ports, const std::string& duplex, bool combining) {
  PortModel m;
  m.combining = combining;
  if (ports == "1-port") {
    m.one_port = true;
  } else if (ports != "all-port") {
    throw InputError(fmt::format("bad port model '{}'; accepted: all-port, 1-port", ports));
  }
  if (duplex == "half") {
    m.half_duplex = true;
  } else if (duplex != "full") {
    throw InputError(fmt::format("bad duplex '{}'; accepted: full, half", duplex));
  }
  return m;
}

}  // namespace fixroute
