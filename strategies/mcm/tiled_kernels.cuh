// tiled_kernels.cuh — gpu.mcm_tiled: the DP table in 64 × 64 tiles of doubles, row-major
// with pitch W (points padded to a multiple of 64 with dimension 0, so no edge cases).
//
// Tile (I, J) holds M[a][b] for a in tile I, b in tile J; tile diagonal D = J - I. For an
// entry of it the split c runs over
//   * the tiles K strictly between I and J: M[a][c] in tile (I, K) and M[c][b] in (K, J),
//     both on earlier tile diagonals — a "panel product" min over c of A[a][c] + B[c][b] +
//     p_a·p_b·p_c, computed by `tile_panels` (several blocks per tile split the K range);
//   * tile I itself (M[a][c] in the finished diagonal tile (I, I), M[c][b] in this tile) and
//     tile J (M[a][c] in this tile, M[c][b] in (J, J)): `tile_finish` does these in shared
//     memory, entries in order of b - a, after taking the minimum of the panel parts.
// Doubles are exact here: every value and candidate is an integer below 2^53 (the solver
// refuses instances whose bound is higher), so fma(p_a·p_b, p_c, A) + B is exact.
#pragma once
#include <cstdint>

#include "mcm_config.hpp"  // kTile

namespace dpgpu::mcm_gpu {

constexpr int kChunk = 32;          // splits per shared-memory stage of the panel product
constexpr int kPanelThreads = 256;  // 16 × 16 threads, 4 × 4 entries each
constexpr double kInf = 1e300;

// Values V: double (exact below 2^53) or int (exact when every candidate is below 2^31).
template <class V>
struct TiledTableT {
  V* m;             // W × W, row-major
  std::int32_t* s;  // W × W splits (int path: -(K + 2) for "some c in tile K", see below)
  const V* p;       // W dimensions (0 beyond n)
  long long W;
};
using TiledTable = TiledTableT<double>;

template <class V>
__device__ __forceinline__ V inf_value() {
  if constexpr (sizeof(V) == 4)
    return V(0x7fffffff);
  else
    return V(kInf);
}
// pab·pc + x, exact in both types.
__device__ __forceinline__ double mul_add(double pab, double pc, double x) {
  return fma(pab, pc, x);
}
__device__ __forceinline__ int mul_add(int pab, int pc, int x) { return pab * pc + x; }

// q < best for the non-negative doubles here: on the FP64 pipe (DSETP), or on the integer
// pipe through the bit patterns, which order non-negative doubles as their values do; the
// latter leaves the FP64 pipe two operations per split (DFMA, DADD) instead of three.
template <bool Bits>
__device__ __forceinline__ bool less(double q, double best) {
  if constexpr (Bits) return __double_as_longlong(q) < __double_as_longlong(best);
  return q < best;
}

// One stage of a panel product, into shared memory: the kChunk splits c0 .. c0 + kChunk - 1,
// their columns of A (rows a0 ..) and rows of B (columns b0 ..), and their dimensions.
template <class V, int PitchA, int PitchB>
__device__ __forceinline__ void load_panel_chunk(const TiledTableT<V>& tab, long long a0,
                                                 long long b0, long long c0,
                                                 V (&As)[kChunk][PitchA], V (&Bs)[kChunk][PitchB],
                                                 V (&Ps)[kChunk]) {
  const long long W = tab.W;
  __syncthreads();
  for (int e = threadIdx.x; e < kTile * kChunk; e += kPanelThreads) {
    const int ai = e / kChunk, ci = e % kChunk;  // A: row a, 32 consecutive c
    As[ci][ai] = tab.m[(a0 + ai) * W + c0 + ci];
    const int cj = e / kTile, bj = e % kTile;  // B: row c, 64 consecutive b
    Bs[cj][bj] = tab.m[(c0 + cj) * W + b0 + bj];
  }
  if (threadIdx.x < kChunk) Ps[threadIdx.x] = tab.p[c0 + threadIdx.x];
  __syncthreads();
}

// Block (tile t of the diagonal, part g): min over c in tiles I+1+k0 .. I+k1 of the panels.
template <bool Bits>
__global__ void __launch_bounds__(kPanelThreads, 2)
    tile_panels(TiledTable tab, int D, int parts, double* part_v, int* part_c) {
  __shared__ double As[kChunk][kTile + 1];  // As[c][a]
  __shared__ double Bs[kChunk][kTile];      // Bs[c][b]
  __shared__ double Ps[kChunk];
  const int I = blockIdx.x, J = I + D, g = blockIdx.y;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const long long a0 = (long long)I * kTile, b0 = (long long)J * kTile;
  const int panels = D - 1, per = (panels + parts - 1) / parts;
  const int k0 = g * per, k1 = min(panels, k0 + per);

  double ab[4][4], best[4][4];
  int arg[4][4];
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      ab[r][s] = tab.p[a0 + ty + 16 * r] * tab.p[b0 + tx + 16 * s];
      best[r][s] = kInf;
      arg[r][s] = -1;
    }
  for (int k = k0; k < k1; ++k) {
    const long long cbase = (long long)(I + 1 + k) * kTile;
    for (int cc0 = 0; cc0 < kTile; cc0 += kChunk) {
      load_panel_chunk(tab, a0, b0, cbase + cc0, As, Bs, Ps);
#pragma unroll 4
      for (int ci = 0; ci < kChunk; ++ci) {
        double av[4], bv[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) av[r] = As[ci][ty + 16 * r];
#pragma unroll
        for (int s = 0; s < 4; ++s) bv[s] = Bs[ci][tx + 16 * s];
        const double pc = Ps[ci];
        const int c = int(cbase + cc0 + ci);
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
          for (int s = 0; s < 4; ++s) {
            const double q = fma(ab[r][s], pc, av[r]) + bv[s];
            if (less<Bits>(q, best[r][s])) {
              best[r][s] = q;
              arg[r][s] = c;
            }
          }
      }
    }
  }
  const long long base = ((long long)blockIdx.x * parts + g) * kTile * kTile;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      const int idx = (ty + 16 * r) * kTile + tx + 16 * s;
      part_v[base + idx] = best[r][s];
      part_c[base + idx] = arg[r][s];
    }
}

