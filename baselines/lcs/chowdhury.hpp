// chowdhury.hpp — the Chowdhury–Ramachandran cache-oblivious LCS (CR06), as a recursion
// that a faster leaf can plug into (gpu.hierarchical puts the GPU beneath it).
//
// The "output boundary" problem: given the top row and left column of a region of the score
// table D, compute its bottom row and right column. Split the region into four quadrants and
// solve them in order Q11, {Q12, Q21} (independent), Q22, pushing the boundary arrays in
// place, so the forward pass needs no memory beyond the two input arrays. A region whose
// sides are both <= cutoff is solved by the two-row DP (SIMPLE-LCS).
// Reconstruction retraces the optimal path from the bottom-right corner: compute the output
// boundaries of Q11, Q12 and Q21, then recurse only into the quadrants the path crosses,
// each cut to the path's entry point (the path only moves up and left, so nothing right of
// or below that point matters). Memory: O(n + m) scores plus one cutoff² decision table.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lcs/lcs_cpu.hpp"

namespace lcs::chowdhury {

using Score = std::uint32_t;
using lcs::cpu::Poll;

// The cells D[i][j], i0 < i <= i0 + h, j0 < j <= j0 + w. Boundary arrays exclude the corner
// D[i0][j0]: top[k] = D[i0][j0+1+k] (w values), left[k] = D[i0+1+k][j0] (h values).
struct Region {
  std::size_t i0, j0, h, w;
};

// Where a retraced path leaves a region: on its top row (i == i0) or left column (j == j0).
struct Point {
  std::size_t i, j;
};

// SIMPLE-LCS in place: on return top[k] = D[i0+h][j0+1+k], left[k] = D[i0+1+k][j0+w].
void base_boundary(std::string_view a, std::string_view b, const Region& r, Score* top, Score* left,
                   Score corner);

// Full decision table of the region (1 byte a cell, in `table`), then the path back from
// D[i0+h][j0+w] to the region's top row or left column; symbols go to `reversed`.
Point base_trace(std::string_view a, std::string_view b, const Region& r, const Score* top,
                 const Score* left, Score corner, std::vector<std::uint8_t>& table,
                 std::string& reversed);

// Peak scratch bytes of one solve (boundary arrays, copies kept for the retrace, the table).
class MemoryMeter {
 public:
  void add(std::size_t bytes) {
    const auto now = now_.fetch_add(bytes) + bytes;
    auto peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }
  void sub(std::size_t bytes) { now_.fetch_sub(bytes); }
  std::size_t peak() const { return peak_.load(); }

 private:
  std::atomic<std::size_t> now_{0}, peak_{0};
};

// A vector of scores whose bytes the meter counts while it lives.
class Scores {
 public:
  Scores(MemoryMeter& meter, std::size_t n) : meter_(meter), v_(n) {
    meter_.add(n * sizeof(Score));
  }
  ~Scores() { meter_.sub(v_.size() * sizeof(Score)); }
  Scores(const Scores&) = delete;
  Scores& operator=(const Scores&) = delete;
  Score* data() { return v_.data(); }

 private:
  MemoryMeter& meter_;
  std::vector<Score> v_;
};

struct Options {
  std::size_t cutoff = 1024;         // both sides <= cutoff: SIMPLE-LCS on the CPU
  int threads = 1;                   // > 1: OpenMP tasks over Q12 || Q21
  std::size_t task_min_side = 4096;  // smaller regions run in the task that reached them
};

// Counts base cases and polls the deadline; safe from OpenMP tasks (a poll that throws is
// remembered, every task then returns at once, and rethrow() raises it after the region).
class Progress {
 public:
  explicit Progress(const Poll& poll) : poll_(poll) {}
  void tick(std::uint64_t cells) {
    cells_ += cells;
    if ((due_ += cells) < (std::uint64_t{1} << 24) || !poll_) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    due_ = 0;
    try {
      poll_();
    } catch (...) {
      error_ = std::current_exception();
      stopped_ = true;
    }
  }
  bool stopped() const { return stopped_.load(std::memory_order_relaxed); }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }
  std::uint64_t cpu_cells() const { return cells_; }

