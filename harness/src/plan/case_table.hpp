// case_table.hpp — what `dpgpu check` and `run --dry-run` print: the cases grouped by
// instance, each instance with its sizes (n, m, capacity, ...), work and known optimum, each
// case with what will happen to it (run, skip, refuse, or a broken instance rule) and why.
// Long reasons (no GPU, ...) are numbered notes printed once below the table.
#pragma once
#include <iosfwd>
#include <vector>

#include "plan/plan.hpp"

namespace dpgpu {

// The cases `which` (indices into plan.cases, in order), then one line per part:
// instances × solver points = cases, repetitions, and how many will run, be skipped or be
// refused. With `shard_of` (a shard per case of the plan, of `shards`), each case line names
// its shard.
void print_case_table(std::ostream& out, const RunPlan& plan, const std::vector<std::size_t>& which,
                      const std::vector<int>& shard_of = {}, int shards = 0);

}  // namespace dpgpu
