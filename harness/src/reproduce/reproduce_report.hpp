// reproduce_report.hpp — the report of a reproduction: DIR/reproduce.md and
// DIR/reproduce.html list every claim (paper item, kind, reference value with its folder and
// GPU, this run's value, held / FAILED / not evaluated with why), per paper; DIR/claims.csv
// holds the same, one row per claim, for tables (scripts/tables.py's `reproduction` block:
// which claims hold on the reference GPU, on this one, on both); the console gets the
// totals and the claims that failed.
#pragma once
#include <filesystem>
#include <ostream>
#include <vector>

#include "reproduce/claim_verdicts.hpp"
#include "reproduce/reproduce_plan.hpp"

namespace dpgpu {

struct ReproduceTotals {
  std::size_t held = 0, failed = 0, not_evaluated = 0;
};
ReproduceTotals count_verdicts(const std::vector<ClaimVerdict>& verdicts);

// The Markdown report (also the text the HTML page shows).
std::string reproduce_markdown(const ReproducePlan& plan, const std::vector<ClaimVerdict>& v,
                               double elapsed_s);
std::string reproduce_html(const ReproducePlan& plan, const std::vector<ClaimVerdict>& v,
                           double elapsed_s);
// One row per claim: experiment, claim, paper, kind, verdict (held, failed, not evaluated),
// value (this run's numbers or why not), reference_verdict (held, failed, n/a),
// reference_value, reference_folder, reference_device, device.
std::string reproduce_csv(const std::vector<ClaimVerdict>& v);

// Writes the three files into `dir`; prints the summary to `out`. `elapsed_s` < 0: the run's
// time is not known (a reproduction from before seeds.json recorded it, judged again).
void write_reproduce_report(const std::filesystem::path& dir, const ReproducePlan& plan,
                            const std::vector<ClaimVerdict>& v, double elapsed_s,
                            std::ostream& out);

}  // namespace dpgpu
