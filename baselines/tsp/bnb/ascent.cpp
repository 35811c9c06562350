// Subgradient ascent on the 1-tree penalties of one node (ascent.hpp).
#include "ascent.hpp"

#include <cmath>

namespace tsp::cpu::bnb {

bool cannot_beat(double bound, std::int64_t ub, const std::vector<double>& pi) {
  // L(π) sums n + n terms of size up to |d| + 2|π|: allow a relative error far above the
  // doubles' (2^-53 per addition), so a rounding never prunes a better tour.
  double scale = std::abs(bound);
  for (double p : pi) scale += 2 * std::abs(p);
  const double margin = 1e-12 * scale * double(pi.size() + 1) + 1e-6;
  return bound - margin > double(ub) - 1;
}

Bound ascend(OneTreeBuilder& trees, const EdgeStates& s, std::vector<double>& pi, std::int64_t ub,
             const AscentPlan& plan) {
  Bound best;
  OneTree t;
  std::vector<double> best_pi = pi;
  double lambda = plan.lambda;
  int since_better = 0;
  for (int step = 0; step < plan.steps; ++step) {
    trees.build(s, pi, t);
    ++best.evaluations;
    if (!t.spans) {
      best.verdict = Verdict::infeasible;
      return best;
    }
    if (best.evaluations == 1 || t.length > best.bound) {
      best.bound = t.length, best.tree = t, best_pi = pi, since_better = 0;
    } else if (++since_better >= plan.period) {
      lambda /= 2, since_better = 0;
    }
    double norm = 0;
    for (int v = 0; v < s.n(); ++v) norm += double(t.degree[v] - 2) * double(t.degree[v] - 2);
    if (norm == 0) {  // a tour: L(π) is its length, and no tour of the node is shorter
      best.bound = t.length, best.tree = t, best_pi = pi;
      best.verdict = Verdict::tour;
      break;
    }
    if (cannot_beat(best.bound, ub, best_pi)) {
      best.verdict = Verdict::pruned;
      break;
    }
    const double step_size = lambda * (double(ub) - t.length) / norm;
    for (int v = 0; v < s.n(); ++v) pi[v] += step_size * double(t.degree[v] - 2);
  }
  pi = best_pi;
  return best;
}

std::vector<std::int32_t> tour_of(const OneTree& t) {
  const int n = int(t.degree.size());
  std::vector<std::array<std::int32_t, 2>> next(std::size_t(n), {-1, -1});
  for (const auto& e : t.edges) {
    next[e[0]][next[e[0]][0] < 0 ? 0 : 1] = e[1];
    next[e[1]][next[e[1]][0] < 0 ? 0 : 1] = e[0];
  }
  std::vector<std::int32_t> tour{0};
  for (int before = 0, at = next[0][0]; at != 0;) {
    tour.push_back(at);
    const int after = next[at][0] == before ? next[at][1] : next[at][0];
    before = at, at = after;
  }
  return tour;
}

}  // namespace tsp::cpu::bnb
