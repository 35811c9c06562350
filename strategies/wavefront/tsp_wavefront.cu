// tsp_wavefront.cu — host driver of gpu.wavefront for the TSP: Held-Karp layer after layer
// (each layer all subsets of one size, the TSP's "diagonal"), only two cost layers on the
// device, each finished layer's argmins streamed to the host through HostOffload, the tour
// rebuilt on the host. Kernel: tsp_layer_kernel.cuh; layout: tsp_config.hpp.
#include "tsp_wavefront.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "host_offload.cuh"
#include "readonly.cuh"
#include "tsp/subset_rank.hpp"
#include "tsp_layer_kernel.cuh"

namespace dpgpu::wavefront {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;
namespace K = tsp_kernel;

// Declared after a solve's buffers, so destroyed before them: when the solve throws with work
// still queued, the stream drains before any buffer it uses is freed.
struct DrainOnExit {
  cudaStream_t stream;
  ~DrainOnExit() { cudaStreamSynchronize(stream); }
};

struct OwnedStream {
  cudaStream_t s = nullptr;
  OwnedStream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~OwnedStream() {
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
};

struct OwnedEvents {
  std::vector<cudaEvent_t> e;
  OwnedEvents(std::size_t count, unsigned flags) : e(count, nullptr) {
    for (auto& ev : e) CUDA_CHECK(cudaEventCreateWithFlags(&ev, flags));
  }
  ~OwnedEvents() {
    for (auto ev : e) cudaEventDestroy(ev);
  }
};

std::uint64_t host_bytes_available() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return std::numeric_limits<std::uint64_t>::max();
}

std::string gib(std::uint64_t b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / double(1ull << 30));
  return buf;
}

void refuse_if_too_large(int n, const TspBytes& need) {
  const std::uint64_t host = host_bytes_available();
  if (need.host > host)
    throw OutOfMemory("gpu.wavefront: n = " + std::to_string(n) + " needs " + std::to_string(need.host) + " bytes (" +
                      gib(need.host) + ") of host memory (argmins " + std::to_string(need.argmins) +
                      " B; reconstruct: false needs none), " + std::to_string(host) + " bytes (" + gib(host) +
                      ") available");
  std::size_t free = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (need.device > free)
    throw OutOfMemory("gpu.wavefront: n = " + std::to_string(n) + " needs " + std::to_string(need.device) +
                      " bytes (" + gib(need.device) + ") of device memory, " + std::to_string(free) + " bytes (" +
                      gib(free) + ") free of " + gib(total));
}

template <class Cost, ReadPath P, bool kStaged, bool kArgmin>
void launch_layer(const Cost* prev, Cost* cur, std::uint8_t* argmin, const ReadOnly<std::uint32_t>& into,
                  const std::uint32_t* binom, int m, int k, int block, int grid_cap, cudaStream_t stream) {
  const auto kernel = K::held_karp_layer<Cost, P, kStaged, kArgmin>;
  const std::size_t shared = K::shared_bytes<Cost>(m, kStaged);
  const std::uint64_t count = tsp_layer_subsets(m, k);
  const std::uint64_t blocks = std::min<std::uint64_t>((count + block - 1) / block, std::uint64_t(grid_cap));
  kernel<<<static_cast<unsigned>(blocks), block, shared, stream>>>(prev, cur, argmin, into, binom, m, k,
                                                                   std::uint32_t(count),
                                                                   std::uint32_t(tsp_layer_subsets(m, k - 1)));
  CUDA_CHECK_LAUNCH();
}

using LaunchFn = void (*)(const void*, void*, std::uint8_t*, const ReadOnly<std::uint32_t>&, const std::uint32_t*,
                          int, int, int, int, cudaStream_t);

template <class Cost, ReadPath P, bool kStaged, bool kArgmin>
void launch_erased(const void* prev, void* cur, std::uint8_t* argmin, const ReadOnly<std::uint32_t>& into,
                   const std::uint32_t* binom, int m, int k, int block, int grid_cap, cudaStream_t stream) {
  launch_layer<Cost, P, kStaged, kArgmin>(static_cast<const Cost*>(prev), static_cast<Cost*>(cur), argmin, into,
                                          binom, m, k, block, grid_cap, stream);
}

