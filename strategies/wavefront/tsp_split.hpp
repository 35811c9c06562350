// tsp_split.hpp — gpu.wavefront for the TSP over several GPUs (tsp_multigpu.cu): how each
// Held-Karp layer is split across the logical GPUs, and what every GPU and the host hold (the
// memory plan `dpgpu check` prints). Plain C++, so the planner and the host tests use it too.
//
// The split: GPU g owns the ranks [lo(k, g), lo(k, g + 1)) of layer k, lo(k, g) =
// floor(g·C(m, k) / G): equal shares of every layer, contiguous in colex order, all k
// positions of a subset on its owner. In colex order a subset's rank is decided by its
// highest elements, and removing any element but the highest few keeps them, so most
// predecessors S \ {c} fall in the same share of layer k − 1 (the README's "Split across
// GPUs" counts the rest; the layer kernel counts them per GPU as `gpu#.exchange_bytes`).
// GPU g stores its share position-major like one GPU stores a layer: cell (r, p) at
// p·(lo(k, g + 1) − lo(k, g)) + r − lo(k, g). On the host, layer k's argmins are the GPUs'
// shares one after the other: GPU g's at tsp_argmin_offset(m, k) + k·lo(k, g).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tsp_config.hpp"

namespace dpgpu::wavefront {

struct TspSplit {
  int m = 0, gpus = 1;

