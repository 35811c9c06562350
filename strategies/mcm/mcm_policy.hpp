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

enum class Kernel {
  thread,
  block,
  blocks
};  // OneThreadPerOneEntry, OneBlockPerOneEntry, BlocksPerOneEntry
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

// The paper's Table I grid, every setting calibrate can reach: thread and block kernels with
// 32..256 threads (block also 512, 1024), the blocks kernel with 32..256 threads × 2..16 blocks.
std::vector<Setting> calibration_grid();

// The settings next to `s` in the grid: threads halved and doubled (same kernel), blocks per
// entry halved and doubled (blocks ↔ block at 2), thread ↔ block at the same threads. What
// calibrate also times beside its current choice, so it follows the best setting as it drifts
// with l (thread → block, more threads, then blocks) and reaches every setting of the grid.
std::vector<Setting> grid_neighbours(const Setting& s);

// Policy calibrate, online: the solve itself times candidate settings on some diagonals
// (each candidate computes the whole diagonal, the same values, so every timed launch is real
// work) and uses the fastest until the next sample. It starts from block:128 (the fastest
// setting alone at every n measured on the H100, mcm_calibrate_sweep). Candidates: the
// current choice, its grid neighbours, and the last sample's runner-up when within 10 %; the
// thread kernel is not timed again once its best setting took more than 1.5× the fastest (its
// time per entry grows with l); the blocks kernel only once a diagonal has fewer entries than
// splits, and after losing by more than 1.5× only in the last sixteenth of the diagonals. Samples: the first at l = min(n, 64); then, pay as you go, once the compute
// since the last sample (estimated at its fastest time) times `budget` covers what that
// sample's losing launches cost; and a thread-kernel choice made at l is timed again at 2l.
// The current setting is kept unless the fastest candidate beats it by more than kNoiseS
// (twice the event timer's ~0.5 µs resolution: a single timing of a 5 µs diagonal cannot
// tell settings 20 % apart). A flat sample (every candidate within kFlat of the fastest, or
// within kNoiseS: the choice cannot gain more than the noise) doubles the compute the next
// sample waits for, up to 64×; a sample that tells its candidates apart resets it.
class Calibrator {
 public:
  Calibrator(std::int64_t n, double budget);
  // Called once per diagonal l = 2..n in order (or pass() instead): time candidates() on l?
  bool sample(std::int64_t l);
  // A diagonal launched with current() while a sample's times are awaited.
  void pass() { since_s_ += best_s_; }
  // How many diagonals the driver queues (with current()) before it waits for a sample's
  // times: enough estimated GPU work (kAheadS) that the queue does not drain while the host
  // waits and chooses; 1 before any estimate.
  int ahead() const;
  static constexpr double kFlat = 0.03, kNoiseS = 1e-6, kAheadS = 50e-6;
  static constexpr int kMaxAhead = 16, kMaxBackoff = 64;
  const std::vector<Setting>& candidates() const { return candidates_; }
  // The candidates' times on the sampled diagonal l (seconds, candidates() order); the
  // fastest is used from diagonal `from` on (the driver may have launched more meanwhile).
  void record(std::int64_t l, const std::vector<double>& seconds, std::int64_t from);
  const Setting& current() const { return current_; }
  // The table used: each range starts where a choice took effect (a sampled diagonal counts
  // under the previous choice). table_text() accepts it, policy table reproduces it.
  const std::vector<Range>& used() const { return used_; }
  int samples() const { return samples_; }
  int flat_samples() const { return flat_samples_; }
  double extra_s() const { return extra_s_; }  // time of the launches that lost
  double timed_s() const { return timed_s_; }  // time of every timed launch

 private:
  void choose(std::int64_t from, const Setting& s);
  void next_candidates(std::int64_t l, const Setting& runner_up, bool have_runner_up);
  std::int64_t n_, first_, last_l_ = 0;
  double budget_;
  std::vector<Setting> candidates_;
  Setting current_;
  bool awaiting_ = false;
  double best_s_ = 0, last_extra_s_ = 0, extra_s_ = 0, timed_s_ = 0, since_s_ = 0;
  double ratio_[3] = {0, 0,
                      0};  // per kernel: its best time / the fastest, at the last sample timing it
  int samples_ = 0, flat_samples_ = 0, backoff_ = 1;
  std::vector<Range> used_;
};

}  // namespace dpgpu::mcm_gpu
