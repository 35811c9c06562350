// myers_pass.hpp — the pass, gpu.myers's one primitive: a segment of x along the bits and a
// segment of y along the steps (both reversed, or not), returning the last column as Pv/Mv
// words. Its distance, the prefix distances Hirschberg splits on, the symbol codes, and the
// word-by-word CPU model the kernel is held to. Host C++.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "symbol_codes.hpp"

namespace dpgpu::myers {

using Word = std::uint64_t;

inline std::int64_t words_of(std::int64_t bits) { return (bits + 63) / 64; }

// x and y as codes (strategies/common/symbol_codes.hpp, shared with gpu.bitparallel).
using Symbols = gpu::SymbolCodes;
inline Symbols encode(std::string_view x, std::string_view y) { return gpu::symbol_codes(x, y); }

struct PassJob {
  std::int64_t x_off = 0, x_len = 0, y_off = 0, y_len = 0;
  bool reversed = false;  // x[x_off, +x_len) and y[y_off, +y_len) both read back to front
};

// What a batch of jobs gives: each job's distance, and where asked its last column (job k's
// words_of(x_len) words start at offset[k]).
struct Columns {
  std::vector<std::int64_t> distance;
  std::vector<Word> pv, mv;  // empty unless asked for
  std::vector<std::int64_t> offset;
};
std::vector<std::int64_t> column_offsets(const std::vector<PassJob>& jobs);

class PassRunner {
 public:
  virtual ~PassRunner() = default;
  virtual void run(const std::vector<PassJob>& jobs, Columns& out, bool want_columns) = 0;
};

// The model: each job word by word, row by row (tests hold the kernel to it).
class CpuPassRunner final : public PassRunner {
 public:
  explicit CpuPassRunner(const Symbols& s) : s_(s) {}
  void run(const std::vector<PassJob>& jobs, Columns& out, bool want_columns) override;

 private:
  const Symbols& s_;
};

// D(x segment, y segment) from job k's column: y_len + (+1 per Pv bit) - (1 per Mv bit).
std::int64_t distance_of(const Columns& c, std::size_t k, const PassJob& job);
// D(first i symbols of the job's x, its y) for i = 0 .. x_len (prefix sums of the column).
std::vector<std::int64_t> prefix_distances(const Columns& c, std::size_t k, const PassJob& job);

}  // namespace dpgpu::myers