 private:
  const Poll& poll_;
  std::atomic<std::uint64_t> cells_{0}, due_{0};
  std::atomic<bool> stopped_{false};
  std::mutex mutex_;
  std::exception_ptr error_;
};

// No leaf below the recursion: every region reaches SIMPLE-LCS.
struct CpuOnly {
  bool offload(const Region&) const { return false; }
  void boundary(const Region&, Score*, Score*, Score) {}
};

// The recursion. `Leaf` may take a region before it is split further:
// bool offload(const Region&) and void boundary(const Region&, Score* top, Score* left, Score corner)
// with the contract of base_boundary.
template <class Leaf>
class Recursion {
 public:
  Recursion(std::string_view a, std::string_view b, const Options& o, Leaf& leaf,
            Progress& progress, MemoryMeter& meter)
      : a_(a), b_(b), o_(o), leaf_(leaf), progress_(progress), meter_(meter) {}

  // Output boundary of `r`, in place.
  void boundary(const Region& r, Score* top, Score* left, Score corner) {
    if (r.h == 0 || r.w == 0 || progress_.stopped()) return;
    if (r.h <= o_.cutoff && r.w <= o_.cutoff) {
      base_boundary(a_, b_, r, top, left, corner);
      progress_.tick(std::uint64_t(r.h) * r.w);
      return;
    }
    if (leaf_.offload(r)) {
      leaf_.boundary(r, top, left, corner);
      return;
    }
    const Split s = split(r);
    // Corners of Q12 and Q21 before Q11 overwrites them, and of Q22 after.
    const Score c12 = s.wm ? top[s.wm - 1] : corner;
    const Score c21 = s.hm ? left[s.hm - 1] : corner;
    boundary(s.q11, top, left, corner);
    const Score c22 = (s.hm && s.wm) ? top[s.wm - 1] : (s.wm ? c12 : c21);
    // Q12 touches top[wm..w) and left[0..hm); Q21 top[0..wm) and left[hm..h): disjoint.
    if (o_.threads > 1 && std::max(r.h, r.w) >= o_.task_min_side) {
      // Both as tasks: with Q21 inline, GCC's OpenMP ran at most 4 leaves at once
      // (hierarchical_cpu_threads); with both deferred, 15 of 16.
#pragma omp task default(shared) firstprivate(s, c12)
      boundary(s.q12, top + s.wm, left, c12);
#pragma omp task default(shared) firstprivate(s, c21)
      boundary(s.q21, top, left + s.hm, c21);
#pragma omp taskwait
    } else {
      boundary(s.q12, top + s.wm, left, c12);
      boundary(s.q21, top, left + s.hm, c21);
    }
    boundary(s.q22, top + s.wm, left + s.hm, c22);
  }

  // Retraces the optimal path from D[i0+h][j0+w]; appends its symbols to `reversed_`.
  Point trace(const Region& r, const Score* top, const Score* left, Score corner) {
    if (r.h == 0 || r.w == 0 || progress_.stopped()) return {r.i0 + r.h, r.j0 + r.w};
    if (r.h <= o_.cutoff && r.w <= o_.cutoff) {
      progress_.tick(std::uint64_t(r.h) * r.w);
      return base_trace(a_, b_, r, top, left, corner, table_, reversed_);
    }
    const Split s = split(r);
    // Inputs of each quadrant: Q11 the caller's arrays; Q12 and Q21 need Q11's outputs
    // (kept in q11_right / q11_bottom); Q22 the outputs of Q12 and Q21 (in work_top/left).
    Scores work_top(meter_, r.w), work_left(meter_, r.h), q11_right(meter_, s.hm),
        q11_bottom(meter_, s.wm);
    Score* wt = work_top.data();
    Score* wl = work_left.data();
    std::copy_n(top, r.w, wt);
    std::copy_n(left, r.h, wl);
    const Score c12 = s.wm ? top[s.wm - 1] : corner;
    const Score c21 = s.hm ? left[s.hm - 1] : corner;
    boundary(s.q11, wt, wl, corner);
    const Score c22 = (s.hm && s.wm) ? wt[s.wm - 1] : (s.wm ? c12 : c21);
    std::copy_n(wl, s.hm, q11_right.data());
    std::copy_n(wt, s.wm, q11_bottom.data());
    if (o_.threads > 1 && std::max(r.h, r.w) >= o_.task_min_side) {
#pragma omp task default(shared) firstprivate(s, c12, wt, wl)
      boundary(s.q12, wt + s.wm, wl, c12);
#pragma omp task default(shared) firstprivate(s, c21, wt, wl)
      boundary(s.q21, wt, wl + s.hm, c21);
#pragma omp taskwait
    } else {
      boundary(s.q12, wt + s.wm, wl, c12);
      boundary(s.q21, wt, wl + s.hm, c21);
    }
    // Walk back through the quadrants; each is cut to the point where the path enters it.
    Point p{r.i0 + r.h, r.j0 + r.w};
    while (p.i > r.i0 && p.j > r.j0 && !progress_.stopped()) {
      const bool lower = p.i > r.i0 + s.hm, right = p.j > r.j0 + s.wm;
      const Region& q = lower ? (right ? s.q22 : s.q21) : (right ? s.q12 : s.q11);
      const Score* qt =
          lower ? (right ? wt + s.wm : q11_bottom.data()) : (right ? top + s.wm : top);
      const Score* ql =
          right ? (lower ? wl + s.hm : q11_right.data()) : (lower ? left + s.hm : left);
      const Score qc = lower ? (right ? c22 : c21) : (right ? c12 : corner);
      p = trace(Region{q.i0, q.j0, p.i - q.i0, p.j - q.j0}, qt, ql, qc);
    }
    return p;
  }

