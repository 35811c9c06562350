// mcm_policy.hpp — which of the paper's three kernels computes each diagonal l (= b - a),
// with how many threads per block and blocks per entry: one setting for all (`fixed`), a
// range table given as text (`table`; the paper's Table II is one), or one measured on the
// instance (`calibrate`). Host code only; the rule that checks a table is here too.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpgpu::mcm_gpu {

enum class Kernel { thread, block, blocks };  // OneThreadPerOneEntry, OneBlockPerOneEntry, BlocksPerOneEntry
const char* to_string(Kernel k);
std::optional<Kernel> kernel_from(const std::string& name);

struct Setting {
  Kernel kernel = Kernel::thread;
  int threads = 32;  // per block
  int blocks = 1;    // per entry (blocks kernel only)
  bool operator==(const Setting&) const = default;
};
std::string to_string(const Setting& s);  // "thread:32", "blocks:64:8"

struct Range {
  std::int64_t from = 2, to = -1;  // l in [from, to]; to = -1: no upper end ('*')
  Setting setting;
};

// Parses "2-3668:block:32,3669-15406:thread:32,15407-*:blocks:128:8" (whitespace allowed):
// each range "FROM-TO:KERNEL:THREADS[:BLOCKS]", TO = '*' for the open end. The ranges must
// start at l = 2, follow one another without gap or overlap, and end with '*'; THREADS a
// multiple of 32 in [32, 1024]; BLOCKS in [2, 1024] for `blocks` and absent otherwise.
// Returns why not (naming the range by number and text) or the ranges.
struct TableParse {
  std::vector<Range> ranges;
  std::string error;
};
TableParse parse_table(const std::string& text);
std::string table_text(const std::vector<Range>& ranges);

// The setting for diagonal l (ranges from parse_table: complete by construction).
const Setting& setting_for(const std::vector<Range>& ranges, std::int64_t l);

// Settings that `calibrate` times (the paper's Table I grid): thread and block kernels with
// 32..256 threads (block also 512, 1024), the blocks kernel with 32..256 threads × 2..16 blocks.
std::vector<Setting> calibration_grid();

// Diagonals calibrate samples: `count` values of l spread evenly over [2, n] (fewer when n
// is small), ascending, distinct.
std::vector<std::int64_t> sample_diagonals(std::int64_t n, int count);

// From the fastest setting at each sampled l (same order as `samples`): ranges whose
// boundaries sit halfway between samples, equal neighbours merged.
std::vector<Range> ranges_from_samples(const std::vector<std::int64_t>& samples, const std::vector<Setting>& fastest);

}  // namespace dpgpu::mcm_gpu
