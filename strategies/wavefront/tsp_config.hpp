// tsp_config.hpp — the tuning policy of gpu.wavefront for the TSP (Held-Karp by subset-size
// layers), its checks, and the layer arithmetic the driver, the memory estimate and the tests
// share. Plain C++ (no CUDA), so the schema and estimates work in CPU-only builds too.
//
// Layer k (k = 1 .. m, m = n - 1 cities besides the start city 0) holds, for every k-subset S
// of {0..m-1} (city c of S is city c + 1 of the instance) and every position p of a last
// city in S, the cheapest path 0 → S ending at S's p-th smallest element. Subsets are ranked
// in the combinatorial number system (tsp/subset_rank.hpp), so a layer is dense:
// C(m, k) × k cells, stored position-major ("structure of arrays"): cell (r, p) at
// p·C(m, k) + r. Consecutive threads take consecutive ranks, so their stores are coalesced and
// their reads of the previous layer (rank of S \ {c_p}, position q) fall close together.
// The argmin (predecessor city, one byte) of every cell of layers 2..m is the decision data.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "dpgpu/error.hpp"
#include "tsp/subset_rank.hpp"

namespace dpgpu::wavefront {

enum class TspDistances {
  Shared,    // each block stages the (n-1)² matrix in shared memory (read once via `readonly`)
  ReadOnly,  // every arc read from global memory through the `readonly` path in the inner loop
};

struct TspWavefrontConfig {
  int block = 256;               // threads per block, multiple of 32
  std::string readonly = "ldg";  // texture | ldg | plain
  TspDistances distances = TspDistances::Shared;
  bool offload = true;      // argmins streamed to the host as layers finish
  bool reconstruct = true;  // false: cost only, no argmins, no tour
  int offload_slots = 4;    // pinned staging ring: slots
  std::int64_t offload_slot_bytes =
      8 << 20;    // bytes per slot (capped at the largest layer's argmins)
  int waves = 4;  // resident blocks per SM × this = grid cap (grid-stride)
  int gpus = 1;   // logical GPUs each layer is split over (i on device i % device count)
};

inline const char* to_string(TspDistances d) {
  return d == TspDistances::Shared ? "shared" : "readonly";
}

// Largest n the GPU solver accepts: masks and ranks of m = n - 1 <= 32 cities fit in 32 bits
// (C(32, 16) < 2^31). n = 34 would need two layers of 155 GB anyway.
inline constexpr int kTspMaxCities = 33;
// Over several GPUs (tsp_multigpu.cu): 64-bit masks, ranks still 32-bit (C(34, 17) < 2^32);
// n = 36 would need 64-bit ranks and two layers of about 0.8 TB.
inline constexpr int kTspMaxCitiesMulti = 35;
// Logical GPUs one layer is split over: the layer kernel selects a part among at most these.
inline constexpr int kTspMaxGpus = 8;
inline int tsp_max_cities(int gpus) { return gpus > 1 ? kTspMaxCitiesMulti : kTspMaxCities; }

inline void validate(const TspWavefrontConfig& c) {
  auto fail = [](const std::string& what) { throw dpgpu::InputError("gpu.wavefront: " + what); };
  if (c.block < 32 || c.block > 1024 || c.block % 32 != 0)
    fail("parameter 'block' must be a multiple of 32 in [32, 1024], got " +
         std::to_string(c.block));
  if (c.readonly != "texture" && c.readonly != "ldg" && c.readonly != "plain")
    fail("parameter 'readonly' must be texture, ldg or plain, got '" + c.readonly + "'");
  if (c.offload_slots < 2 || c.offload_slots > 64)
    fail("parameter 'offload_slots' must be in [2, 64], got " + std::to_string(c.offload_slots));
  if (c.offload_slot_bytes < 64 || c.offload_slot_bytes > (std::int64_t{1} << 30))
    fail("parameter 'offload_slot_bytes' must be in [64, 2^30], got " +
         std::to_string(c.offload_slot_bytes));
  if (c.waves < 1 || c.waves > 64)
    fail("parameter 'waves' must be in [1, 64], got " + std::to_string(c.waves));
  if (c.gpus < 1 || c.gpus > kTspMaxGpus)
    fail("parameter 'gpus' must be in [1, " + std::to_string(kTspMaxGpus) + "], got " +
         std::to_string(c.gpus));
  if (c.gpus > 1 && c.distances != TspDistances::Shared)
    fail("gpus > 1 stages the distances in shared memory: parameter 'distances' must be shared");
  if (c.gpus > 1 && c.readonly != "ldg")
    fail(
        "gpus > 1 reads the distances once per block with ldg: parameter 'readonly' must be ldg, "
        "got '" +
        c.readonly + "'");
  if (c.gpus > 1 && c.reconstruct && !c.offload)
    fail(
        "gpus > 1 streams the argmins to the host: parameter 'offload' must be true (or "
        "reconstruct false)");
}

// --- layer arithmetic (m = n - 1) ---

inline std::uint64_t tsp_layer_subsets(int m, int k) { return tsp::subsets::kBinomials(m, k); }
inline std::uint64_t tsp_layer_cells(int m, int k) {
  return tsp_layer_subsets(m, k) * std::uint64_t(k);
}

// Argmin bytes of layers 2..m (one byte per cell): Σ_k C(m,k)·k − m = m·2^(m-1) − m.
inline std::uint64_t tsp_argmin_bytes(int m) {
  std::uint64_t b = 0;
  for (int k = 2; k <= m; ++k) b += tsp_layer_cells(m, k);
  return b;
}
// Offset of layer k's argmins in the host array (layers 2..k-1 before it).
inline std::uint64_t tsp_argmin_offset(int m, int k) {
  std::uint64_t b = 0;
  for (int j = 2; j < k; ++j) b += tsp_layer_cells(m, j);
  return b;
}
inline std::uint64_t tsp_largest_layer_cells(int m) {
  std::uint64_t b = 0;
  for (int k = 1; k <= m; ++k) b = std::max(b, tsp_layer_cells(m, k));
  return b;
}
// The largest sum of two adjacent layers' cells (the two cost layers on the device).
inline std::uint64_t tsp_two_layer_cells(int m) {
  std::uint64_t b = std::uint64_t(m);
  for (int k = 2; k <= m; ++k) b = std::max(b, tsp_layer_cells(m, k) + tsp_layer_cells(m, k - 1));
  return b;
}

struct TspBytes {
  std::uint64_t device = 0, host = 0;
  std::uint64_t argmins = 0;  // part of host (offload) or of device (offload false)
  std::uint64_t staging = 0;  // pinned ring, part of host
};

// What a solve allocates, for m = n - 1 others and `cell_bytes` 4 or 8. Exact for the
// DeviceBuffers and host arrays of tsp_wavefront.cu (texture objects and CUDA's own
// allocations aside).
inline TspBytes tsp_bytes(int n, int cell_bytes, const TspWavefrontConfig& c) {
  TspBytes t;
  const int m = n - 1;
  if (m < 2) return t;
  const std::uint64_t largest = tsp_largest_layer_cells(m);
  t.device = tsp_two_layer_cells(m) * std::uint64_t(cell_bytes);
  // Distances (m×m, int32 or int64) and the 33×33 uint32 binomial table.
  t.device += std::uint64_t(m) * m * std::uint64_t(cell_bytes) + 33 * 33 * 4;
  if (c.reconstruct) {
    t.argmins = tsp_argmin_bytes(m);
    if (c.offload) {
      t.host += t.argmins;
      // Layer k's argmins while layer k-1's are still being copied: the two adjacent layers.
      t.device += tsp_two_layer_cells(m);
      t.staging = std::uint64_t(c.offload_slots) *
                  std::min<std::uint64_t>(std::uint64_t(c.offload_slot_bytes), largest);
      t.host += t.staging;
    } else {
      t.device += t.argmins;  // the tour is walked back from them where they are
    }
  }
  t.host += std::uint64_t(m) * std::uint64_t(cell_bytes);  // the last layer, copied back
  return t;
}

}  // namespace dpgpu::wavefront

namespace tsp {
struct Instance;
}
namespace dpgpu::wavefront {
// Defined in tsp_params.cpp: the cell width (4: every path fits int32 by
// tsp::cost_upper_bound, else 8). The config of a parameter set: dpgpu::bind<TspWavefrontConfig>.
int tsp_cell_bytes(const ::tsp::Instance& x);
}  // namespace dpgpu::wavefront
