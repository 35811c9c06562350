// reproduce_plan.cpp — the plan of `dpgpu reproduce` (reproduce_plan.hpp).
#include "reproduce/reproduce_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "dpgpu/error.hpp"
#include "reproduce/claim_sets.hpp"
#include "reproduce/seeds.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

fs::path default_experiments() {
  if (fs::is_directory("experiments")) return "experiments";
#ifdef DPGPU_SOURCE_DIR
  return fs::path(DPGPU_SOURCE_DIR) / "experiments";
#else
  return "experiments";
#endif
}

// results/reference/<gpu>/<name> with a summary.csv: h100 first (the single-GPU reference),
// then the other GPU folders by name.
std::pair<fs::path, std::string> reference_of(const fs::path& root, const std::string& name) {
  std::vector<std::string> gpus;
  if (fs::is_directory(root))
    for (const auto& e : fs::directory_iterator(root))
      if (e.is_directory()) gpus.push_back(e.path().filename().string());
  std::sort(gpus.begin(), gpus.end(), [](const std::string& a, const std::string& b) {
    return std::make_pair(a != "h100", a) < std::make_pair(b != "h100", b);
  });
  for (const std::string& g : gpus)
    if (fs::exists(root / g / name / "summary.csv")) return {root / g / name, g};
  return {};
}

// A claim of the experiment is about energy (its column is one of the energy window's).
bool claims_energy(const PaperExperiment& e) {
  for (const Claim& c : e.claims)
    if (energy_column(c.column)) return true;
  return false;
}

PlannedExperiment plan_one(PaperExperiment exp, const ReproduceOptions& opt,
                           const fs::path& reference_root, std::optional<std::uint64_t> offset) {
  PlannedExperiment p;
  p.exp = std::move(exp);
  if (auto it = p.exp.tiers.find(opt.tier); it != p.exp.tiers.end()) p.tier = it->second;
  p.skip = p.tier.skip;
  std::tie(p.reference_dir, p.reference_gpu) = reference_of(reference_root, p.exp.name);
  p.sets = p.tier.sets;
  // The quick tier measures no energy window unless a claim is about energy: its extra solves
  // cost about a second per GPU case (estimate.cpp), a third of the quick tier's time.
  if (opt.tier == "quick" && !claims_energy(p.exp)) p.sets.push_back("energy_window_s=0");
  if (!p.skip.empty()) return p;
  try {
    // Priced with the file's own seeds, so that case ids match the reference's.
    PlanOptions po;
    po.filter = p.tier.filter, po.sets = p.sets;
    const auto claims_kept = claim_sets(p.exp.file, p.tier, 0);
    po.sets.insert(po.sets.end(), claims_kept.begin(), claims_kept.end());
    const RunPlan plan = make_plan(p.exp.file, po);
    p.estimate = estimate_run(plan, p.reference_dir);
    if (offset) {
      const auto seeds = fresh_seed_sets(p.exp.file, p.tier.sets, *offset);
      p.sets.insert(p.sets.end(), seeds.begin(), seeds.end());
    }
    const auto claims = claim_sets(p.exp.file, p.tier, offset.value_or(0));
    p.sets.insert(p.sets.end(), claims.begin(), claims.end());
    PlanOptions run = po;  // the plan the run will make, checked now (claims against cases)
    run.sets = p.sets;
    make_plan(p.exp.file, run);
  } catch (const InputError& e) {
    p.plan_error = e.what();
  }
  return p;
}

}  // namespace

double ReproducePlan::seconds() const {
  double s = 0;
  for (const auto& e : experiments) s += e.skip.empty() ? e.estimate.seconds : 0;
  return s;
}

ReproducePlan make_reproduce_plan(const ReproduceOptions& opt) {
  if (opt.tier != "quick" && opt.tier != "full")
    throw InputError(fmt::format("reproduce: --tier {}: expected quick or full", opt.tier));
  if (opt.seeds != "fresh" && opt.seeds != "reference")
    throw InputError(fmt::format("reproduce: --seeds {}: expected fresh or reference", opt.seeds));
  ReproducePlan plan;
  plan.tier = opt.tier, plan.seeds = opt.seeds;
  std::set<std::string> papers;
  for (const std::string& p : opt.papers) papers.insert(paper_number(p));
  if (papers.empty()) papers.insert(known_papers().begin(), known_papers().end());
  plan.papers.assign(papers.begin(), papers.end());
  if (opt.seeds == "fresh")
    plan.seed_offset = opt.seed_offset ? *opt.seed_offset : clock_seed_offset();
  const fs::path experiments = opt.experiments.empty() ? default_experiments() : opt.experiments;
  const fs::path reference = opt.reference.empty()
                                 ? fs::absolute(experiments).parent_path() / "results" / "reference"
                                 : opt.reference;
  for (PaperExperiment& e : experiments_behind(experiments, papers))
    plan.experiments.push_back(plan_one(std::move(e), opt, reference, plan.seed_offset));
  return plan;
}

std::string not_evaluated_why(const PlannedExperiment& e, const Claim& c) {
  if (!e.skip.empty()) return "full tier only (the experiment is not run in this tier): " + e.skip;
  if (auto it = e.tier.full_only.find(c.id); it != e.tier.full_only.end())
    return "full tier only: " + it->second;
  return "";
}

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

}  // namespace dpgpu
