// plan.hpp — an experiment file → the ordered list of its cases, one CaseSpec each, with
// every decision that can be made before running (skip, refuse, the instance facts). The
// planner reads every instance first, so bad input is exit 2 with nothing written.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/case_spec.hpp"
#include "records/hash_text.hpp"
#include "plan/shard.hpp"
#include "experiment/experiment.hpp"

namespace dpgpu {

// Sweeps that expand to more cases than this are refused before they are materialised.
constexpr std::uint64_t kDefaultMaxCases = 1'000'000;

struct PlanOptions {
  std::string filter;              // ECMAScript regex searched in case ids; must match one
  std::optional<int> repetitions;  // overrides the file's
  std::uint64_t max_cases = kDefaultMaxCases;
  std::optional<Shard> shard;  // run only this shard's cases (shard.hpp)
  bool verbose = false;
  bool keep_broken =
      false;  // `check`: keep cases that break an instance rule (RunPlan::broken), not throw
  // --share-gpus: a case may ask for more GPUs (`gpus`) than the host has; its logical GPUs
  // then share the cards (logical GPU i on card i % cards): exact answers, no scaling figure.
  bool share_gpus = false;
  std::vector<std::string>
      sets;  // --set PATH=VALUE overrides, applied in memory (experiment_override.hpp)
};

// A case whose solver parameters break a rule against its instance (.check_instance, or
// .check_device where a GPU is present).
struct BrokenRule {
  std::size_t case_index = 0;  // into RunPlan::cases
  std::string kind;            // "rule" (.check_instance) or "GPU rule" (.check_device)
  std::string rule;            // what the solver says, e.g. "tile_width must divide n"
  std::string message;         // with the file, line and names: the error `run` stops with
};

struct RunPlan {
  std::filesystem::path file;         // the experiment file as the user named it
  std::vector<std::string> sets;      // its --set overrides ("PATH=VALUE"), in order
  std::vector<Experiment> parts;      // parts.front() holds the keys every part shares
  std::vector<CaseSpec> cases;        // every case of the experiment, in order
  std::vector<std::size_t> selected;  // indices into cases that this run runs (shard and filter)
  std::optional<Shard> shard;
  std::vector<std::size_t> shard_cases;  // indices into cases of the shard (with a shard only)
  std::vector<BrokenRule> broken;        // empty unless PlanOptions::keep_broken
  // What --resume must find again: the experiment, its case ids, how they are measured.
  nlohmann::json fingerprint;
  std::string fingerprint_hash;

  const Experiment& shared() const { return parts.front(); }
  const std::string& name() const { return parts.front().name; }
};

// Throws InputError (exit 2) for bad input: the file, an instance, a duplicate case id, a
// sweep above max_cases, a filter that is not a regex or matches nothing, a case that
// breaks an instance rule (all of them counted; kept instead with keep_broken).
RunPlan make_plan(const std::filesystem::path& file, const PlanOptions& options);

// RunPlan::selected (and shard_cases) again for `filter`: the cases of the plan's shard whose
// id it matches (all with an empty filter). InputError when it matches none.
void select_cases(RunPlan& plan, const std::string& filter);

// Cases a part expands to, counted without expanding (saturates at UINT64_MAX).
std::uint64_t count_cases(const Experiment& e);

}  // namespace dpgpu
