// Hirschberg's recursion, one batch of passes per level, leaves on the host.
#include "myers_script.hpp"

#include <omp.h>

#include <vector>

#include "edit/reference.hpp"

namespace dpgpu::myers {

namespace {

struct Sub {
  std::int64_t xa, xl, ya, yl;
  bool leaf;
};

bool is_leaf(const Sub& s, std::int64_t leaf_cells) {
  return s.xl == 0 || s.yl <= 1 || double(s.xl) * double(s.yl) <= double(leaf_cells);
}

// One level: both passes of every inner subproblem in one batch, then each split in two.
std::vector<Sub> split_level(const std::vector<Sub>& level, PassRunner& runner,
                             std::int64_t leaf_cells, ScriptStats& st) {
  std::vector<PassJob> jobs;
  for (const Sub& s : level) {
    if (s.leaf) continue;
    const std::int64_t top = s.yl / 2;
    jobs.push_back({s.xa, s.xl, s.ya, top, false});
    jobs.push_back({s.xa, s.xl, s.ya + top, s.yl - top, true});
    st.pass_cells += double(s.xl) * double(s.yl);
  }
  Columns cols;
  runner.run(jobs, cols, true);
  std::vector<Sub> next;
  std::size_t k = 0;
  for (const Sub& s : level) {
    if (s.leaf) {
      next.push_back(s);
      continue;
    }
    const auto fwd = prefix_distances(cols, k, jobs[k]);
    const auto bwd = prefix_distances(cols, k + 1, jobs[k + 1]);
    k += 2;
    std::int64_t best = 0;  // x[xa, xa + best) goes with the top rows
    for (std::int64_t i = 1; i <= s.xl; ++i)
      if (fwd[std::size_t(i)] + bwd[std::size_t(s.xl - i)] <
          fwd[std::size_t(best)] + bwd[std::size_t(s.xl - best)])
        best = i;
    const std::int64_t top = s.yl / 2;
    Sub lo{s.xa, best, s.ya, top, false},
        hi{s.xa + best, s.xl - best, s.ya + top, s.yl - top, false};
    lo.leaf = is_leaf(lo, leaf_cells);
    hi.leaf = is_leaf(hi, leaf_cells);
    next.push_back(lo);
    next.push_back(hi);
  }
  return next;
}

}  // namespace

std::string align_columns(std::string_view x, std::string_view y, const Symbols& s,
                          PassRunner& runner, std::int64_t leaf_cells, ScriptStats* stats) {
  ScriptStats st;
  Sub root{0, std::int64_t(x.size()), 0, std::int64_t(y.size()), false};
  root.leaf = is_leaf(root, leaf_cells);
  std::vector<Sub> level{root};
  auto inner = [](const std::vector<Sub>& l) {
    for (const Sub& s : l)
      if (!s.leaf) return true;
    return false;
  };
  while (inner(level)) {
    level = split_level(level, runner, leaf_cells, st);
    ++st.levels;
  }
  std::vector<std::string> pieces(level.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t k = 0; k < level.size(); ++k) {
    const Sub& l = level[k];
    pieces[k] = edit::reference_script(x.substr(std::size_t(l.xa), std::size_t(l.xl)),
                                       y.substr(std::size_t(l.ya), std::size_t(l.yl)))
                    .ops;
  }
  std::string ops;
  for (std::size_t k = 0; k < level.size(); ++k) {
    ops += pieces[k];
    st.leaf_cells += double(level[k].xl) * double(level[k].yl);
  }
  st.leaves = std::int64_t(level.size());
  if (stats) *stats = st;
  return ops;
}

}  // namespace dpgpu::myers
