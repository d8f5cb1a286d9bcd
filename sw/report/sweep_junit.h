// The sweep's rows as a JUnit XML file (`sweep --junit FILE`, docs/cli.md): the format
// CTest, Jenkins, GitLab and cocotb's users feed their CI dashboards. One <testsuite> per
// algorithm, one <testcase> per row (classname: collective.algorithm, name: topology, port
// model and engine), a failed row a <failure> carrying its first errors.
#pragma once
#include <string>
#include <vector>

#include "sweep_table.h"

namespace fixroute {

std::string sweep_junit_xml(const std::vector<SweepRow>& rows);

}  // namespace fixroute