// The int path's panel product (every candidate below 2^31, proven from the instance):
// thread (tx, ty) owns rows 4·ty.. and columns 4·tx.. of the tile, read as int4 from shared
// memory; each split costs one IMAD (p_a·p_b·p_c + A) and one DPX add-min
// (__viaddmin_s32: min(t + B, best)) per entry. No argmin in the loop: after each tile K of
// splits an entry whose minimum dropped records K, and the walk finds the c inside tile K
// for the n - 1 entries of the optimal tree (walk_splits_resolve). part_c: -(K + 2).
constexpr int kIntPitch = kTile + 4;  // int4 rows stay 16-byte aligned; 4-way store conflicts

__global__ void __launch_bounds__(kPanelThreads, 2)
    tile_panels_int(TiledTableT<int> tab, int D, int parts, int* part_v, int* part_c) {
  __shared__ __align__(16) int As[kChunk][kIntPitch];  // As[c][a]
  __shared__ __align__(16) int Bs[kChunk][kIntPitch];  // Bs[c][b]
  __shared__ int Ps[kChunk];
  const int I = blockIdx.x, J = I + D, g = blockIdx.y;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const long long a0 = (long long)I * kTile, b0 = (long long)J * kTile;
  const int panels = D - 1, per = (panels + parts - 1) / parts;
  const int k0 = g * per, k1 = min(panels, k0 + per);

  int ab[4][4], best[4][4], prev[4][4], arg[4][4];
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      ab[r][s] = tab.p[a0 + 4 * ty + r] * tab.p[b0 + 4 * tx + s];
      best[r][s] = prev[r][s] = 0x7fffffff;
      arg[r][s] = -1;
    }
  for (int k = k0; k < k1; ++k) {
    const long long cbase = (long long)(I + 1 + k) * kTile;
    for (int cc0 = 0; cc0 < kTile; cc0 += kChunk) {
      load_panel_chunk(tab, a0, b0, cbase + cc0, As, Bs, Ps);
#pragma unroll 8
      for (int ci = 0; ci < kChunk; ++ci) {
        const int4 a4 = *reinterpret_cast<const int4*>(&As[ci][4 * ty]);
        const int4 b4 = *reinterpret_cast<const int4*>(&Bs[ci][4 * tx]);
        const int av[4] = {a4.x, a4.y, a4.z, a4.w}, bv[4] = {b4.x, b4.y, b4.z, b4.w};
        const int pc = Ps[ci];
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
          for (int s = 0; s < 4; ++s)
            best[r][s] = __viaddmin_s32(ab[r][s] * pc + av[r], bv[s], best[r][s]);
      }
    }
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int s = 0; s < 4; ++s) {
        if (best[r][s] < prev[r][s]) arg[r][s] = -(I + 1 + k + 2);
        prev[r][s] = best[r][s];
      }
  }
  const long long base = ((long long)blockIdx.x * parts + g) * kTile * kTile;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      const int idx = (4 * ty + r) * kTile + 4 * tx + s;
      part_v[base + idx] = best[r][s];
      part_c[base + idx] = arg[r][s];
    }
}

