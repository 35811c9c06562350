#include "interval_check.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "factoradic.hpp"

namespace dpgpu::backtracking {

namespace {
std::string iv(std::uint64_t a, std::uint64_t b) {
  return "[" + std::to_string(a) + ", " + std::to_string(b) + ")";
}
[[noreturn]] void fail(const std::string& what) {
  throw std::logic_error("gpu.ivm check_intervals: " + what);
}
}  // namespace

std::vector<std::pair<std::uint64_t, std::uint64_t>> merged_union(const Intervals& s) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> v;
  for (std::size_t t = 0; t < s.pos.size(); ++t)
    if (s.pos[t] < s.end[t]) v.emplace_back(s.pos[t], s.end[t]);
  std::sort(v.begin(), v.end());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const auto& r : v) {
    if (!out.empty() && r.first < out.back().second)
      fail("intervals overlap: " + iv(out.back().first, out.back().second) + " and " +
           iv(r.first, r.second));
    if (!out.empty() && r.first == out.back().second)
      out.back().second = r.second;
    else
      out.push_back(r);
  }
  return out;
}

void check_tiling(const Intervals& s, std::uint64_t total) {
  const auto u = merged_union(s);
  if (total == 0 ? !u.empty() : (u.size() != 1 || u[0].first != 0 || u[0].second != total))
    fail("the initial intervals do not tile [0, " + std::to_string(total) + ")");
}

void check_explore_step(const Intervals& before, const Intervals& after) {
  for (std::size_t t = 0; t < before.pos.size(); ++t) {
    if (after.end[t] != before.end[t])
      fail("explorer " + std::to_string(t) + " changed its end during exploration: " +
           iv(before.pos[t], before.end[t]) + " -> " + iv(after.pos[t], after.end[t]));
    if (after.pos[t] < before.pos[t])
      fail("explorer " + std::to_string(t) + " moved left: " + iv(before.pos[t], before.end[t]) +
           " -> " + iv(after.pos[t], after.end[t]));
  }
}

void check_steal_step(const Intervals& before, const Intervals& after,
                      const std::vector<int>& victim) {
  const std::size_t T = before.pos.size();
  std::uint64_t sum = 0;
  for (std::size_t t = 0; t < T; ++t) sum += interval_length(before.pos[t], before.end[t]);
  const std::uint64_t mean = T ? sum / T : 0;
  std::vector<int> thief_of(T, -1);
  for (std::size_t t = 0; t < T; ++t) {
    const int v = victim[t];
    if (v < 0) continue;
    if (std::size_t(v) >= T)
      fail("explorer " + std::to_string(t) + " names victim " + std::to_string(v));
    if (thief_of[std::size_t(v)] >= 0)
      fail("victim " + std::to_string(v) + " taken twice, by " +
           std::to_string(thief_of[std::size_t(v)]) + " and " + std::to_string(t));
    thief_of[std::size_t(v)] = int(t);
    if (interval_length(before.pos[t], before.end[t]) != 0)
      fail("thief " + std::to_string(t) + " was not empty: " + iv(before.pos[t], before.end[t]));
    const std::uint64_t len =
        interval_length(before.pos[std::size_t(v)], before.end[std::size_t(v)]);
    if (len <= mean || len < 2)
      fail("victim " + std::to_string(v) + " held " + std::to_string(len) + " leaves, mean " +
           std::to_string(mean));
  }
  if (merged_union(before) != merged_union(after))
    fail("work stealing changed the union of the intervals");
}

}  // namespace dpgpu::backtracking
