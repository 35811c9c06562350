// shard.hpp — `dpgpu run FILE --shard K/N`: one of N parts of a plan, so N independent
// processes (Slurm array tasks, hosts) together run every case exactly once.
//
// The partition is greedy longest-processing-time on an estimated cost: the cases sorted by
// cost (largest first; equal costs by the FNV-1a hash of the case id, so the solvers of one
// instance spread over the shards) go one by one to the shard with the least cost so far
// (ties: fewer cases, then the lower index). The cost is the instance's `work` (the
// problem's own measure, e.g. n·m cells for LCS), known before anything runs and the same on
// every machine: it does not depend on the planner's machine-dependent decisions (a GPU case
// skipped here may run there), so every shard's process computes the same partition.
#pragma once
#include <string>
#include <vector>

#include "records/case_spec.hpp"

namespace dpgpu {

struct Shard {
  int index = 0, count = 1;         // K and N of "K/N", 0 <= K < N
  std::string str() const;          // "K/N"
  std::string folder_name() const;  // "shard-K-of-N"
  bool operator==(const Shard&) const = default;
};

// "K/N" → Shard; InputError (exit 2) naming what is wrong otherwise.
Shard parse_shard(const std::string& text);

// The cost the partition balances (never negative).
double estimated_cost(const CaseSpec& c);

// The shard of every case of the plan (indices as `cases`), for `count` shards. InputError
// when a case's instance could not be built on this host (too large for its memory): its
// cost would then depend on the host's free memory, and so would the split.
std::vector<int> shard_of_cases(const std::vector<CaseSpec>& cases, int count);

// What each shard gets: its cases and its share of the estimated cost (for check and slurm).
struct ShardLoad {
  std::size_t cases = 0;
  double cost = 0;
  double share = 0;  // of the whole plan's cost, 0..1 (0 when the plan costs nothing)
};
std::vector<ShardLoad> shard_loads(const std::vector<CaseSpec>& cases,
                                   const std::vector<int>& shard_of, int count);

}  // namespace dpgpu
