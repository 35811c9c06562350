// bitlcs_ceiling.hpp — gpu.bitparallel's declared ceiling (issue 37): the DP cells per second
// the card's int32 issue rate allows for this formulation, so every row says how far it is.
//
//   ceiling [cells/s] = GPUs × SMs × clock × 64 int32 ops per SM and clock × bits / ops_per_word
//
// Rate: CUDA C++ Programming Guide, "Arithmetic Instructions", table "Throughput of Native
// Arithmetic Instructions (operations per clock cycle per multiprocessor)": 32-bit integer add
// and extended-precision add, and 32-bit bitwise AND/OR/XOR, 64 for compute capability 9.0
// (H100, H200). The search of this session's docs corpus did not return that table's 9.0 column:
// the 64 is the Guide's figure as the issue quotes it (16.7·10^12 int32 ops/s on an H100/H200
// SXM: 132 SMs × 1.98 GHz × 64); check it there before quoting the ceiling elsewhere. The clock
// is the device's peak (cudaDevAttrClockRate), so the ceiling is an upper bound.
//
// Ops per lane word, counted from the sm_90 SASS of the step (strategies/bitparallel/NOTES.md):
// a 64-bit lane word is two 32-bit halves: U = V & M (2 LOP3), V + U with the carry (2
// IADD3.X), (V + U) | (V & ~M) (2 LOP3) = 6; a 32-bit lane word 3. Per step and lane, shared by
// its W words: the carry flag set from the carry-in (IADD3) and read out (SEL) = 2. Nothing
// else is counted (symbol and mask fetch, the shuffles, the carry word of lane 31, loop and
// address arithmetic are the kernel's overhead, which the share shows).
#pragma once

namespace dpgpu::bitlcs {

constexpr double kInt32OpsPerSmClock = 64;  // CUDA Programming Guide throughput table, cc 9.0

inline double ops_per_lane_word(int word_bits, int words_per_thread) {
  return (word_bits == 64 ? 6.0 : 3.0) + 2.0 / double(words_per_thread);
}

// Cells per second at the int32 issue rate of `gpus` cards of `sms` SMs at `clock_hz`.
inline double ceiling_cups(int gpus, int sms, double clock_hz, int word_bits,
                           int words_per_thread) {
  return double(gpus) * double(sms) * clock_hz * kInt32OpsPerSmClock * double(word_bits) /
         ops_per_lane_word(word_bits, words_per_thread);
}

}  // namespace dpgpu::bitlcs