template <class Cost, ReadPath P, bool kStaged>
LaunchFn pick_argmin(bool argmin) {
  return argmin ? launch_erased<Cost, P, kStaged, true> : launch_erased<Cost, P, kStaged, false>;
}
template <class Cost, ReadPath P>
LaunchFn pick_staged(bool staged, bool argmin) {
  return staged ? pick_argmin<Cost, P, true>(argmin) : pick_argmin<Cost, P, false>(argmin);
}
template <class Cost>
LaunchFn pick(ReadPath path, bool staged, bool argmin) {
  switch (path) {
    case ReadPath::Plain: return pick_staged<Cost, ReadPath::Plain>(staged, argmin);
    case ReadPath::Ldg: return pick_staged<Cost, ReadPath::Ldg>(staged, argmin);
    default: return pick_staged<Cost, ReadPath::Texture>(staged, argmin);
  }
}

// Resident blocks per SM of the chosen kernel instance, for the grid-stride cap.
template <class Cost>
int grid_cap(ReadPath path, bool staged, bool argmin, int block, int m, int waves) {
  const void* fn = nullptr;
  auto take = [&](auto kernel) { fn = reinterpret_cast<const void*>(kernel); };
  auto by_path = [&](auto st, auto am) {
    constexpr bool S = decltype(st)::value, A = decltype(am)::value;
    switch (path) {
      case ReadPath::Plain: take(K::held_karp_layer<Cost, ReadPath::Plain, S, A>); break;
      case ReadPath::Ldg: take(K::held_karp_layer<Cost, ReadPath::Ldg, S, A>); break;
      default: take(K::held_karp_layer<Cost, ReadPath::Texture, S, A>); break;
    }
  };
  using T = std::true_type;
  using F = std::false_type;
  if (staged) argmin ? by_path(T{}, T{}) : by_path(T{}, F{});
  else argmin ? by_path(F{}, T{}) : by_path(F{}, F{});
  int device = 0, sms = 0, per_sm = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, block, K::shared_bytes<Cost>(m, staged)));
  if (per_sm == 0) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
    throw InputError("gpu.wavefront: parameter 'block' = " + std::to_string(block) +
                     " cannot be launched by the Held-Karp layer kernel (" + std::to_string(attr.numRegs) +
                     " registers per thread, at most " + std::to_string(attr.maxThreadsPerBlock) + " threads per block)");
  }
  return std::max(1, sms * per_sm * waves);
}

