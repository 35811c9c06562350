// reproduce_plan.hpp — what `dpgpu reproduce` will do: the experiments behind the chosen
// papers (papers.hpp), each with its tier's overrides and filter (tiers.hpp), the fresh
// seeds (seeds.hpp), the committed reference folder it is compared with, and an estimate of
// its time (estimate.hpp). --dry-run prints it and stops.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "reproduce/estimate.hpp"
#include "reproduce/papers.hpp"

namespace dpgpu {

struct ReproduceOptions {
  std::vector<std::string> papers;  // as written ("0", "004"); empty: all five
  std::string tier = "quick";       // quick | full
  std::string seeds = "fresh";      // fresh | reference
  std::filesystem::path out;
  bool dry_run = false;
  std::filesystem::path experiments;  // the experiment files (default: the source tree's)
  std::filesystem::path reference;    // reference folders by GPU (default: results/reference)
  std::optional<std::uint64_t> seed_offset;  // fresh seeds: this offset, not the clock's
  std::filesystem::path rejudge;  // a finished reproduction: judge its results again, run nothing
  bool resume = false;            // continue the reproduction in `out` (its seeds.json)
};

struct PlannedExperiment {
  PaperExperiment exp;
  Tier tier;                            // empty for `full`
  std::vector<std::string> sets;        // the tier's, then the fresh seeds'
  std::string skip;                     // non-empty: not run, and why
  std::filesystem::path reference_dir;  // results/reference/<gpu>/<name>, or empty
  std::string reference_gpu;            // its <gpu> folder ("h100")
  RunEstimate estimate;
  std::string plan_error;  // the plan could not be made here (missing data, too few GPUs)
};

struct ReproducePlan {
  std::string tier, seeds;
  std::optional<std::uint64_t> seed_offset;  // fresh seeds: s -> s + offset
  std::vector<std::string> papers;
  std::vector<PlannedExperiment> experiments;
  bool rejudged = false;  // --rejudge: judged again on results already there
  double seconds() const;
};

ReproducePlan make_reproduce_plan(const ReproduceOptions& options);

// Why a claim is not evaluated in this plan's tier ("" when it is).
std::string not_evaluated_why(const PlannedExperiment& e, const Claim& c);

// The plan as --dry-run prints it: per experiment its papers, cases, estimate and claims
// evaluated or not (with why), then the totals.
void print_reproduce_plan(std::ostream& out, const ReproducePlan& plan);

// "1m05s", "45s", "1h02m".
std::string duration_text(double seconds);

}  // namespace dpgpu
