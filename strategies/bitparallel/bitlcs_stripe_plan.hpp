// bitlcs_stripe_plan.hpp — how one pass is split over several (logical) GPUs: which stripes
// each GPU owns, which rows each stripe runs in each launch, and which carry words go from
// GPU to GPU after each launch. Host C++ only: the driver (bitlcs_multigpu.cu) and the CPU
// emulation of the pipeline (test_bitlcs_kernel_on_cpu.cpp) both follow it.
//
// The stripes of the pass (32·W lane words each, as on one GPU) are cut into contiguous runs,
// one per GPU. Rows go in launches of R rows, skewed: in launch r, global stripe s runs the
// rows [r·R − s·D, (r+1)·R − s·D) ∩ [0, m). The skew D (a few groups of 32 rows) is more
// than the lag of the wavefront inside a launch, so no stripe waits for its predecessor, and
// the wavefront is not restarted at each launch. The carry words of a stripe's rows live in a
// ring of K words per stripe (tagged by group number, so a stale word is never taken); after
// launch r, GPU g's last stripe's words of that launch are copied into GPU g+1's import ring,
// and GPU g+1's launch r waits for that copy (it needs launches r−1 and r of GPU g's last
// stripe, because of the skew). GPU g+1 thus runs launch r while GPU g runs r+1: a pipeline
// whose fill and drain are one launch per GPU, plus the skew of the stripes before it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace dpgpu::bitlcs {

struct RowRange {
  std::int64_t lo = 0, hi = 0;  // rows [lo, hi); empty when lo >= hi
  bool empty() const { return lo >= hi; }
};

struct StripePlan {
  std::int64_t rows = 0;            // m: rows of the pass
  std::int64_t stripes = 0;         // S: stripes over all GPUs
  std::int64_t launch_rows = 0;     // R (a multiple of 32)
  std::int64_t skew = 0;            // D (a multiple of 32)
  std::int64_t launches = 0;        // L: launches per GPU (some empty at the ends)
  std::int64_t ring = 0;            // K: carry words per stripe ring, a power of two
  std::vector<std::int64_t> first;  // GPU g owns stripes [first[g], first[g+1]); size gpus + 1

  int gpus() const { return int(first.size()) - 1; }
  RowRange window(std::int64_t s, std::int64_t r) const {
    return {std::max<std::int64_t>(0, r * launch_rows - s * skew),
            std::min(rows, (r + 1) * launch_rows - s * skew)};
  }
  // Some stripe of GPU g has rows in launch r.
  bool active(int g, std::int64_t r) const {
    return (r + 1) * launch_rows - first[g] * skew > 0 &&
           r * launch_rows - (first[g + 1] - 1) * skew < rows;
  }
  // Rows whose carry words GPU g sends to GPU g+1 after launch r: its last stripe's window.
  RowRange exported(int g, std::int64_t r) const { return window(first[g + 1] - 1, r); }
};

// The order of the pipeline (the driver's events; the CPU emulation's schedule). A ring holds
// the carry words of three launches, so:
//  - launch r of GPU g waits for the copy of GPU g−1's launch r (its carries) and for its own
//    copy of launch r−2 (launch r writes the slots of its last stripe's ring that the copy of
//    launch r−3 read, and those of r−2 must have been read before r+1 writes them);
//  - the copy of GPU g's launch r waits for that launch and for GPU g+1's launch r−2 (the copy
//    overwrites the import ring's slots of launch r−3, which launch r−2 may still read).
// Without the first rule a GPU running ahead of its copies overwrites carry words not yet sent.
constexpr std::int64_t kRingLag = 2;

// The skew D in rows: the lag of a stripe behind its predecessor inside a launch is about two
// groups (a group's carry word is complete when lane 31 has run its 32nd row) plus the time
// the word takes through the L2; one more group keeps a stripe from ever waiting.
constexpr std::int64_t kSkewRows = 96;

// `stripes` of the pass over `gpus` GPUs (fewer when there are fewer stripes than GPUs),
// `rows` rows; `launch_rows` 0 picks about 64 launches per GPU (at least 1024 rows).
inline StripePlan plan_stripes(std::int64_t stripes, std::int64_t rows, int gpus,
                               std::int64_t launch_rows) {
  StripePlan p;
  p.rows = rows;
  p.stripes = stripes;
  const int g = int(std::max<std::int64_t>(1, std::min<std::int64_t>(gpus, stripes)));
  for (int k = 0; k <= g; ++k) p.first.push_back(stripes * k / g);
  if (launch_rows <= 0) launch_rows = std::max<std::int64_t>(1024, rows / (64 * std::int64_t(g)));
  p.launch_rows = (launch_rows + 31) / 32 * 32;
  p.skew = kSkewRows;
  p.launches =
      stripes == 0 ? 0 : (rows + (stripes - 1) * p.skew + p.launch_rows - 1) / p.launch_rows;
  // A ring holds what a launch writes and reads (R + D rows) and, for the import ring, what
  // the copy of launch r writes while the receiver still runs launch r−1 (2R + D).
  const std::int64_t need = (3 * p.launch_rows + 2 * p.skew) / 32 + 2;
  p.ring = 1;
  while (p.ring < need) p.ring *= 2;
  return p;
}

// Ring positions of the carry words of rows [lo, hi): one or two runs (the ring wraps).
struct RingRun {
  std::int64_t at = 0, count = 0;
};
inline std::vector<RingRun> ring_runs(const RowRange& rr, std::int64_t ring) {
  if (rr.empty()) return {};
  const std::int64_t g0 = rr.lo / 32, g1 = (rr.hi + 31) / 32;  // groups [g0, g1)
  const std::int64_t at = g0 & (ring - 1), count = g1 - g0;
  if (at + count <= ring) return {RingRun{at, count}};
  return {RingRun{at, ring - at}, RingRun{0, count - (ring - at)}};
}

}  // namespace dpgpu::bitlcs
