// search_common.cuh — what the two GPU searches share on the host: the cases searched on the
// host alone, the cost width, the distance matrix and the incumbent on the device, the tour
// read back.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

#include "backtracking.hpp"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "incumbent.cuh"
#include "tsp/search_bound.hpp"

namespace dpgpu::backtracking {

// n = 1 (the root is the only tour) and a bound <= 0 (not even the root counts): no GPU.
inline bool searched_on_host(const tsp::Instance& x, std::int64_t bound, SearchOutcome& out) {
  out = SearchOutcome{};
  out.cost = tsp::kNoBound;
  if (x.n == 1) {
    out.nodes = 0 < bound ? 1 : 0;
    if (0 <= bound) out.cost = 0, out.tour = {0};
    return true;
  }
  return !(0 < bound);
}

// int32 costs when no path or tour can reach INT32_MAX; the bound is then clamped to
// cost_upper_bound + 1, which changes no comparison.
inline bool narrow_costs(const tsp::Instance& x) {
  return tsp::cost_upper_bound(x) < std::numeric_limits<std::int32_t>::max();
}
template <class Cost>
Cost device_bound(const tsp::Instance& x, std::int64_t bound) {
  if constexpr (sizeof(Cost) == 4)
    return static_cast<Cost>(std::min<std::int64_t>(bound, tsp::cost_upper_bound(x) + 1));
  return bound;
}

template <class Cost>
std::vector<Cost> dist_as(const tsp::Instance& x) {
  std::vector<Cost> d(x.dist.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<Cost>(x.dist[i]);
  for (int i = 0; i < x.n; ++i) d[std::size_t(i) * x.n + i] = 0;  // never used by a tour
  return d;
}

inline IncumbentState incumbent_start(const tsp::Instance& x, std::int64_t bound) {
  IncumbentState s{};
  s.bound = static_cast<unsigned long long>(bound);
  s.held = std::numeric_limits<long long>::max();
  s.lock = 0;
  s.cities = x.n;
  return s;
}

inline void take_tour(const tsp::Instance& x, const IncumbentState& s, SearchOutcome& out) {
  out.cost = tsp::kNoBound;
  out.tour.clear();
  if (s.held == std::numeric_limits<long long>::max()) return;
  out.cost = s.held;
  out.tour.assign(s.tour, s.tour + x.n);
}

struct HostClock {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

// Declared after a solve's buffers, so destroyed before them: queued work drains first.
struct DrainOnExit {
  cudaStream_t stream;
  ~DrainOnExit() { cudaStreamSynchronize(stream); }
};

struct EventPair {
  cudaEvent_t a = nullptr, b = nullptr;
  EventPair() {
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
  }
  ~EventPair() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  double seconds() const {  // both recorded and complete
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms / 1e3;
  }
};

}  // namespace dpgpu::backtracking
