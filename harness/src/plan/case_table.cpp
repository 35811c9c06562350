#include "plan/case_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include "records/human_format.hpp"

namespace dpgpu {

namespace {

constexpr std::size_t kInlineReason = 60;  // longer reasons become numbered notes

// "n=4096 m=4096, work 16.8 M, known optimum 2048", or why the instance was not built.
std::string instance_facts(const CaseSpec& c) {
  if (c.dims.empty() && c.work == 0 && c.decision == Decision::Refuse)
    return "(not built: too large for memory)";
  std::vector<std::string> sizes;
  for (auto& [k, v] : c.dims) sizes.push_back(k + "=" + to_string(v));
  std::string out = fmt::format("{}", fmt::join(sizes, " "));
  out += (out.empty() ? "" : ", ") + ("work " + format_count(c.work));
  if (c.known_optimum) out += fmt::format(", known optimum {}", *c.known_optimum);
  return out;
}

// Numbered notes for long reasons, each printed once.
class Notes {
 public:
  std::string cite(const std::string& reason) {
    if (reason.size() <= kInlineReason) return reason;
    auto [it, fresh] = numbers_.emplace(reason, numbers_.size() + 1);
    if (fresh) order_.push_back(reason);
    // A word-cut head of the reason, so the line says what kind of reason it is.
    std::string head = reason.substr(0, 40);
    if (auto space = head.rfind(' '); space != std::string::npos && space > 10) head.resize(space);
    return fmt::format("{}\u2026 [{}]", head, it->second);
  }
  void print(std::ostream& out) const {
    for (std::size_t i = 0; i < order_.size(); ++i)
      out << fmt::format("[{}] {}\n", i + 1, order_[i]);
  }

 private:
  std::map<std::string, std::size_t> numbers_;
  std::vector<std::string> order_;
};

struct Counts {
  std::size_t run = 0, skip = 0, refuse = 0, broken = 0;
};

}  // namespace

void print_case_table(std::ostream& out, const RunPlan& plan, const std::vector<std::size_t>& which,
                      const std::vector<int>& shard_of, int shards) {
  std::map<std::size_t, const BrokenRule*> broken;
  for (auto& b : plan.broken) broken[b.case_index] = &b;
  std::size_t width = 0;
  for (std::size_t i : which)
    width = std::max(width, plan.cases[i].id.size() - plan.cases[i].instance_key.size() - 1);
  width = std::min<std::size_t>(width, 48);

  Notes notes;
  std::map<std::size_t, Counts> counts;  // by part
  std::string group;                     // the instance of the lines above
  for (std::size_t i : which) {
    const CaseSpec& c = plan.cases[i];
    if (std::string g = fmt::format("{}\n{}", c.part, c.instance_key); g != group) {
      group = g;
      out << fmt::format("{}  {}\n", c.instance_key, instance_facts(c));
    }
    Counts& n = counts[c.part];
    std::string what;
    if (auto b = broken.find(i); b != broken.end()) {
      what = fmt::format("refused by a {}: {}", b->second->kind, notes.cite(b->second->rule));
      ++n.broken;
    } else if (c.decision == Decision::Skip) {
      what = "skipped: " + notes.cite(c.reason);
      ++n.skip;
    } else if (c.decision == Decision::Refuse) {
      what = "refused: " + notes.cite(c.reason);
      ++n.refuse;
    } else {
      what = "run";
      ++n.run;
    }
    const std::string shard =
        i < shard_of.size() ? fmt::format("[shard {}/{}]  ", shard_of[i], shards) : "";
    out << fmt::format("{:>6}  {:<{}}  {}{}\n", i + 1, c.id.substr(c.instance_key.size() + 1),
                       width, shard, what);
  }
  notes.print(out);

  const int reps = plan.fingerprint["repetitions"].get<int>();
  for (const Experiment& e : plan.parts) {
    std::set<std::string> instances, solvers;
    std::size_t cases = 0;
    for (std::size_t i : which)
      if (const CaseSpec& c = plan.cases[i]; c.part == e.part) {
        ++cases;
        instances.insert(c.instance_key);
        solvers.insert(c.id.substr(c.instance_key.size() + 1));
      }
    const Counts& n = counts[e.part];
    std::string tally = fmt::format("{} to run, {} skipped, {} refused", n.run, n.skip, n.refuse);
    if (n.broken) tally += fmt::format(", {} refused by a rule", n.broken);
    out << fmt::format(
        "{}{}: {} instances x {} solver points = {} cases, {} repetitions each: {}\n", e.name,
        plan.parts.size() > 1 ? fmt::format(" part {} ({})", e.part, e.problem) : "",
        instances.size(), solvers.size(), cases, reps, tally);
  }
}

}  // namespace dpgpu