constexpr int kFinishThreads = 256;  // 64 entries × 4 lanes per step
constexpr int kPitch = kTile + 1;
template <class V>
constexpr std::size_t kFinishSmem =
    std::size_t(3) * kTile* kPitch * sizeof(V) + std::size_t(kTile) * kTile * sizeof(int);

// Block t finishes tile (t, t + D): panel parts' minimum, then the splits inside tiles I and J
// in order of b - a (one barrier per step), then the tile and its splits to global memory.
template <class V>
__global__ void __launch_bounds__(kFinishThreads)
    tile_finish(TiledTableT<V> tab, int D, int parts, const V* part_v, const int* part_c) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  V* smem = reinterpret_cast<V*>(smem_bytes);
  V* cur = smem;                                           // this tile, [a][b] pitch kPitch
  V* di = cur + kTile * kPitch;                            // tile (I, I)
  V* dj = di + kTile * kPitch;                             // tile (J, J)
  int* arg = reinterpret_cast<int*>(dj + kTile * kPitch);  // [a][b] pitch kTile
  const int I = blockIdx.x, J = I + D;
  const long long W = tab.W, a0 = (long long)I * kTile, b0 = (long long)J * kTile;
  const long long base = (long long)blockIdx.x * parts * kTile * kTile;

  for (int e = threadIdx.x; e < kTile * kTile; e += kFinishThreads) {
    const int ai = e / kTile, bj = e % kTile;
    V v = inf_value<V>();
    int c = -1;
    for (int g = 0; g < parts; ++g) {
      const V pv = part_v[base + (long long)g * kTile * kTile + e];
      if (pv < v) {
        v = pv;
        c = part_c[base + (long long)g * kTile * kTile + e];
      }
    }
    cur[ai * kPitch + bj] = v;
    arg[e] = c;
    if (D > 0) {
      di[ai * kPitch + bj] = tab.m[(a0 + ai) * W + a0 + bj];
      dj[ai * kPitch + bj] = tab.m[(b0 + ai) * W + b0 + bj];
    }
  }
  if (D == 0) {
    di = cur;
    dj = cur;
  }
  __syncthreads();

  const int entry = threadIdx.x / 4, lane = threadIdx.x % 4;
  // Local steps: s = bj - ai over [-(T-1), T-1] (D > 0) or [1, T-1] (D = 0).
  const int s_first = D == 0 ? 1 : -(kTile - 1);
  for (int s = s_first; s < kTile; ++s) {
    const int ai = entry, bj = ai + s;  // this step's entry of row ai
    const bool active = bj >= 0 && bj < kTile;
    V v = inf_value<V>();
    int c = -1;
    if (active) {
      const long long a = a0 + ai, b = b0 + bj;
      if (b - a == 1) {
        v = 0;
        c = -1;
      } else {
        const V pab = tab.p[a] * tab.p[b];
        // c in tile I, c > a (and c < b when D = 0): M[a][c] = di[ai][ci], M[c][b] = cur[ci][bj].
        const int ci_end = D == 0 ? bj : kTile;
        for (int ci = ai + 1 + lane; ci < ci_end; ci += 4) {
          const V q = mul_add(pab, tab.p[a0 + ci], di[ai * kPitch + ci]) + cur[ci * kPitch + bj];
          if (q < v) {
            v = q;
            c = int(a0 + ci);
          }
        }
        // c in tile J, c < b (D > 0): M[a][c] = cur[ai][cj], M[c][b] = dj[cj][bj].
        if (D > 0)
          for (int cj = lane; cj < bj; cj += 4) {
            const V q = mul_add(pab, tab.p[b0 + cj], cur[ai * kPitch + cj]) + dj[cj * kPitch + bj];
            if (q < v) {
              v = q;
              c = int(b0 + cj);
            }
          }
      }
    }
    // Minimum over the 4 lanes of the entry (ties: smaller c).
    for (int o = 1; o < 4; o <<= 1) {
      const V ov = __shfl_xor_sync(0xffffffffu, v, o);
      const int oc = __shfl_xor_sync(0xffffffffu, c, o);
      if (ov < v || (ov == v && oc < c && oc >= 0)) {
        v = ov;
        c = oc;
      }
    }
    if (active && lane == 0) {
      const int e = ai * kTile + bj;
      if (b0 + bj - (a0 + ai) == 1) {
        cur[ai * kPitch + bj] = 0;
        arg[e] = -1;
      } else if (v < cur[ai * kPitch + bj]) {
        cur[ai * kPitch + bj] = v;
        arg[e] = c;
      }
    }
    __syncthreads();
  }

  for (int e = threadIdx.x; e < kTile * kTile; e += kFinishThreads) {
    const int ai = e / kTile, bj = e % kTile;
    if (D == 0 && bj <= ai) continue;
    tab.m[(a0 + ai) * W + b0 + bj] = cur[ai * kPitch + bj];
    tab.s[(a0 + ai) * W + b0 + bj] = arg[e];
  }
}

