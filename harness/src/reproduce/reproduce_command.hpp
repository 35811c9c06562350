// reproduce_command.hpp — `dpgpu reproduce [PAPER...] [--tier quick|full] [--seeds
// fresh|reference] --out DIR [--dry-run]`: runs the experiments behind each paper's claims
// one after another into DIR/<experiment>/ (as `dpgpu run` does), with a progress line and
// the time left, then judges every claim on the fresh results (claim_verdicts.hpp) and
// writes DIR/reproduce.md and DIR/reproduce.html (reproduce_report.hpp).
//
// Exit codes: 0 every evaluated claim held (and at least one was evaluated); 1 a claim
// failed; 2 bad input; 3 nothing was evaluated; 130 / 143 stopped by a signal.
#pragma once
#include "cli/command.hpp"
#include "reproduce/reproduce_plan.hpp"

namespace dpgpu {

int reproduce(const ReproduceOptions& options);

namespace cli {
Command add_reproduce_command(CLI::App& app);
}

}  // namespace dpgpu
