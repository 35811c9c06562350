// test_wavefront_engine.cu — the generic engine on its own, with two toy adapters checked
// against plain CPU loops:
//   * ReachGrid (a cell per thread through the engine's kernel): rows × (C + 1) cells on
//     anti-diagonals, cell (i, c) reads (i − 1, c) and (i − 1, c − r_i) up to R diagonals back
//     (a window of R + 2 fixed slots), read-only inputs through every path, one decision bit
//     per cell;
//   * Layers (its own step kernel): steps of different sizes in the two-ended ring, one
//     decision byte per cell, pushed in pieces smaller than a chunk.
// Both with the decisions offloaded through a host ring of 2 slots (wrap-around on every
// chunk) and kept on the device, and the per-step series.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "device_buffer.cuh"
#include "require_device.hpp"
#include "dpgpu/context.hpp"
#include "wavefront_engine.cuh"

namespace dpgpu::wavefront {
namespace {

constexpr std::uint32_t kMod = 1000003;
constexpr int kOffset = 32;  // row −1 at index 31 of every slot

struct ReachRecurrence {
  using Cell = std::uint32_t;
  struct Inputs {
    ReadOnly<std::int32_t> reach;
    ReadOnly<std::uint32_t> add;
  };
  static constexpr bool kBitsByCell = true;
  __device__ __forceinline__ static int slot_index(int i) { return i + kOffset; }
  template <ReadPath P>
  __device__ __forceinline__ static std::uint32_t value(const Inputs& in,
                                                        const StepRing<std::uint32_t>& r, int i,
                                                        bool& decision) {
    const int c = r.step - i, reach = fetch<P>(in.reach, i);
    const std::uint32_t a = fetch<P>(in.add, i), up = r.back1[i + kOffset - 1];
    std::uint32_t v = (3 * up + a) % kMod;
    decision = false;
    if (c >= reach) {
      v = (v + r.back(1 + reach)[i + kOffset - 1]) % kMod;
      decision = v & 1u;
    }
    return v;
  }
};

// T[i][c] = (3·T[i−1][c] + a_i + (c >= r_i ? T[i−1][c − r_i] : 0)) mod kMod; decision: c >= r_i and odd.
struct ReachGrid {
  using Cell = std::uint32_t;
  using Recurrence = ReachRecurrence;
  static constexpr bool kCellKernel = true;
  static constexpr AdapterHooks kHooks{};

  int rows, capacity, max_reach, threads, chunk_steps;
  std::vector<std::int32_t> reach;
  std::vector<std::uint32_t> add;
  ReadOnly<std::int32_t> d_reach;
  ReadOnly<std::uint32_t> d_add;
  std::uint32_t answer = 0;
  std::vector<std::uint8_t> bits;  // copied from the store
  bool reconstructed = false;

