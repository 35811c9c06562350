// incumbent.cuh — the bound in force and the held tour, shared by all threads of a search
// (problems/tsp/search_bound.hpp): the bound is an atomicMin'd 64-bit word every thread
// rereads now and then into a register; the held tour is written under a spin lock, only by a
// thread whose tour is strictly better than the one held (rare: improvements and, with the
// optimal bound, the first optimal tour).
#pragma once
#include <cstdint>

namespace dpgpu::backtracking {

inline constexpr int kMaxTourCities = 32;

struct IncumbentState {
  unsigned long long bound;  // bound in force (non-negative int64)
  long long held;            // cost of the held tour; INT64_MAX when none
  int lock;
  int cities;  // n
  std::int32_t tour[kMaxTourCities];
};

template <class Cost>
struct DeviceIncumbent {
  IncumbentState* g;
  Cost local;  // this thread's copy of the bound

  __device__ DeviceIncumbent(IncumbentState* state, Cost start) : g(state), local(start) {
    refresh();
  }
  __device__ Cost bound() const { return local; }
  __device__ void refresh() {
    const unsigned long long b = *reinterpret_cast<volatile unsigned long long*>(&g->bound);
    if (b < static_cast<unsigned long long>(local)) local = static_cast<Cost>(b);
  }
  // A tour of cost `tour` <= the bound: becomes the held tour when strictly better.
  template <class CityAt>
  __device__ void record(Cost tour, int count, CityAt city_at) {
    if (static_cast<long long>(tour) >= *reinterpret_cast<volatile long long*>(&g->held)) return;
    atomicMin(&g->bound, static_cast<unsigned long long>(tour));
    if (tour < local) local = tour;
    while (atomicCAS(&g->lock, 0, 1) != 0) {
    }
    __threadfence();
    volatile long long* held = &g->held;
    if (static_cast<long long>(tour) < *held) {
      *held = static_cast<long long>(tour);
      volatile std::int32_t* t = g->tour;
      for (int i = 0; i < count; ++i) t[i] = city_at(i);
    }
    __threadfence();
    atomicExch(&g->lock, 0);
  }
};

// The distance matrix in shared memory, as the explorers read it.
template <class Cost>
struct SharedArcs {
  const Cost* d;
  int n;
  __device__ Cost operator()(int i, int j) const { return d[i * n + j]; }
};

}  // namespace dpgpu::backtracking