template <class Cost>
TspWavefrontResult run(const tsp::Instance& x, const TspWavefrontConfig& cfg, Context& ctx) {
  const int n = x.n, m = n - 1;
  const auto stream = static_cast<cudaStream_t>(ctx.stream());
  const ReadPath path = read_path_from(cfg.readonly);
  const bool staged = cfg.distances == TspDistances::Shared;
  const bool keep_argmins = cfg.reconstruct;
  const bool offload = keep_argmins && cfg.offload;
  const TspBytes need = tsp_bytes(n, int(sizeof(Cost)), cfg);
  refuse_if_too_large(n, need);

  constexpr int kWords = int(sizeof(Cost) / 4);
  const std::uint64_t two_layers = tsp_two_layer_cells(m);
  const std::uint64_t largest = tsp_largest_layer_cells(m);
  const std::uint64_t argmin_total = keep_argmins ? tsp_argmin_bytes(m) : 0;
  // Cost layers alternate ends of one buffer: even k from the front, odd k from the back, so
  // layers k-1 and k never overlap. The argmin buffer (offload) does the same.
  auto layer_at = [](std::uint64_t capacity, std::uint64_t cells, int k) { return k % 2 == 0 ? 0 : capacity - cells; };

  DeviceBuffer<Cost> d_costs;
  DeviceBuffer<std::uint32_t> d_into, d_binom;
  DeviceBuffer<std::uint8_t> d_argmin;
  PinnedBuffer<std::uint32_t> h_into, h_binom;
  PinnedBuffer<Cost> h_first, h_last;
  std::unique_ptr<std::uint8_t[]> argmins;  // offload: every layer's, for the tour (not zeroed: all written)
  std::optional<HostOffload> ring;
  std::optional<OwnedStream> gate;   // captures "layer k copied" events (HostOffload reuses its own)
  OwnedEvents layer_copied(std::size_t(m) + 1, cudaEventDisableTiming);
  OwnedEvents wait_marks(2 * (std::size_t(m) + 1), cudaEventDefault);
  OwnedEvents layer_done(std::size_t(m) + 1, cudaEventDisableTiming);
  std::optional<ReadOnlyBinding<std::uint32_t>> into;  // texture object (if any) over d_into
  const DrainOnExit drain{stream};
  {
    auto phase = ctx.phase("alloc");
    d_costs = DeviceBuffer<Cost>(two_layers, &ctx);
    d_into = DeviceBuffer<std::uint32_t>(std::size_t(m) * m * kWords, &ctx);
    d_binom = DeviceBuffer<std::uint32_t>(K::kBinomRows * K::kBinomRows, &ctx);
    h_into = PinnedBuffer<std::uint32_t>(d_into.size());
    h_binom = PinnedBuffer<std::uint32_t>(d_binom.size());
    h_first = PinnedBuffer<Cost>(std::size_t(m));
    h_last = PinnedBuffer<Cost>(std::size_t(m));
    if (keep_argmins) {
      d_argmin = DeviceBuffer<std::uint8_t>(offload ? two_layers : argmin_total, &ctx);
    }
    if (offload) {
      try {
        argmins.reset(new std::uint8_t[argmin_total]);
      } catch (const std::bad_alloc&) {
        throw OutOfMemory("gpu.wavefront: could not allocate " + std::to_string(argmin_total) +
                          " bytes of host memory for the argmins (reconstruct: false needs none)");
      }
      const std::size_t slot = std::size_t(std::min<std::uint64_t>(std::uint64_t(cfg.offload_slot_bytes), largest));
      ring.emplace(std::size_t(cfg.offload_slots), slot, argmins.get());
      gate.emplace();
    }
  }
  {
    auto phase = ctx.phase("h2d");
    for (int j = 0; j < m; ++j)
      for (int c = 0; c < m; ++c) {
        const std::uint64_t v = static_cast<std::uint64_t>(x.arc(c + 1, j + 1));  // arc c → j, others' numbering
        const std::size_t e = std::size_t(j) * m + c;
        if constexpr (kWords == 1) {
          h_into[e] = static_cast<std::uint32_t>(v);
        } else {
          h_into[2 * e] = static_cast<std::uint32_t>(v);
          h_into[2 * e + 1] = static_cast<std::uint32_t>(v >> 32);
        }
      }
    for (int c = 0; c < K::kBinomRows; ++c)
      for (int i = 0; i < K::kBinomRows; ++i)
        h_binom[std::size_t(c) * K::kBinomRows + i] = static_cast<std::uint32_t>(tsp::subsets::kBinomials(c, i));
    for (int j = 0; j < m; ++j) h_first[j] = static_cast<Cost>(x.arc(0, j + 1));  // layer 1: rank({j}) = j
    CUDA_CHECK(cudaMemcpyAsync(d_into.get(), h_into.get(), d_into.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_binom.get(), h_binom.get(), d_binom.bytes(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(d_costs.get() + layer_at(two_layers, m, 1), h_first.get(), m * sizeof(Cost),
                               cudaMemcpyHostToDevice, stream));
  }
  into.emplace(d_into.get(), d_into.size(), path);
  const LaunchFn launch = pick<Cost>(path, staged, keep_argmins);
  const int cap = grid_cap<Cost>(path, staged, keep_argmins, cfg.block, m, cfg.waves);
  std::vector<bool> waited(std::size_t(m) + 1, false);
  {
    auto phase = ctx.phase("compute");
    for (int k = 2; k <= m; ++k) {
      ctx.check_deadline();
      const std::uint64_t cells = tsp_layer_cells(m, k);
      const Cost* prev = d_costs.get() + layer_at(two_layers, tsp_layer_cells(m, k - 1), k - 1);
      Cost* cur = d_costs.get() + layer_at(two_layers, cells, k);
      std::uint8_t* arg = nullptr;
      if (keep_argmins) arg = d_argmin.get() + (offload ? layer_at(two_layers, cells, k) : tsp_argmin_offset(m, k));
      if (offload && k >= 4) {
        // Layer k's argmins overwrite layer k-2's: the copies of those must have run.
        CUDA_CHECK(cudaEventRecord(wait_marks.e[2 * k], stream));
        CUDA_CHECK(cudaStreamWaitEvent(stream, layer_copied.e[k - 2], 0));
        CUDA_CHECK(cudaEventRecord(wait_marks.e[2 * k + 1], stream));
        waited[k] = true;
      }
      launch(prev, cur, arg, into->view(), d_binom.get(), m, k, cfg.block, cap, stream);
      CUDA_CHECK(cudaEventRecord(layer_done.e[k], stream));
      if (offload) {
        const std::uint64_t slot = std::min<std::uint64_t>(std::uint64_t(cfg.offload_slot_bytes), largest);
        const std::uint64_t dest = tsp_argmin_offset(m, k);
        cudaEvent_t copied = nullptr;
        for (std::uint64_t off = 0; off < cells; off += slot)
          copied = ring->push(arg + off, std::size_t(std::min(slot, cells - off)), std::size_t(dest + off), stream);
        CUDA_CHECK(cudaStreamWaitEvent(gate->s, copied, 0));
        CUDA_CHECK(cudaEventRecord(layer_copied.e[k], gate->s));
      }
      // Keep the host at most one layer ahead of the GPU, so the deadline check above means
      // something (a layer takes milliseconds to seconds; this sync costs microseconds).
      if (k >= 3) CUDA_CHECK(cudaEventSynchronize(layer_done.e[k - 1]));
    }
  }
  {
    auto phase = ctx.phase("d2h");
    // Layer m is the full set (rank 0): position p is city p.
    CUDA_CHECK(cudaMemcpyAsync(h_last.get(), d_costs.get() + layer_at(two_layers, std::uint64_t(m), m),
                               m * sizeof(Cost), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (ring) ring->finish();
  }

  TspWavefrontResult out;
  out.cell_bytes = int(sizeof(Cost));
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  int last = 0;
  for (int p = 0; p < m; ++p) {
    const std::int64_t c = std::int64_t(h_last[p]) + x.arc(p + 1, 0);
    if (c < best) best = c, last = p;
  }
  out.cost = best;
  if (keep_argmins) {
    // The tour needs one argmin per layer: from the host copy (offload), or read one byte at a
    // time where they are (offload false): m tiny copies instead of moving all of them.
    auto phase = ctx.phase("traceback");
    auto argmin_at = [&](std::uint64_t offset) -> int {
      if (offload) return argmins[offset];
      std::uint8_t b = 0;
      CUDA_CHECK(cudaMemcpy(&b, d_argmin.get() + offset, 1, cudaMemcpyDeviceToHost));
      return b;
    };
    out.tour.assign(std::size_t(n), 0);
    std::uint64_t s = (std::uint64_t{1} << m) - 1;
    for (int k = m; k >= 1; --k) {
      out.tour[std::size_t(k)] = last + 1;
      if (k == 1) break;
      const std::uint64_t cell = std::uint64_t(tsp::subsets::position_of(s, last)) * tsp_layer_subsets(m, k) +
                                 tsp::subsets::rank(s);
      const int before = argmin_at(tsp_argmin_offset(m, k) + cell);
      s ^= std::uint64_t{1} << last;
      last = before;
    }
  }

  double compute_wait = 0;
  for (int k = 4; k <= m; ++k)
    if (waited[std::size_t(k)]) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, wait_marks.e[2 * k], wait_marks.e[2 * k + 1]));
      compute_wait += ms / 1e3;
    }
  ctx.set("kernel_launches", double(m - 1));
  ctx.set("diagonals", double(m - 1));
  ctx.set("host_bytes", double(need.host));
  ctx.set("argmin_bytes", double(argmin_total));
  ctx.set("grid_blocks_cap", double(cap));
  if (ring) {
    ring->report(ctx);
    ctx.set("offload_compute_wait_s", compute_wait);
  } else {
    ctx.set("bytes_offloaded", 0);
    ctx.set("offload_compute_wait_s", 0);
  }
  return out;
}

}  // namespace

