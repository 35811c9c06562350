// Held-Karp layer by layer over ranked subsets (m = n - 1 cities after city 0, numbered
// 0..m-1 here). Layer k is a dense array of C(m, k) subsets × k cells:
//   cell (r, p) = cheapest path from city 0 through all of S = unrank(k, r), ending at the
//                 p-th smallest element c_p of S.
// Its predecessor layer entry is S \ {c_p}, of rank
//   Σ_{q<p} C(c_q, q+1) + Σ_{q>p} C(c_q, q)
// (elements after c_p move down one position), which one pass over S gives for every p.
// Subsets of a layer are independent: blocks of `block` consecutive ranks go to OpenMP
// threads, each block starting from unrank() and stepping masks with next_same_size().
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>

#include "dpgpu/saturating.hpp"
#include "tsp/held_karp_table.hpp"
#include "tsp/subset_rank.hpp"
#include "tsp_cpu.hpp"

namespace tsp::cpu {

namespace {

using dpgpu::saturating_add;
using dpgpu::saturating_mul;
using subsets::kBinomials;

constexpr int kMaxOthers = 62;

template <class Cost>
struct Layers {
  const Instance& x;
  int m;
  std::vector<Cost> into;  // into[j·m + k] = d(k+1 → j+1)

  explicit Layers(const Instance& x_) : x(x_), m(x_.n - 1), into(arcs_into<Cost>(x_)) {}

  // Fills the k cells (and predecessors) of subset `mask` of rank r in layer k.
  void relax(std::uint64_t mask, std::uint64_t r, int k, const Cost* previous, Cost* current,
             std::uint8_t* parent) const {
    int c[64];
    int e = 0;
    for (std::uint64_t t = mask; t != 0; t &= t - 1) c[e++] = std::countr_zero(t);
    std::uint64_t below = 0, above = 0;  // the two sums of the predecessor's rank
    for (int q = 1; q < k; ++q) above += kBinomials(c[q], q);
    for (int p = 0; p < k; ++p) {
      if (p > 0) above -= kBinomials(c[p], p);
      const Cost* before = previous + (below + above) * std::uint64_t(k - 1);
      const Cost* col = &into[std::size_t(c[p]) * m];
      Cost best = std::numeric_limits<Cost>::max();
      int arg = 0;
      for (int q = 0; q < p; ++q) {
        const Cost v = before[q] + col[c[q]];
        if (v < best) best = v, arg = q;
      }
      for (int q = p + 1; q < k; ++q) {
        const Cost v = before[q - 1] + col[c[q]];
        if (v < best) best = v, arg = q;
      }
      current[r * k + p] = best;
      parent[r * k + p] = static_cast<std::uint8_t>(c[arg]);
      below += kBinomials(c[p], p + 1);
    }
  }
};

template <class Cost>
Tour solve(const Instance& x, int threads, std::uint64_t block, const Poll& poll) {
  const Layers<Cost> layers(x);
  const int m = layers.m;
  const int team = threads > 0 ? threads : omp_get_max_threads();
  // parents[k]: layer k's predecessor cities (0..m-1); layer 1's predecessor is city 0.
  std::vector<std::unique_ptr<std::uint8_t[]>> parents(static_cast<std::size_t>(m) + 1);
  std::unique_ptr<Cost[]> previous(new Cost[m]);  // layer 1: rank({j}) = j
  for (int j = 0; j < m; ++j) previous[j] = static_cast<Cost>(x.arc(0, j + 1));

  for (int k = 2; k <= m; ++k) {
    if (poll) poll();
    const std::uint64_t count = kBinomials(m, k);
    std::unique_ptr<Cost[]> current(new Cost[count * k]);
    parents[k].reset(new std::uint8_t[count * k]);
    const std::uint64_t blocks = (count + block - 1) / block;

    // Exceptions may not leave a parallel region: thread 0 polls between blocks; what it
    // throws is kept, the other blocks are skipped, and it is rethrown outside.
    // A layer of one block runs on this thread alone: waking a team costs more than it.
    std::exception_ptr stopped;
    std::atomic<bool> stop{false};
#pragma omp parallel for num_threads(team) schedule(dynamic, 1) if (blocks > 1)
    for (std::uint64_t b = 0; b < blocks; ++b) {
      if (stop.load(std::memory_order_relaxed)) continue;
      if (poll && omp_get_thread_num() == 0) {
        try {
          poll();
        } catch (...) {
          stopped = std::current_exception();
          stop = true;
          continue;
        }
      }
      const std::uint64_t first = b * block, end = std::min(count, first + block);
      std::uint64_t mask = subsets::unrank(k, first);
      for (std::uint64_t r = first; r < end; ++r) {
        layers.relax(mask, r, k, previous.get(), current.get(), parents[k].get());
        if (r + 1 < end) mask = subsets::next_same_size(mask);
      }
    }
    if (stopped) std::rethrow_exception(stopped);
    previous = std::move(current);
  }

  // Layer m is the single full set (rank 0): position p is city p. Close, then walk back.
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  int last = 0;
  for (int p = 0; p < m; ++p) {
    const std::int64_t c = std::int64_t(previous[p]) + x.arc(p + 1, 0);
    if (c < best) best = c, last = p;
  }
  Tour t{best, std::vector<std::int32_t>(static_cast<std::size_t>(x.n))};
  t.tour[0] = 0;
  std::uint64_t s = (std::uint64_t{1} << m) - 1;
  for (int k = m; k >= 1; --k) {
    t.tour[static_cast<std::size_t>(k)] = last + 1;
    if (k == 1) break;
    const std::uint64_t cell =
        subsets::rank(s) * std::uint64_t(k) + std::uint64_t(subsets::position_of(s, last));
    const int before = parents[k][cell];
    s ^= std::uint64_t{1} << last;
    last = before;
  }
  return t;
}

}  // namespace

std::uint64_t omp_held_karp_bytes(const Instance& x) {
  const int m = x.n > 1 ? x.n - 1 : 0;
  if (m > kMaxOthers) return std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t cell = held_karp_cell_bytes(x);
  std::uint64_t predecessors = 0, two_layers = m;  // layer 1 alone at first
  for (int k = 2; k <= m; ++k) {
    const std::uint64_t here = saturating_mul(kBinomials(m, k), std::uint64_t(k));
    predecessors = saturating_add(predecessors, here);
    two_layers =
        std::max(two_layers,
                 saturating_add(here, saturating_mul(kBinomials(m, k - 1), std::uint64_t(k - 1))));
  }
  return saturating_add(saturating_add(predecessors, saturating_mul(two_layers, cell)),
                        std::uint64_t(m) * m * cell + std::uint64_t(x.n) * 4);
}

Tour omp_held_karp(const Instance& x, int threads, std::uint64_t block, const Poll& poll) {
  if (x.n == 1) return Tour{0, {0}};
  if (x.n - 1 > kMaxOthers || omp_held_karp_bytes(x) == std::numeric_limits<std::uint64_t>::max())
    throw std::bad_alloc();
  if (block == 0) throw std::invalid_argument("omp_held_karp: block must be >= 1");
  return held_karp_cell_bytes(x) == 4 ? solve<std::int32_t>(x, threads, block, poll)
                                      : solve<std::int64_t>(x, threads, block, poll);
}

}  // namespace tsp::cpu
