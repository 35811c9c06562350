#include "results/tally.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <map>
#include <vector>

namespace dpgpu {

int tally(const std::string& experiment, const Records& records, std::size_t planned,
          const std::string& scope, const std::string& out) {
  const auto disagree = disagreements(records);
  std::map<std::string, int> counts;
  std::vector<std::string> failures;
  int planned_oom = 0;
  for (const CaseRecord* r : records) {
    const Status s = effective_status(*r, disagree);
    counts[to_string(s)]++;
    if (s == Status::Oom && r->result.refused) ++planned_oom;
    if (!is_failure(*r, s)) continue;
    std::string why = r->result.message;
    for (auto& rep : r->result.reps)
      if (why.empty() && !rep.message.empty()) why = rep.message;
    if (auto it = disagree.find(instance_group(r->spec)); why.empty() && it != disagree.end())
      why = it->second;
    failures.push_back(fmt::format("  {} {}: {}", to_string(s), r->spec.id, why));
  }
  std::vector<std::string> parts;
  for (auto& [k, v] : counts)
    parts.push_back(
        k == "oom" && planned_oom
            ? fmt::format("{} oom ({} refused before running: not failures)", v, planned_oom)
            : fmt::format("{} {}", v, k));
  std::cerr << fmt::format("{}: {} of {} cases{} recorded ({}); results in {}\n", experiment,
                           records.size(), planned, scope, fmt::join(parts, ", "), out);
  for (auto& f : failures) std::cerr << f << "\n";
  return failures.empty() ? 0 : 1;
}

}  // namespace dpgpu
