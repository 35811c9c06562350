// cpu.edlib and cpu.dp for edit_batch: one pair per OpenMP thread (batch.cpp).
#include <omp.h>

#include "batch_cpu.hpp"
#include "edit/lcs_batch.hpp"
#include "registration.hpp"

namespace edit::cpu {
namespace {

struct BatchConfig {
  int threads = 0;  // 0: OpenMP's default (all cores)
};
using BatchOutcome = dpgpu::Outcome<edit::BatchSolution>;

BatchOutcome outcome(std::vector<std::int32_t> d) {
  std::int64_t sum = 0;
  for (const auto v : d) sum += v;
  const auto checksum = batch_checksum(d);
  return BatchOutcome{sum, edit::BatchSolution{std::move(d)}, checksum};
}

template <class P = edit::BatchProblem, class F>
auto batch_solver(const char* name, const char* help, F solve) {
  return dpgpu::solver<P, BatchConfig>(name, help)
      .param("threads", &BatchConfig::threads, dpgpu::between(0, 1024),
             "OpenMP threads, one pair each at a time; 0: OpenMP's default (all cores)")
      .counter(dpgpu::counters::count("threads", "threads", "OpenMP threads the solve ran on"))
      .memory([](const edit::BatchInstance& x, const BatchConfig&) {
        return MemoryNeed{x.pairs() * 8 + (std::uint64_t{1} << 26), 0};
      })
      .solve([solve](const edit::BatchInstance& x, const BatchConfig& c, Context& ctx) {
        ctx.set("threads", c.threads > 0 ? c.threads : omp_get_max_threads());
        auto compute = ctx.phase("compute");
        return outcome(solve(x, c.threads, deadline_of(ctx)));
      });
}

[[maybe_unused]] const auto registered_dp_batch = batch_solver(
    "cpu.dp", "the reference recurrence per pair, pairs over OpenMP threads", dp_batch);

[[maybe_unused]] const auto registered_lcs_batch = batch_solver<edit::LcsBatchProblem>(
    "cpu.bitparallel", "bit-vector LCS per pair (baselines/lcs), pairs over OpenMP threads",
    lcs_bitparallel_batch);

#if DPGPU_WITH_EDLIB
[[maybe_unused]] const auto registered_edlib_batch = batch_solver(
    "cpu.edlib", "libedlib (Debian) per pair, global mode, pairs over OpenMP threads", edlib_batch);
#else
[[maybe_unused]] const auto registered_edlib_batch =
    dpgpu::solver<edit::BatchProblem, BatchConfig>("cpu.edlib", "libedlib per pair over OpenMP")
        .param("threads", &BatchConfig::threads, dpgpu::between(0, 1024), "OpenMP threads")
        .unavailable(
            "dpgpu was built without libedlib (apt-get install libedlib-dev, or "
            "scripts/install-deps.sh, then re-run cmake)");
#endif

}  // namespace
}  // namespace edit::cpu
