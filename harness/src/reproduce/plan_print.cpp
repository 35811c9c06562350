// plan_print.cpp — the plan as --dry-run prints it (reproduce_plan.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reproduce/reproduce_plan.hpp"

namespace dpgpu {

namespace {

void print_experiment(std::ostream& out, const PlannedExperiment& e, std::size_t& evaluated,
                      std::size_t& total) {
  std::vector<std::string> not_evaluated;
  for (const Claim& c : e.exp.claims) {
    const std::string why = not_evaluated_why(e, c);
    if (why.empty())
      ++evaluated;
    else
      not_evaluated.push_back(fmt::format("    not evaluated: {} [{}]: {}", c.id, c.paper, why));
  }
  total += e.exp.claims.size();
  const std::string cases = e.skip.empty() ? fmt::format("{}", e.estimate.cases) : std::string("-");
  const std::string time = !e.skip.empty()         ? std::string("skipped")
                           : !e.plan_error.empty() ? std::string("?")
                                                   : duration_text(e.estimate.seconds);
  out << fmt::format("  {:<30} {:<12} {:>6} {:>8} {:>3}/{:<3} {}\n", e.exp.name,
                     fmt::join(e.exp.papers, ","), cases, time,
                     e.exp.claims.size() - not_evaluated.size(), e.exp.claims.size(),
                     e.reference_gpu.empty() ? "none" : e.reference_gpu);
  if (e.estimate.unpriced > 0)
    out << fmt::format("    {} of {} cases have no reference time (priced at the mean)\n",
                       e.estimate.unpriced, e.estimate.cases);
  if (!e.plan_error.empty()) out << "    cannot plan here: " << e.plan_error << "\n";
  for (const auto& line : not_evaluated) out << line << "\n";
}

}  // namespace

void print_reproduce_plan(std::ostream& out, const ReproducePlan& plan) {
  out << fmt::format("dpgpu reproduce: papers {}, tier {}, seeds {}", fmt::join(plan.papers, " "),
                     plan.tier, plan.seeds);
  if (plan.seed_offset)
    out << fmt::format(" (each generated seed s runs as s + {})", *plan.seed_offset);
  out << "\n";
  for (const std::string& paper : plan.papers) {
    std::vector<std::string> names;
    for (const auto& e : plan.experiments)
      if (e.exp.papers.count(paper)) names.push_back(e.exp.name);
    out << fmt::format("paper {}: {}\n", paper,
                       names.empty() ? "no claims" : fmt::format("{}", fmt::join(names, ", ")));
  }
  out << fmt::format("  {:<30} {:<12} {:>6} {:>8} {:>7} {}\n", "experiment", "papers", "cases",
                     "estimate", "claims", "reference");
  std::size_t evaluated = 0, total = 0, cases = 0;
  for (const auto& e : plan.experiments) {
    print_experiment(out, e, evaluated, total);
    cases += e.skip.empty() ? e.estimate.cases : 0;
  }
  out << fmt::format(
      "{} experiments, {} cases, estimated {} (the reference runs' times); claims evaluated: {} "
      "of {} ({:.0f} %)\n",
      plan.experiments.size(), cases, duration_text(plan.seconds()), evaluated, total,
      total ? 100.0 * double(evaluated) / double(total) : 0.0);
}

}  // namespace dpgpu