  int padded_rows() const { return (rows + threads - 1) / threads * threads; }
  std::int64_t wpd() const { return padded_rows() / 32; }
  std::int64_t steps() const { return rows + capacity; }
  RingShape ring() const {
    return RingShape{max_reach + 2, std::uint64_t(padded_rows() + kOffset), 0, true};
  }
  void upload(InputStore& s, std::uint32_t*, cudaStream_t) {
    std::vector<std::int32_t> r(padded_rows(), 0);
    std::vector<std::uint32_t> a(padded_rows(), 0);
    std::copy(reach.begin(), reach.end(), r.begin());
    std::copy(add.begin(), add.end(), a.begin());
    d_reach = s.add(r.data(), r.size(), "reach");
    d_add = s.add(a.data(), a.size(), "add");
  }
  template <ReadPath P>
  Recurrence::Inputs inputs() const {
    return {d_reach, d_add};
  }
  CellRange cells(std::int64_t d) const {
    const std::int64_t lo = std::max<std::int64_t>(0, d - capacity),
                       hi = std::min<std::int64_t>(rows - 1, d);
    return {lo / threads * threads, hi / threads - lo / threads + 1};
  }
  int block() const { return threads; }
  DecisionShape decisions() const {
    const std::uint64_t chunk = std::uint64_t(chunk_steps) * wpd() * 4;
    return {chunk_steps, chunk, 2 * chunk, true};
  }
  std::uint64_t decision_offset(std::int64_t d) const { return std::uint64_t(d) * wpd() * 4; }
  template <class Store>
  void copy_out(const std::uint32_t* last, Store* store, cudaStream_t stream) {
    CUDA_CHECK(
        cudaMemcpyAsync(&answer, last + (rows - 1) + kOffset, 4, cudaMemcpyDeviceToHost, stream));
    if (store) store->copy_to_host(stream);
  }
  template <class Store>
  void reconstruct(const Store& store) {
    bits.assign(store.host(), store.host() + store.total_bytes());
    reconstructed = true;
  }
};

struct CpuGrid {
  std::vector<std::vector<std::uint32_t>> t;
  std::vector<std::vector<bool>> decision;
};
CpuGrid cpu_grid(const ReachGrid& g) {
  CpuGrid out;
  out.t.assign(g.rows, std::vector<std::uint32_t>(g.capacity + 1));
  out.decision.assign(g.rows, std::vector<bool>(g.capacity + 1));
  for (int i = 0; i < g.rows; ++i)
    for (int c = 0; c <= g.capacity; ++c) {
      const std::uint32_t up = i ? out.t[i - 1][c] : 0;
      std::uint32_t v = (3 * up + g.add[i]) % kMod;
      if (c >= g.reach[i]) {
        v = (v + (i ? out.t[i - 1][c - g.reach[i]] : 0)) % kMod;
        out.decision[i][c] = v & 1u;
      }
      out.t[i][c] = v;
    }
  return out;
}

ReachGrid make_grid(std::uint64_t seed, int rows, int capacity, int max_reach, int block,
                    int chunk_steps) {
  ReachGrid g{rows, capacity, max_reach, block, chunk_steps, {}, {}, {}, {}};
  std::mt19937_64 rng(seed);
  for (int i = 0; i < rows; ++i) {
    g.reach.push_back(int(rng() % std::uint64_t(max_reach + 1)));
    g.add.push_back(std::uint32_t(rng() % kMod));
  }
  return g;
}

Context gpu_context() {
  return Context(Backend::Gpu, std::chrono::steady_clock::now() + std::chrono::hours(1));
}

void expect_grid(ReachGrid& g, const EngineOptions& o, const std::string& what) {
  Context ctx = gpu_context();
  ctx.begin();
  run_wavefront(g, o, ctx);
  ctx.end();
  const CpuGrid ref = cpu_grid(g);
  EXPECT_EQ(g.answer, ref.t[g.rows - 1][g.capacity]) << what;
  const auto& k = ctx.counters();
  EXPECT_EQ(k.at("diagonals"), double(g.steps())) << what;
  EXPECT_EQ(k.at("kernel_launches"), double(g.steps())) << what;
  EXPECT_GT(k.at("peak_device_bytes"), 0) << what;
  ASSERT_TRUE(k.count("offload_stream_wait_s")) << what;
  EXPECT_GE(k.at("offload_stream_wait_s"), 0) << what;
  if (!o.decisions) return;
  ASSERT_TRUE(g.reconstructed) << what;
  const std::uint64_t total = std::uint64_t(g.steps()) * g.wpd() * 4;
  ASSERT_EQ(g.bits.size(), total) << what;
  if (o.offload) {
    EXPECT_EQ(k.at("bytes_offloaded"), double(total)) << what;
    const std::int64_t chunks = (g.steps() + g.chunk_steps - 1) / g.chunk_steps;
    EXPECT_GE(k.at("offload_chunks"), double(chunks)) << what;
    EXPECT_EQ(k.at("offload_stream_waits"), double(std::max<std::int64_t>(0, chunks - 2))) << what;
  } else {
    EXPECT_EQ(k.at("bytes_offloaded"), 0) << what;
  }
  const auto* words = reinterpret_cast<const std::uint32_t*>(g.bits.data());
  int wrong = 0;
  for (int i = 0; i < g.rows && wrong < 5; ++i)
    for (int c = 0; c <= g.capacity && wrong < 5; ++c) {
      const bool bit = (words[std::int64_t(i + c) * g.wpd() + i / 32] >> (i % 32)) & 1u;
      if (bit != ref.decision[i][c]) {
        ADD_FAILURE() << what << ": decision bit of cell (" << i << ", " << c << ") is " << bit;
        ++wrong;
      }
    }
}

TEST(WavefrontEngine, ReachGridMatchesCpuOnEveryPathWithAndWithoutOffload) {
  REQUIRE_DEVICE();
  std::uint64_t seed = 11;
  for (ReadPath p : {ReadPath::Ldg, ReadPath::Plain, ReadPath::Texture})
    for (int decisions = 0; decisions < 2; ++decisions)
      for (int offload = 0; offload < 2; ++offload) {
        if (!decisions && offload) continue;
        const std::vector<std::tuple<int, int, int, int, int>> shapes = {
            {1, 0, 0, 32, 1}, {70, 45, 9, 32, 3}, {200, 300, 40, 64, 7}, {33, 500, 120, 32, 1}};
        for (auto [rows, capacity, reach, block, chunk] : shapes) {
          ReachGrid g = make_grid(++seed, rows, capacity, reach, block, chunk);
          EngineOptions o;
          o.readonly = p;
          o.decisions = decisions;
          o.offload = offload;
          o.offload_slots = 2;  // the host ring wraps around on every chunk
          o.deadline_every = 5;
          expect_grid(g, o,
                      "rows=" + std::to_string(rows) + " C=" + std::to_string(capacity) +
                          " reach<=" + std::to_string(reach) + " path=" + std::to_string(int(p)) +
                          " decisions=" + std::to_string(decisions) +
                          " offload=" + std::to_string(offload));
        }
      }
}

// ------------------------------------------------------------------------- layers

__global__ void toy_layer(const std::uint32_t* prev, std::uint32_t* cur, std::uint8_t* bytes,
                          int prev_size, int size, int step) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= size) return;
  const std::uint32_t v = prev[x % prev_size] * 7u + std::uint32_t(x) + std::uint32_t(step);
  cur[x] = v;
  if (bytes) bytes[x] = std::uint8_t(v);
}

