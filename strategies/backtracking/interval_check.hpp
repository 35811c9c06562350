// interval_check.hpp — gpu.ivm's debug mode (check_intervals: true) and its tests: the
// explorers' intervals, copied back after each phase, must never lose or duplicate a piece of
// [0, m!). An exploration phase may only move each `pos` right (its end fixed): what it passed
// is explored. A work-stealing phase must leave the union of the remaining intervals exactly
// as it was, with no two overlapping, each victim taken by one thief at most, thieves empty
// before and victims holding more than the mean. Each check throws std::logic_error saying
// which explorer broke what.
#pragma once
#include <cstdint>
#include <vector>

namespace dpgpu::backtracking {

struct Intervals {
  std::vector<std::uint64_t> pos, end;
};

// The non-empty intervals, sorted, pairwise disjoint (else throws), adjacent ones merged.
std::vector<std::pair<std::uint64_t, std::uint64_t>> merged_union(const Intervals& s);

// The initial partition: disjoint and together exactly [0, total).
void check_tiling(const Intervals& s, std::uint64_t total);
// One TreeExplore: ends unchanged, no pos moved left.
void check_explore_step(const Intervals& before, const Intervals& after);
// One work-stealing phase; victim[t] = -1 when thief t took nothing.
void check_steal_step(const Intervals& before, const Intervals& after,
                      const std::vector<int>& victim);

}  // namespace dpgpu::backtracking