TspWavefrontResult tsp_wavefront(const tsp::Instance& x, const TspWavefrontConfig& config, Context& ctx) {
  validate(config);
  if (x.n < 1 || x.n > kTspMaxCities)
    throw InputError("gpu.wavefront: the Held-Karp layers hold n <= " + std::to_string(kTspMaxCities) +
                     " cities (32-bit subset masks; n = 34 would need two layers of 155 GB), got n = " +
                     std::to_string(x.n));
  TspWavefrontResult out;
  if (x.n <= 2) {  // no layer to compute: {0} costs 0, {0, 1} costs d01 + d10
    out.cost = x.n == 1 ? 0 : x.arc(0, 1) + x.arc(1, 0);
    if (config.reconstruct) {
      out.tour.resize(std::size_t(x.n));
      for (int i = 0; i < x.n; ++i) out.tour[std::size_t(i)] = i;
    }
    for (const char* c : {"kernel_launches", "diagonals", "host_bytes", "argmin_bytes", "bytes_offloaded",
                          "offload_compute_wait_s"})
      ctx.set(c, 0);
    ctx.set("cell_bytes", 0);
  } else {
    const bool narrow = tsp::cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max();
    out = narrow ? run<std::int32_t>(x, config, ctx) : run<std::int64_t>(x, config, ctx);
    ctx.set("cell_bytes", double(out.cell_bytes));
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return out;
}

}  // namespace dpgpu::wavefront