// Layer s has sizes[s + 1] cells (layer −1 uploaded); L_s[x] = 7·L_{s−1}[x mod |L_{s−1}|] + x + s.
struct Layers {
  using Cell = std::uint32_t;
  static constexpr AdapterHooks kHooks{.step_cells = true};
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> first, last;
  std::vector<std::uint8_t> bytes;

  std::int64_t steps() const { return std::int64_t(sizes.size()) - 1; }
  std::uint64_t step_cells(std::int64_t s) const { return sizes[std::size_t(s + 1)]; }
  std::uint64_t two_adjacent() const {
    std::uint64_t m = 0;
    for (std::size_t i = 1; i < sizes.size(); ++i) m = std::max(m, sizes[i] + sizes[i - 1]);
    return m;
  }
  RingShape ring() const { return RingShape{2, 0, two_adjacent(), false}; }
  void upload(InputStore&, std::uint32_t* before, cudaStream_t stream) {
    CUDA_CHECK(
        cudaMemcpyAsync(before, first.data(), first.size() * 4, cudaMemcpyHostToDevice, stream));
  }
  template <ReadPath P, bool kBits>
  void launch(const StepArgs<Cell>& a) const {
    const int size = int(step_cells(a.step)), prev = int(step_cells(a.step - 1));
    toy_layer<<<(size + 127) / 128, 128, 0, a.stream>>>(
        a.ring.back1, a.ring.cur, kBits ? a.decisions : nullptr, prev, size, int(a.step));
    CUDA_CHECK_LAUNCH();
  }
  DecisionShape decisions() const {
    std::uint64_t m = 0;
    for (std::size_t i = 1; i < sizes.size(); ++i) m = std::max(m, sizes[i]);
    std::uint64_t staging = 0;  // adjacent steps (layers 0..), not counting layer −1
    for (std::size_t i = 2; i < sizes.size(); ++i)
      staging = std::max(staging, sizes[i] + sizes[i - 1]);
    return {1, m, std::max(staging, m), false};
  }
  std::uint64_t decision_offset(std::int64_t s) const {
    std::uint64_t o = 0;
    for (std::int64_t j = 0; j < s; ++j) o += step_cells(j);
    return o;
  }
  template <class Store>
  void copy_out(const std::uint32_t* l, Store* store, cudaStream_t stream) {
    last.resize(step_cells(steps() - 1));
    CUDA_CHECK(cudaMemcpyAsync(last.data(), l, last.size() * 4, cudaMemcpyDeviceToHost, stream));
    if (store) store->copy_to_host(stream);
  }
  template <class Store>
  void reconstruct(const Store& store) {
    bytes.assign(store.host(), store.host() + store.total_bytes());
  }
};

// What run_wavefront() static_asserts, checked here without running: a misspelt hook named in
// kHooks, and a hook defined but not named, are errors rather than silently skipped steps.
struct MisspeltReport : Layers {
  static constexpr AdapterHooks kHooks{.report = true, .step_cells = true};
  void reprot(Context&) const {}
};
struct UnnamedReport : Layers {
  void report(Context&) const {}
};
static_assert(WavefrontAdapter<Layers> && WavefrontAdapter<ReachGrid>);
static_assert(LaunchStepAdapter<Layers, ReadPath::Ldg, true> &&
              CellStepAdapter<ReachGrid, ReadPath::Texture>);
