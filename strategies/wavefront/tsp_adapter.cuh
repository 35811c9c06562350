// tsp_adapter.cuh — Held-Karp TSP as an engine adapter: the "diagonals" are subset-size layers
// (step s = layer k = s + 2; layer 1 is uploaded as the state before step 0), a layer reads
// only the previous one (window 2, layers of different sizes: the engine's two-ended ring),
// the unit of work is a subset per thread grid-striding over the layer (held_karp_layer in
// tsp_layer_kernel.cuh, its own step kernel: it stages the binomials and distances in shared
// memory per block, which a cell-per-thread recurrence cannot), the read-only inputs are the
// distance matrix (through `readonly`) and the binomials, and reconstruction keeps one argmin
// byte per cell, offloaded layer by layer (or walked back where they are).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_check.cuh"
#include "dpgpu/error.hpp"
#include "tsp/subset_rank.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"
#include "tsp_layer_kernel.cuh"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {

namespace tsp_adapter_detail {

inline std::uint64_t host_bytes_available() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return std::numeric_limits<std::uint64_t>::max();
}

inline std::string gib(std::uint64_t b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / double(1ull << 30));
  return buf;
}

}  // namespace tsp_adapter_detail

template <class Cost>
class TspAdapter {
 public:
  using Cell = Cost;
  static constexpr AdapterHooks kHooks{
      .check_fits = true, .prepare = true, .report = true, .step_cells = true};

  TspAdapter(const tsp::Instance& x, const TspWavefrontConfig& cfg)
      : x_(x),
        cfg_(cfg),
        m_(x.n - 1),
        staged_(cfg.distances == TspDistances::Shared),
        need_(tsp_bytes(x.n, int(sizeof(Cost)), cfg)) {}

  std::int64_t steps() const { return m_ - 1; }  // layers 2 .. m
  RingShape ring() const { return RingShape{2, 0, tsp_two_layer_cells(m_), false}; }
  std::uint64_t step_cells(std::int64_t s) const { return tsp_layer_cells(m_, int(s) + 2); }

  void check_fits(const EngineOptions&) const {
    using namespace tsp_adapter_detail;
    const int n = x_.n;
    const std::uint64_t host = host_bytes_available();
    if (need_.host > host)
      throw OutOfMemory("gpu.wavefront: n = " + std::to_string(n) + " needs " +
                        std::to_string(need_.host) + " bytes (" + gib(need_.host) +
                        ") of host memory (argmins " + std::to_string(need_.argmins) +
                        " B; reconstruct: false needs none), " + std::to_string(host) + " bytes (" +
                        gib(host) + ") available");
    std::size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    if (need_.device > free)
      throw OutOfMemory("gpu.wavefront: n = " + std::to_string(n) + " needs " +
                        std::to_string(need_.device) + " bytes (" + gib(need_.device) +
                        ") of device memory, " + std::to_string(free) + " bytes (" + gib(free) +
                        ") free of " + gib(total));
  }

