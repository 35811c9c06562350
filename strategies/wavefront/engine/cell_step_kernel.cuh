// cell_step_kernel.cuh — the engine's generic per-step kernel: one thread per cell of a
// diagonal, the cell's value from the adapter's recurrence (a device function), stored into
// this step's ring slot; with decisions, one ballot word per warp.
//
// A launch covers the diagonal's cells rounded out to whole blocks (first = the first thread's
// cell index, from the adapter's launch geometry). The surplus threads run the same code and
// compute into padding that no real cell reads (the adapter's layout guarantees that), so no
// thread branches on "am I inside the grid".
//
// The recurrence type Rec provides:
//   using Cell; struct Inputs;                     (read-only views, passed by value)
//   static constexpr bool kBitsByCell;             decision word index from the cell index (true)
//                                                  or from the launch's thread index (false)
//   template <ReadPath P> __device__ static Cell value(const Inputs&, const StepRing<Cell>&, int i, bool& decision);
//   __device__ static int slot_index(int i);       where cell i sits in its slot
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "readonly.cuh"
#include "step_ring.cuh"

namespace dpgpu::wavefront {

template <class Rec, ReadPath P, bool kBits>
__global__ void __launch_bounds__(1024)
    wavefront_cell_step(typename Rec::Inputs in, StepRing<typename Rec::Cell> ring,
                        std::uint32_t* __restrict__ bits, int first) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int i = first + x;
  bool decision = false;
  const typename Rec::Cell v = Rec::template value<P>(in, ring, i, decision);
  ring.cur[Rec::slot_index(i)] = v;
  if constexpr (kBits) {
    const unsigned word = __ballot_sync(0xffffffffu, decision);
    if ((threadIdx.x & 31) == 0) bits[(Rec::kBitsByCell ? i : x) >> 5] = word;
  }
}

}  // namespace dpgpu::wavefront