  std::string& reversed() { return reversed_; }

 private:
  struct Split {
    std::size_t hm, wm;
    Region q11, q12, q21, q22;
  };

  // Halve each side that is above the cut-off; a side not split leaves two quadrants empty.
  Split split(const Region& r) const {
    const std::size_t hm = r.h > o_.cutoff ? r.h / 2 : r.h;
    const std::size_t wm = r.w > o_.cutoff ? r.w / 2 : r.w;
    return {hm,
            wm,
            {r.i0, r.j0, hm, wm},
            {r.i0, r.j0 + wm, hm, r.w - wm},
            {r.i0 + hm, r.j0, r.h - hm, wm},
            {r.i0 + hm, r.j0 + wm, r.h - hm, r.w - wm}};
  }

  std::string_view a_, b_;
  Options o_;
  Leaf& leaf_;
  Progress& progress_;
  MemoryMeter& meter_;
  std::vector<std::uint8_t> table_;
  std::string reversed_;
};

struct Result {
  std::string subsequence;
  std::size_t peak_scratch_bytes = 0;  // boundary arrays, retrace copies, decision table
  std::uint64_t cpu_cells = 0;         // cells computed by SIMPLE-LCS (forward and retrace)
};

// One LCS of a and b through the recursion with `leaf` beneath it. Rows are a, columns b.
template <class Leaf>
Result solve(std::string_view a, std::string_view b, const Options& o, Leaf& leaf,
             const Poll& poll) {
  Result out;
  if (a.empty() || b.empty()) return out;
  Progress progress(poll);
  MemoryMeter meter;
  Recursion<Leaf> rec(a, b, o, leaf, progress, meter);
  {
    Scores top(meter, b.size()), left(meter, a.size());  // D[0][*] = D[*][0] = 0
    const Region whole{0, 0, a.size(), b.size()};
    if (o.threads > 1) {
#pragma omp parallel num_threads(o.threads)
#pragma omp single
      rec.trace(whole, top.data(), left.data(), 0);
    } else {
      rec.trace(whole, top.data(), left.data(), 0);
    }
  }
  progress.rethrow();
  out.subsequence.assign(rec.reversed().rbegin(), rec.reversed().rend());
  out.peak_scratch_bytes = meter.peak() + std::min(a.size(), b.size()) + o.cutoff * o.cutoff;
  out.cpu_cells = progress.cpu_cells();
  return out;
}

}  // namespace lcs::chowdhury

namespace lcs::cpu {
// cpu.chowdhury: the recursion with SIMPLE-LCS leaves; threads > 1 runs Q12 || Q21 as tasks.
chowdhury::Result chowdhury(std::string_view a, std::string_view b, const chowdhury::Options& o,
                            const Poll& poll = {});
}  // namespace lcs::cpu