static_assert(HooksAsDeclared<Layers, ReadPath::Ldg, true> &&
              HooksAsDeclared<ReachGrid, ReadPath::Plain, false>);
static_assert(!HooksAsDeclared<MisspeltReport, ReadPath::Ldg, true>);
static_assert(!HooksAsDeclared<UnnamedReport, ReadPath::Ldg, true>);
static_assert(!CellStepAdapter<Layers, ReadPath::Ldg>);

TEST(WavefrontEngine, LayersOfDifferentSizesInTheTwoEndedRing) {
  REQUIRE_DEVICE();
  for (int offload = 0; offload < 2; ++offload)
    for (std::uint64_t slot_bytes : {std::uint64_t(64), std::uint64_t(0)}) {
      Layers t;
      t.sizes = {5, 300, 1000, 70, 2000, 10, 900, 901};
      for (std::uint32_t i = 0; i < 5; ++i) t.first.push_back(i + 1);
      EngineOptions o;
      o.decisions = true;
      o.offload = offload;
      o.offload_slots = 2;
      o.offload_slot_bytes = slot_bytes;  // 64: several pushes per chunk
      o.deadline_every = 1;
      o.host_one_step_ahead = true;
      Context ctx = gpu_context();
      ctx.want_series();
      ctx.begin();
      run_wavefront(t, o, ctx);
      ctx.end();
      const std::string what =
          "offload=" + std::to_string(offload) + " slot_bytes=" + std::to_string(slot_bytes);
      std::vector<std::uint32_t> prev = t.first;
      std::vector<std::uint8_t> bytes;
      for (std::int64_t s = 0; s < t.steps(); ++s) {
        std::vector<std::uint32_t> cur(t.step_cells(s));
        for (std::size_t x = 0; x < cur.size(); ++x) {
          cur[x] = prev[x % prev.size()] * 7u + std::uint32_t(x) + std::uint32_t(s);
          bytes.push_back(std::uint8_t(cur[x]));
        }
        prev = cur;
      }
      EXPECT_EQ(t.last, prev) << what;
      EXPECT_EQ(t.bytes, bytes) << what;
      const auto& k = ctx.counters();
      EXPECT_EQ(k.at("bytes_offloaded"), offload ? double(bytes.size()) : 0.0) << what;
      // The series: one time per step, in step order.
      const auto& series = ctx.series_points();
      ASSERT_EQ(series.size(), std::size_t(t.steps())) << what;
      for (std::size_t s = 0; s < series.size(); ++s) {
        EXPECT_EQ(series[s].name, "diagonal_time_s");
        EXPECT_EQ(series[s].index, s);
        EXPECT_GT(series[s].value, 0.0);
      }
    }
}

// Beyond kSeriesCap steps the series is sampled evenly: kSeriesCap points, first and last
// steps' neighbourhoods included, indices increasing.
TEST(WavefrontEngine, SeriesIsSampledEvenlyBeyondTheCap) {
  REQUIRE_DEVICE();
  ReachGrid g = make_grid(5, 40, 3 * int(kSeriesCap), 3, 32, 1);
  Context ctx = gpu_context();
  ctx.want_series();
  ctx.begin();
  run_wavefront(g, EngineOptions{}, ctx);
  ctx.end();
  EXPECT_EQ(g.answer, cpu_grid(g).t[g.rows - 1][g.capacity]);
  const auto& series = ctx.series_points();
  ASSERT_EQ(series.size(), kSeriesCap);
  EXPECT_EQ(series.front().index, 0u);
  EXPECT_GE(series.back().index, std::size_t(g.steps()) - std::size_t(g.steps()) / kSeriesCap - 1);
  for (std::size_t i = 1; i < series.size(); ++i) EXPECT_GT(series[i].index, series[i - 1].index);
}

// Without series_wanted() nothing is recorded.
TEST(WavefrontEngine, NoSeriesUnlessWanted) {
  REQUIRE_DEVICE();
  ReachGrid g = make_grid(6, 10, 20, 2, 32, 1);
  Context ctx = gpu_context();
  ctx.begin();
  run_wavefront(g, EngineOptions{}, ctx);
  ctx.end();
  EXPECT_TRUE(ctx.series_points().empty());
}

}  // namespace
}  // namespace dpgpu::wavefront