// The int path's splits, resolved by one warp: an entry whose split is -(K + 2) (some c in
// tile K reaches the minimum) takes the smallest c of tile K with M[a][c] + M[c][b] +
// p_a·p_b·p_c = M[a][b]; two candidates per lane.
struct RowSplitResolve {
  const std::int32_t* s;
  const int* m;
  const int* p;
  long long W;
  __device__ int operator()(long long a, long long b, int lane) const {
    const int c = s[a * W + b];
    if (c >= -1) return c;
    const long long base = (long long)(-c - 2) * kTile, target = m[a * W + b],
                    pab = (long long)p[a] * p[b];
    unsigned found[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const long long x = base + 32 * h + lane;
      const bool hit = (long long)m[a * W + x] + m[x * W + b] + pab * p[x] == target;
      found[h] = __ballot_sync(0xffffffffu, hit);
    }
    if (found[0]) return int(base + __ffs(found[0]) - 1);
    if (found[1]) return int(base + 32 + __ffs(found[1]) - 1);
    return -1;  // not reached: the panel's minimum is attained in tile K
  }
};

// split_of for the row-major split table of gpu.mcm_tiled.
struct RowSplit {
  const std::int32_t* s;
  long long W;
  __device__ int operator()(long long a, long long b) const { return s[a * W + b]; }
};

}  // namespace dpgpu::mcm_gpu
