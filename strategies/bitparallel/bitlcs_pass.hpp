// bitlcs_pass.hpp — the one primitive every gpu.bitparallel answer is built from: a batch of
// bit-parallel LCS passes ("jobs"), each over a segment of x along the bits and a segment of
// y along the steps, forwards or both reversed. A job returns either its final bit vector V
// (length, and Hirschberg's split) or V after every row (a leaf's traceback).
//
// Bit-vector recurrence (Allison–Dix 1986, Hyyrö 2004), bit i of V for x[i]:
//     U = V & M[c];  V <- (V + U) | (V & ~M[c])      M[c]: bits where x[i] == c
// with the addition carried from word to word. After rows y[0..r), the zero bits of V below
// position j count LCS(x[0..j), y[0..r)); padding bits (masks 0) stay 1.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "symbol_codes.hpp"

namespace dpgpu::bitlcs {

using Word = std::uint64_t;

inline std::int64_t words_of(std::int64_t bits) { return (bits + 63) / 64; }

// Both strings as dense symbol codes (strategies/common/symbol_codes.hpp).
using Symbols = gpu::SymbolCodes;
inline Symbols encode(std::string_view x, std::string_view y) { return gpu::symbol_codes(x, y); }

struct PassJob {
  std::int64_t x_off = 0, x_len = 0;  // bits: x[x_off .. x_off + x_len)
  std::int64_t y_off = 0, y_len = 0;  // rows: y[y_off .. y_off + y_len)
  bool reversed = false;     // bit i is x[x_off + x_len - 1 - i], row r is y[y_off + y_len - 1 - r]
  bool store_rows = false;   // write V after every row (row r at out_off + r * words), not once
  std::int64_t out_off = 0;  // in words, into the batch's output
};
inline std::int64_t out_words(const PassJob& j) {
  return (j.store_rows ? j.y_len : 1) * words_of(j.x_len);
}
// Lays the jobs' outputs end to end (sets out_off); returns the total in words.
std::int64_t lay_out(std::vector<PassJob>& jobs);

// Runs a batch of jobs (x_len > 0 and y_len > 0 each) and fills `out` (resized to the total).
class PassRunner {
 public:
  virtual ~PassRunner() = default;
  virtual void run(const std::vector<PassJob>& jobs, std::int64_t total_words,
                   std::vector<Word>& out) = 0;
  // Device seconds in the passes' kernels so far (0 where not timed: the CPU model).
  virtual double kernel_s() const { return 0; }
};

// The recurrence word by word on one CPU core: the tests' model of the GPU pass.
class CpuPassRunner final : public PassRunner {
 public:
  explicit CpuPassRunner(const Symbols& s) : s_(s) {}
  void run(const std::vector<PassJob>& jobs, std::int64_t total_words,
           std::vector<Word>& out) override;

 private:
  const Symbols& s_;
};

}  // namespace dpgpu::bitlcs
