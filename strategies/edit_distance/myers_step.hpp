// myers_step.hpp — one 64-bit word of Myers' bit-vector edit distance (Myers 1999, in
// Hyyrö's block form, the step edlib's calculateBlock takes), for the host model and the
// kernel alike.
//
// The bit vector runs along x: bit i of a column holds the vertical delta
// D[i+1][j] - D[i][j] as Pv (+1) or Mv (-1). One step takes the column over one symbol of y:
// Eq holds the bits where x equals that symbol, hin the horizontal delta entering the
// word's lowest row from below (-1, 0 or +1; +1 at row 0, the top boundary D[0][j] = j), and
// the return value is the horizontal delta leaving its highest row: the only thing the next
// word needs (a carry of the addition never leaves a word: hin = -1 stands for it).
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define DPGPU_MYERS_HD __host__ __device__ __forceinline__
#else
#define DPGPU_MYERS_HD inline
#endif

namespace dpgpu::myers {

DPGPU_MYERS_HD int block_step(std::uint64_t& pv, std::uint64_t& mv, std::uint64_t eq, int hin) {
  const std::uint64_t neg = hin < 0 ? 1 : 0;
  const std::uint64_t xv = eq | mv;
  eq |= neg;
  const std::uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
  std::uint64_t ph = mv | ~(xh | pv);
  std::uint64_t mh = pv & xh;
  const int hout = int(ph >> 63) - int(mh >> 63);
  ph = (ph << 1) | std::uint64_t(hin > 0);
  mh = (mh << 1) | neg;
  pv = mh | ~(xv | ph);
  mv = ph & xv;
  return hout;
}

}  // namespace dpgpu::myers
