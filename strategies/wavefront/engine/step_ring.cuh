// step_ring.cuh — the engine's ring of the last `window` diagonals (steps) in one linear,
// padded device buffer, and the view of it that a step's kernel receives.
//
// Two layouts, chosen by the adapter's RingShape:
//   * fixed slots: `window` slots of `slot_cells` each; step s lives in slot s mod window
//     (negative s too: the steps "before the first" are the zero boundary);
//   * two-ended (window 2, steps of different sizes, e.g. Held-Karp layers): one buffer of
//     `two_ended_cells`; even steps from the front, odd steps from the back, so step s and
//     s − 1 never overlap as long as every two adjacent steps fit together.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace dpgpu::wavefront {

struct RingShape {
  int window = 0;                // diagonals kept; 0: the adapter keeps its own state
  std::uint64_t slot_cells = 0;  // fixed slots: cells per slot (padded)
  std::uint64_t two_ended_cells =
      0;             // window 2, variable steps: capacity (>= any two adjacent steps)
  bool zero = true;  // zero-filled once before the first step (the boundary)
  std::uint64_t cells() const {
    return two_ended_cells ? two_ended_cells : std::uint64_t(window) * slot_cells;
  }
};

// What a step's kernel sees of the ring: its own slot, the two before it, and the whole ring
// for recurrences that reach further back (knapsack: w_i + 1 diagonals).
template <class Cell>
struct StepRing {
  Cell* cur = nullptr;          // this step's slot
  const Cell* back1 = nullptr;  // step − 1
  const Cell* back2 = nullptr;  // step − 2 (fixed slots with window >= 3 only)
  const Cell* base = nullptr;   // slot 0 (fixed slots)
  std::int64_t slot_cells = 0;
  int window = 0;
  int step = 0;
  // Slot of step − b (fixed slots; b < window).
  __host__ __device__ __forceinline__ const Cell* back(int b) const {
    int s = (step - b) % window;
    s += s < 0 ? window : 0;
    return base + std::int64_t(s) * slot_cells;
  }
};

}  // namespace dpgpu::wavefront