  // The grid-stride cap: resident blocks per SM of the kernel instance, × SMs × waves.
  template <ReadPath P, bool kBits>
  void prepare() {
    const void* fn =
        staged_ ? reinterpret_cast<const void*>(tsp_kernel::held_karp_layer<Cost, P, true, kBits>)
                : reinterpret_cast<const void*>(tsp_kernel::held_karp_layer<Cost, P, false, kBits>);
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, fn, cfg_.block, tsp_kernel::shared_bytes<Cost>(m_, staged_)));
    if (per_sm == 0) {
      cudaFuncAttributes attr{};
      CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
      throw InputError("gpu.wavefront: parameter 'block' = " + std::to_string(cfg_.block) +
                       " cannot be launched by the Held-Karp layer kernel (" +
                       std::to_string(attr.numRegs) + " registers per thread, at most " +
                       std::to_string(attr.maxThreadsPerBlock) + " threads per block)");
    }
    cap_ = std::max(1, sms * per_sm * cfg_.waves);
  }

  // Distances (arc c → j at j·m + c, others' numbering; two words per int64 cost), the
  // binomials, and layer 1 (rank({j}) = j: cost of 0 → j) as the state before step 0.
  void upload(InputStore& store, Cost* layer1, cudaStream_t stream) {
    constexpr int kWords = int(sizeof(Cost) / 4);
    const int m = m_;
    std::vector<std::uint32_t> into(std::size_t(m) * m * kWords),
        binom(tsp_kernel::kBinomRows * tsp_kernel::kBinomRows);
    for (int j = 0; j < m; ++j)
      for (int c = 0; c < m; ++c) {
        const std::uint64_t v = static_cast<std::uint64_t>(x_.arc(c + 1, j + 1));
        const std::size_t e = std::size_t(j) * m + c;
        if constexpr (kWords == 1) {
          into[e] = static_cast<std::uint32_t>(v);
        } else {
          into[2 * e] = static_cast<std::uint32_t>(v);
          into[2 * e + 1] = static_cast<std::uint32_t>(v >> 32);
        }
      }
    for (int c = 0; c < tsp_kernel::kBinomRows; ++c)
      for (int i = 0; i < tsp_kernel::kBinomRows; ++i)
        binom[std::size_t(c) * tsp_kernel::kBinomRows + i] =
            static_cast<std::uint32_t>(tsp::subsets::kBinomials(c, i));
    into_ = store.add(into.data(), into.size(), "the distance matrix");
    binom_ = store.add_plain(binom.data(), binom.size());
    first_.resize(std::size_t(m));
    for (int j = 0; j < m; ++j) first_[std::size_t(j)] = static_cast<Cost>(x_.arc(0, j + 1));
    CUDA_CHECK(cudaMemcpyAsync(layer1, first_.data(), std::size_t(m) * sizeof(Cost),
                               cudaMemcpyHostToDevice, stream));
  }

  template <ReadPath P, bool kBits>
  void launch(const StepArgs<Cost>& s) const {
    const int k = int(s.step) + 2;
    const std::uint64_t count = tsp_layer_subsets(m_, k);
    const std::uint64_t blocks =
        std::min<std::uint64_t>((count + cfg_.block - 1) / cfg_.block, std::uint64_t(cap_));
    const auto kernel = staged_ ? tsp_kernel::held_karp_layer<Cost, P, true, kBits>
                                : tsp_kernel::held_karp_layer<Cost, P, false, kBits>;
    kernel<<<static_cast<unsigned>(blocks), cfg_.block, tsp_kernel::shared_bytes<Cost>(m_, staged_),
             s.stream>>>(s.ring.back1, s.ring.cur, s.decisions, into_, binom_, m_, k,
                         std::uint32_t(count), std::uint32_t(tsp_layer_subsets(m_, k - 1)));
    CUDA_CHECK_LAUNCH();
  }

  // Argmins: one byte per cell, one chunk per layer; the device stages two adjacent layers.
  DecisionShape decisions() const {
    return {1, tsp_largest_layer_cells(m_), tsp_two_layer_cells(m_), false};
  }
  std::uint64_t decision_offset(std::int64_t s) const { return tsp_argmin_offset(m_, int(s) + 2); }

  // Layer m is the full set (rank 0): position p is city p.
  template <class Store>
  void copy_out(const Cost* last, Store*, cudaStream_t stream) {
    last_.resize(std::size_t(m_));
    CUDA_CHECK(cudaMemcpyAsync(last_.data(), last, std::size_t(m_) * sizeof(Cost),
                               cudaMemcpyDeviceToHost, stream));
  }

  // The tour needs one argmin per layer: from the host copy (offload), or read one byte at a
  // time where they are (offload false): m tiny copies instead of moving all of them.
  template <class Store>
  void reconstruct(const Store& argmins) {
    auto argmin_at = [&](std::uint64_t offset) -> int {
      if (argmins.offloaded()) return argmins.host()[offset];
      std::uint8_t b = 0;
      CUDA_CHECK(cudaMemcpy(&b, argmins.device() + offset, 1, cudaMemcpyDeviceToHost));
      return b;
    };
    int last = best_last();
    tour_.assign(std::size_t(x_.n), 0);
    std::uint64_t s = (std::uint64_t{1} << m_) - 1;
    for (int k = m_; k >= 1; --k) {
      tour_[std::size_t(k)] = last + 1;
      if (k == 1) break;
      const std::uint64_t cell =
          std::uint64_t(tsp::subsets::position_of(s, last)) * tsp_layer_subsets(m_, k) +
          tsp::subsets::rank(s);
      const int before = argmin_at(tsp_argmin_offset(m_, k) + cell);
      s ^= std::uint64_t{1} << last;
      last = before;
    }
  }

  void report(Context& ctx) const {
    ctx.set("host_bytes", double(need_.host));
    ctx.set("argmin_bytes", double(cfg_.reconstruct ? tsp_argmin_bytes(m_) : 0));
    ctx.set("grid_blocks_cap", double(cap_));
    // The engine's offload_stream_wait_s under the name this solver has always reported.
    const auto& c = ctx.counters();
    const auto w = c.find("offload_stream_wait_s");
    ctx.set("offload_compute_wait_s", w == c.end() ? 0.0 : w->second);
  }

  // Cheapest closing: the last city p minimising path(full set, p) + d(p → 0).
  std::int64_t cost() const {
    return std::int64_t(last_[std::size_t(best_last())]) + x_.arc(best_last() + 1, 0);
  }
  std::vector<std::int32_t>& tour() { return tour_; }

 private:
  int best_last() const {
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    int at = 0;
    for (int p = 0; p < m_; ++p) {
      const std::int64_t c = std::int64_t(last_[std::size_t(p)]) + x_.arc(p + 1, 0);
      if (c < best) best = c, at = p;
    }
    return at;
  }

  const tsp::Instance& x_;
  TspWavefrontConfig cfg_;
  int m_;
  bool staged_;
  TspBytes need_;
  int cap_ = 1;
  ReadOnly<std::uint32_t> into_;
  const std::uint32_t* binom_ = nullptr;
  std::vector<Cost> first_, last_;
  std::vector<std::int32_t> tour_;
};

}  // namespace dpgpu::wavefront
