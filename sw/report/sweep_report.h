// The sweep's HTML report (docs/cli.md, "The report"): one self-contained page (inline
// SVG and CSS, nothing fetched) that `make run` writes to report/index.html.
//   - per collective, algorithm and port model, measured steps against network size, with
//     the construction's formula, the paper's theorem and the lower bound as lines; a point
//     per CSV row, rows above the theorem ringed in red;
//   - which engines agree with which (same steps, both verified) on the cases both ran;
//   - the slowest runs; the rows above the paper's theorem; links to drawings.
#pragma once
#include <string>
#include <vector>

#include "sw/report/sweep_table.h"

namespace fixroute {

// A drawing of a small case, written beside the page (`file` relative to it).
struct ReportDrawing {
  std::string title;
  std::string file;
};

std::string sweep_report_html(const std::vector<SweepRow>& rows, const std::vector<ReportDrawing>& drawings);

}  // namespace fixroute
