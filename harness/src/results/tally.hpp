// tally.hpp — the closing lines of `dpgpu run` and `dpgpu merge`, and their exit code:
// counts by status, then every case that failed (0: none failed, 1: some did).
#pragma once
#include <string>

#include "results/record_rows.hpp"

namespace dpgpu {

// `records`: the folder's committed records in plan order; `planned`: how many cases the
// run (or shard: `scope` says " of shard 1/4") was to record.
int tally(const std::string& experiment, const Records& records, std::size_t planned,
          const std::string& scope, const std::string& out);

}  // namespace dpgpu
