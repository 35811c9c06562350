// check_command.cpp — `dpgpu check`: the plan made (every instance read, every rule
// checked) and shown as the case table; nothing runs, nothing is written. A case that
// breaks an instance rule is listed with the others, then the command fails (exit 2) with
// the error `run` would stop on.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "case_table.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/runner.hpp"
#include "plan.hpp"

namespace dpgpu {

int check_experiment(const std::filesystem::path& file, std::uint64_t max_cases) {
  PlanOptions opt;
  opt.max_cases = max_cases;
  opt.keep_broken = true;
  const RunPlan plan = make_plan(file, opt);
  print_case_table(std::cout, plan, plan.selected);
  std::cout << std::flush;
  if (plan.broken.empty()) return 0;
  constexpr std::size_t kShown = 10;
  for (std::size_t i = 0; i < std::min(plan.broken.size(), kShown); ++i)
    std::cerr << "error: " << plan.broken[i].message << "\n";
  if (plan.broken.size() > kShown)
    std::cerr << fmt::format("error: and {} more cases that break an instance rule (listed above)\n",
                             plan.broken.size() - kShown);
  return 2;
}

}  // namespace dpgpu
