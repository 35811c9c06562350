// cpu_warp_emulation.hpp — just enough CUDA to run warp-level kernels, unchanged, on the
// CPU: each of a warp's 32 lanes is a fiber (ucontext), and the lanes run in turn until the
// next warp shuffle, where every lane must arrive before any lane reads. Lanes therefore see
// each other only through shuffles (as in the kernels' design, which never lets two lanes
// share an address), and a shuffle that not all lanes reach stops the test with a message.
//
// For the kernels-on-CPU tests (wavefront/test_lcs_kernels_on_cpu.cpp,
// bitparallel/test_bitlcs_kernel_on_cpu.cpp; include it first, link dpgpu_gpu_common): it
// checks the kernels' logic (indices, skew, chunks, boundaries, padding) on machines without a GPU. It says nothing about timing, memory
// ordering between warps, or the compiler; the GPU test does that.
#pragma once
#ifndef DPGPU_WAVEFRONT_CPU_EMULATION
#define DPGPU_WAVEFRONT_CPU_EMULATION 1
#endif
#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>

#define __global__
#define __device__
#define __forceinline__ inline

struct uint2 {
  unsigned x, y;
};
struct int4 {
  int x, y, z, w;
};
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }
template <class T>
T __ldg(const T* p) {
  return *p;
}

namespace dpgpu_emu {

struct Dim {
  unsigned x = 0, y = 0, z = 0;
};

struct Lane {
  ucontext_t ctx{};
  std::unique_ptr<char[]> stack;
  Dim thread_idx;
  bool done = false;
  unsigned shuffles = 0;
};

struct Warp {
  Lane lanes[32];
  ucontext_t main{};
  int current = 0;
  int done_count = 0;
  int slots[2][32] = {};
  Dim block_idx, block_dim;
  std::function<void()> body;
};

inline Warp*& active_warp() {
  static Warp* w = nullptr;
  return w;
}

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "cpu warp emulation: %s\n", what);
  std::abort();
}

// Runs the next lane that has not finished (round robin); returns when this lane's turn
// comes again.
inline void yield_lane() {
  Warp& w = *active_warp();
  const int from = w.current;
  for (int k = 1; k < 32; ++k) {
    const int to = (from + k) % 32;
    if (!w.lanes[to].done) {
      w.current = to;
      swapcontext(&w.lanes[from].ctx, &w.lanes[to].ctx);
      w.current = from;
      return;
    }
  }
}

inline void lane_entry() {
  Warp& w = *active_warp();
  w.body();
  Lane& me = w.lanes[w.current];
  me.done = true;
  ++w.done_count;
  for (int k = 1; k < 32; ++k) {
    const int to = (w.current + k) % 32;
    if (!w.lanes[to].done) {
      w.current = to;
      setcontext(&w.lanes[to].ctx);
    }
  }
  setcontext(&w.main);
}

// Full-warp shuffle: this lane publishes `v`, waits for all lanes, reads lane `src`'s.
inline int shuffle(int v, int src) {
  Warp& w = *active_warp();
  const int lane = w.current;
  if (w.done_count != 0) fail("shuffle with full mask after some lanes of the warp exited");
  const unsigned k = w.lanes[lane].shuffles++;
  w.slots[k & 1][lane] = int(v);
  yield_lane();
  for (const Lane& l : w.lanes)
    if (l.shuffles != k + 1 && l.shuffles != k + 2)
      fail("lanes of one warp disagree on the sequence of shuffles");
  return w.slots[k & 1][src];
}

// Runs `body` as the 32 lanes of warp `warp_in_block` of block `block` (block_dim threads).
inline void run_warp(unsigned block, unsigned block_dim, unsigned warp_in_block,
                     std::function<void()> body) {
  constexpr std::size_t kStack = 256 * 1024;
  static Warp w;  // reused; one warp at a time
  w.current = 0;
  w.done_count = 0;
  w.block_idx = {block, 0, 0};
  w.block_dim = {block_dim, 1, 1};
  w.body = std::move(body);
  active_warp() = &w;
  for (int l = 0; l < 32; ++l) {
    Lane& lane = w.lanes[l];
    if (!lane.stack) lane.stack.reset(new char[kStack]);
    lane.done = false;
    lane.shuffles = 0;
    lane.thread_idx = {warp_in_block * 32 + unsigned(l), 0, 0};
    getcontext(&lane.ctx);
    lane.ctx.uc_stack.ss_sp = lane.stack.get();
    lane.ctx.uc_stack.ss_size = kStack;
    lane.ctx.uc_link = &w.main;
    makecontext(&lane.ctx, lane_entry, 0);
  }
  swapcontext(&w.main, &w.lanes[0].ctx);
  if (w.done_count != 32) fail("a warp ended with lanes still running");
  active_warp() = nullptr;
}

// kernel<<<blocks, block_dim>>>: every warp of every block, one after another.
inline void launch(unsigned blocks, unsigned block_dim, const std::function<void()>& kernel_call) {
  if (block_dim % 32 != 0) fail("block size not a multiple of 32");
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned wi = 0; wi < block_dim / 32; ++wi) run_warp(b, block_dim, wi, kernel_call);
}

inline const Dim& thread_idx() { return active_warp()->lanes[active_warp()->current].thread_idx; }

}  // namespace dpgpu_emu

#define threadIdx (::dpgpu_emu::thread_idx())
#define blockIdx (::dpgpu_emu::active_warp()->block_idx)
#define blockDim (::dpgpu_emu::active_warp()->block_dim)

// __ballot_sync over the whole warp: every lane publishes its predicate, then each reads all.
inline unsigned __ballot_sync(unsigned mask, bool pred) {
  if (mask != 0xffffffffu) dpgpu_emu::fail("only full-warp ballots are emulated");
  unsigned word = 0;
  for (int src = 0; src < 32; ++src) {
    // One shuffle per source lane keeps the lanes' sequences of meetings identical.
    if (dpgpu_emu::shuffle(pred ? 1 : 0, src)) word |= 1u << src;
  }
  return word;
}

inline int __shfl_sync(unsigned mask, int v, int src) {
  if (mask != 0xffffffffu) dpgpu_emu::fail("only full-warp shuffles are emulated");
  return dpgpu_emu::shuffle(v, src & 31);
}
inline int __shfl_up_sync(unsigned mask, int v, unsigned delta) {
  if (mask != 0xffffffffu) dpgpu_emu::fail("only full-warp shuffles are emulated");
  const int lane = dpgpu_emu::active_warp()->current;
  const int src = lane >= int(delta) ? lane - int(delta) : lane;
  return dpgpu_emu::shuffle(v, src);
}

// Stand-in for engine/readonly.cuh (which needs the CUDA runtime): every read path reads the
// array; on the CPU there is no cache or texture unit to tell apart.
#include <cstdint>
namespace dpgpu::wavefront {
enum class ReadPath { Plain, Ldg, Texture };
template <class T>
struct ReadOnly {
  const T* ptr = nullptr;
  unsigned long long tex = 0;
};
template <ReadPath P, class T>
T fetch(const ReadOnly<T>& a, int i) {
  return a.ptr[i];
}
}  // namespace dpgpu::wavefront
