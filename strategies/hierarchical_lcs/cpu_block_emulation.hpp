// cpu_block_emulation.hpp — just enough CUDA to run level_kernels.cuh, unchanged, on the CPU:
// each thread of a block is a fiber (ucontext) and __syncthreads() passes control to the
// next one, so all threads meet at every barrier (the kernels' only synchronisation).
// For test_level_kernels_on_cpu.cpp: it checks the kernels' indices, padding, corners and
// exchange on machines without a GPU; the GPU test checks the rest.
#pragma once
#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __shared__

struct uint4 {
  unsigned x, y, z, w;
};
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }

namespace emu {

struct Dim {
  unsigned x = 0, y = 0, z = 0;
};

struct Block {
  std::vector<ucontext_t> fibers;
  std::vector<std::unique_ptr<char[]>> stacks;
  ucontext_t main{};
  unsigned current = 0, finished = 0;
  std::function<void()> body;
};

inline Block*& active() {
  static Block* b = nullptr;
  return b;
}
inline Dim& block_idx() {
  static Dim d;
  return d;
}
inline Dim& block_dim() {
  static Dim d;
  return d;
}
inline Dim& grid_dim() {
  static Dim d;
  return d;
}
inline Dim thread_idx() { return Dim{active()->current, 0, 0}; }

inline void next_fiber() {  // round robin; back to main after the last thread
  Block& b = *active();
  const unsigned from = b.current;
  if (from + 1 < b.fibers.size()) {
    b.current = from + 1;
    swapcontext(&b.fibers[from], &b.fibers[from + 1]);
  } else {
    b.current = 0;
    swapcontext(&b.fibers[from], &b.fibers[0]);
  }
}

inline void fiber_entry() {
  Block& b = *active();
  b.body();
  ++b.finished;
  // A finished thread hands on; the last one returns to main (uc_link).
  if (b.current + 1 < b.fibers.size()) {
    ++b.current;
    setcontext(&b.fibers[b.current]);
  }
}

// One block: a fiber per thread, started at thread 0; returns when all have finished.
inline void run_block(unsigned threads, const std::function<void()>& body) {
  Block b;
  b.body = body;
  b.fibers.resize(threads);
  active() = &b;
  for (unsigned t = 0; t < threads; ++t) {
    b.stacks.emplace_back(new char[1 << 16]);
    getcontext(&b.fibers[t]);
    b.fibers[t].uc_stack.ss_sp = b.stacks.back().get();
    b.fibers[t].uc_stack.ss_size = 1 << 16;
    b.fibers[t].uc_link = &b.main;
    makecontext(&b.fibers[t], fiber_entry, 0);
  }
  swapcontext(&b.main, &b.fibers[0]);
  active() = nullptr;
}

// Runs `body` as blockDim threads of every block of the grid, one block at a time.
inline void launch(unsigned blocks, unsigned threads, const std::function<void()>& body) {
  grid_dim() = {blocks, 1, 1};
  block_dim() = {threads, 1, 1};
  for (unsigned g = 0; g < blocks; ++g) {
    block_idx() = {g, 0, 0};
    run_block(threads, body);
  }
}

}  // namespace emu

#define threadIdx (::emu::thread_idx())
#define blockIdx (::emu::block_idx())
#define blockDim (::emu::block_dim())
#define gridDim (::emu::grid_dim())
inline void __syncthreads() { ::emu::next_fiber(); }
