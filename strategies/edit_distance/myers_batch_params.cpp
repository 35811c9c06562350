// myers_batch_params.cpp — registers gpu.myers for edit_batch (myers_batch.hpp): the kernel's
// parameters, the memory estimate, the GPU solve with every pair's distance and its checksum.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "dpgpu/registry.hpp"
#include "edit/batch.hpp"
#include "myers_batch.hpp"
#include "myers_config.hpp"
#include "myers_counters.hpp"

namespace dpgpu::myers {
namespace {

struct BatchConfig {
  int words_per_thread = 1;
  int warps = 4;
  int thread_words = 16;
};

MyersConfig kernel_config(const BatchConfig& b) {
  MyersConfig c;
  c.words_per_thread = b.words_per_thread;
  c.warps = b.warps;
  c.thread_words = b.thread_words;
  return c;
}

[[maybe_unused]] const Registered registered_batch =
    dpgpu::solver<edit::BatchProblem, BatchConfig>(
        "gpu.myers",
        "Myers/Hyyro bit-vector edit distance over every pair: a pair whose a fits in "
        "thread_words words one per thread, longer ones as warp stripes of 2048 x "
        "words_per_thread symbols of a (one launch for all of them)")
        .param("words_per_thread", &BatchConfig::words_per_thread, between(1, 4),
               "64-bit words per lane (1, 2 or 4); a warp's stripe is 32x that many words")
        .param("warps", &BatchConfig::warps, between(1, 32), "warps per block")
        .param("thread_words", &BatchConfig::thread_words, between(0, 16),
               "pairs whose a fits in this many 64-bit words (1, 2, 4, 8, 16) run one per thread; "
               "0: every pair as warp stripes")
        .check([](const BatchConfig& c) { return refusal(why_invalid(kernel_config(c))); })
        .counters(myers_counters())
        .memory([](const edit::BatchInstance& x, const BatchConfig&) {
          const std::uint64_t strings = x.a.text.size() + x.b.text.size();
          const std::uint64_t per_pair = 80 + 8 + 16 + 4;  // job, counter, bookkeeping, answer
          return MemoryNeed{2 * strings + x.pairs() * (per_pair + 16),
                            strings + x.pairs() * per_pair + (std::uint64_t{1} << 24)};
        })
        .solve_gpu([](const edit::BatchInstance& x, const BatchConfig& c, Context& ctx) {
          auto d = solve_batch(x, kernel_config(c), ctx);
          std::int64_t sum = 0;
          for (const auto v : d) sum += v;
          const auto checksum = edit::batch_checksum(d);
          return Outcome<edit::BatchSolution>{sum, edit::BatchSolution{std::move(d)}, checksum};
        });

}  // namespace
}  // namespace dpgpu::myers