  std::uint64_t lo(int k, int g) const {
    return tsp_layer_subsets(m, k) * std::uint64_t(g) / std::uint64_t(gpus);
  }
  std::uint64_t subsets(int k, int g) const { return lo(k, g + 1) - lo(k, g); }
  std::uint64_t cells(int k, int g) const { return subsets(k, g) * std::uint64_t(k); }
  // The GPU whose share of layer k holds `rank`.
  int owner(int k, std::uint64_t rank) const {
    int g = 0;
    while (g + 1 < gpus && lo(k, g + 1) <= rank) ++g;
    return g;
  }
  // GPU g's largest two adjacent layers (k − 1, k for k = 2..m): its two-ended cost ring in
  // cells, and its device argmin staging in bytes.
  std::uint64_t pair_cells(int g) const {
    std::uint64_t b = cells(1, g);
    for (int k = 2; k <= m; ++k) b = std::max(b, cells(k, g) + cells(k - 1, g));
    return b;
  }
  std::uint64_t argmin_offset(int k, int g) const {
    return tsp_argmin_offset(m, k) + std::uint64_t(k) * lo(k, g);
  }
};

// Relaxations of layer k (2 <= k <= m) whose predecessor S \ {c_p} lies in another GPU's
// share of layer k − 1, summed over the GPUs: (k − 1) costs read there per such cell, what the
// layer kernel counts (gpu#.exchange_bytes = this × cell bytes). By enumeration of the layer:
// small m only (tests; the README's table for the larger m sampled it).
inline std::uint64_t tsp_remote_relaxations(const TspSplit& s, int k) {
  std::uint64_t remote = 0, mask = (std::uint64_t{1} << k) - 1;
  const std::uint64_t count = tsp_layer_subsets(s.m, k);
  for (std::uint64_t r = 0; r < count; ++r, mask = tsp::subsets::next_same_size(mask)) {
    const int g = s.owner(k, r);
    for (std::uint64_t t = mask; t != 0; t &= t - 1)
      if (s.owner(k - 1, tsp::subsets::rank(mask & ~(t & (~t + 1)))) != g)
        remote += std::uint64_t(k - 1);
  }
  return remote;
}

// The tour (city 0 first, n = m + 1 cities) walked back through every layer's argmins in
// the host array (the layout above) from the full set's last city `last` (others' numbering,
// 0..m − 1): one argmin per layer, in the share of the GPU that owns the rank.
inline std::vector<std::int32_t> tsp_split_tour(const TspSplit& s, const std::uint8_t* argmins,
                                                int last) {
  std::vector<std::int32_t> tour(std::size_t(s.m) + 1, 0);
  std::uint64_t set = (std::uint64_t{1} << s.m) - 1;
  for (int k = s.m; k >= 1; --k) {
    tour[std::size_t(k)] = last + 1;
    if (k == 1) break;
    const std::uint64_t r = tsp::subsets::rank(set);
    const int g = s.owner(k, r);
    const std::uint64_t cell =
        std::uint64_t(tsp::subsets::position_of(set, last)) * s.subsets(k, g) + (r - s.lo(k, g));
    const int before = argmins[s.argmin_offset(k, g) + cell];
    set ^= std::uint64_t{1} << last;
    last = before;
  }
  return tour;
}

// What one logical GPU allocates (tsp_multigpu.cu, exactly).
struct TspGpuBytes {
  std::uint64_t costs = 0;    // the two-ended ring of two cost layers
  std::uint64_t argmins = 0;  // reconstruct: staging of two argmin layers
  std::uint64_t inputs = 0;   // distances, binomials, the exchange counter
  std::uint64_t total() const { return costs + argmins + inputs; }
};

struct TspMultiBytes {
  std::vector<TspGpuBytes> gpu;
  std::uint64_t host = 0, argmins = 0, staging = 0;  // staging: pinned, every GPU's ring
  std::uint64_t device_max() const {
    std::uint64_t b = 0;
    for (const auto& g : gpu) b = std::max(b, g.total());
    return b;
  }
};

// Binomial rows the multi-GPU kernel keeps (C(c, i) for c, i in 0..34), as 32-bit words,
// padded to an even count.
inline constexpr int kTspMultiBinomRows = 35;
inline constexpr int kTspMultiBinomWords = kTspMultiBinomRows * kTspMultiBinomRows + 1;

inline std::uint64_t tsp_multi_slot_bytes(const TspSplit& s, const TspWavefrontConfig& c) {
  std::uint64_t largest = 1;
  for (int k = 2; k <= s.m; ++k)
    for (int g = 0; g < s.gpus; ++g) largest = std::max(largest, s.cells(k, g));
  return std::min<std::uint64_t>(std::uint64_t(c.offload_slot_bytes), largest);
}

inline TspMultiBytes tsp_multi_bytes(int n, int cell_bytes, const TspWavefrontConfig& c) {
  TspMultiBytes t;
  const TspSplit s{n - 1, c.gpus};
  if (s.m < 2) return t;
  for (int g = 0; g < s.gpus; ++g) {
    TspGpuBytes b;
    b.costs = s.pair_cells(g) * std::uint64_t(cell_bytes);
    if (c.reconstruct) b.argmins = s.pair_cells(g);
    b.inputs = std::uint64_t(s.m) * std::uint64_t(s.m) * std::uint64_t(cell_bytes) +
               std::uint64_t(kTspMultiBinomWords) * 4 + 8;
    t.gpu.push_back(b);
  }
  if (c.reconstruct) {
    t.argmins = tsp_argmin_bytes(s.m);
    t.staging = std::uint64_t(s.gpus) * std::uint64_t(c.offload_slots) * tsp_multi_slot_bytes(s, c);
  }
  t.host = t.argmins + t.staging + std::uint64_t(s.m) * std::uint64_t(cell_bytes);
  return t;
}

// Bytes in decimal units, three significant digits ("96.3 GB", "67.1 MB", "0 B").
inline std::string tsp_gb(std::uint64_t b) {
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB"};
  double v = double(b);
  int u = 0;
  while (v >= 1000 && u < 4) v /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %s", v, kUnits[u]);
  return buf;
}

// The memory plan of a solve: the widest pair of adjacent layers (what decides whether it
// fits), per GPU and on the host, and the totals. `cell_bytes` 4 (int32 costs; int64 costs
// double the cost layers). For one GPU the same figures as tsp_bytes.
inline std::string tsp_memory_plan(int n, int cell_bytes, const TspWavefrontConfig& c) {
  const TspSplit s{n - 1, c.gpus};
  if (s.m < 2) return "no layer to compute (n <= 2): nothing on the GPU";
  int widest = 2;
  for (int k = 2; k <= s.m; ++k)
    if (tsp_layer_cells(s.m, k) + tsp_layer_cells(s.m, k - 1) >
        tsp_layer_cells(s.m, widest) + tsp_layer_cells(s.m, widest - 1))
      widest = k;
  std::uint64_t costs = 0, argmins = 0;
  for (int g = 0; g < s.gpus; ++g) {
    const std::uint64_t cells = s.cells(widest, g) + s.cells(widest - 1, g);
    costs = std::max(costs, cells * std::uint64_t(cell_bytes));
    argmins = std::max(argmins, c.reconstruct ? cells : 0);
  }
  const std::uint64_t host_then = c.reconstruct ? tsp_argmin_offset(s.m, widest + 1) : 0;
  std::string out = "n = " + std::to_string(n) + " over " + std::to_string(s.gpus) + " GPU" +
                    (s.gpus > 1 ? "s" : "") + ", " + std::to_string(cell_bytes * 8) + "-bit costs" +
                    (cell_bytes == 4 ? " (64-bit: cost layers x2)" : "") + "; widest layers " +
                    std::to_string(widest - 1) + " and " + std::to_string(widest) + ": per GPU " +
                    tsp_gb(costs) + " costs + " + tsp_gb(argmins) +
                    " argmins, host argmins through layer " + std::to_string(widest) + " " +
                    tsp_gb(host_then);
  if (c.gpus == 1) {
    const TspBytes b = tsp_bytes(n, cell_bytes, c);
    return out + "; whole solve: device " + tsp_gb(b.device) + ", host " + tsp_gb(b.host);
  }
  const TspMultiBytes b = tsp_multi_bytes(n, cell_bytes, c);
  return out + "; whole solve: per GPU at most " + tsp_gb(b.device_max()) + ", host " +
         tsp_gb(b.host) + " (argmins " + tsp_gb(b.argmins) + ", pinned staging " +
         tsp_gb(b.staging) + ")";
}

}  // namespace dpgpu::wavefront
