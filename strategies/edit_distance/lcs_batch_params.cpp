// lcs_batch_params.cpp — registers gpu.bitparallel for lcs_batch (lcs_batch_gpu.hpp): pairs
// whose a is longer than 1,024 symbols are refused before anything runs.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/registry.hpp"
#include "edit/lcs_batch.hpp"
#include "lcs_batch_gpu.hpp"

namespace dpgpu::myers {
namespace {

[[maybe_unused]] const Registered registered_lcs_batch =
    dpgpu::solver<edit::LcsBatchProblem>(
        "gpu.bitparallel",
        "bit-vector LCS per pair, one pair per thread (up to 1024 symbols of a in 16 words of "
        "registers), pairs grouped by words, one launch per group")
        .check_instance([](const Params&, const ValueMap& dims) -> std::optional<std::string> {
          const auto n = std::get<std::int64_t>(dims.at("n"));
          if (n <= kLcsBatchMaxSymbols) return std::nullopt;
          return "a string of side a has " + std::to_string(n) +
                 " symbols; one pair per thread "
                 "holds at most " +
                 std::to_string(kLcsBatchMaxSymbols);
        })
        .counter(counters::count("kernel_launches", "launches", "kernel launches (one per W)"))
        .counter(counters::count("sigma", "symbols", "distinct symbols of side b"))
        .memory([](const edit::BatchInstance& x, const Params&) {
          const std::uint64_t strings = x.a.text.size() + x.b.text.size();
          return MemoryNeed{strings + x.pairs() * 48, strings + x.pairs() * 40 + 4096};
        })
        .solve_gpu([](const edit::BatchInstance& x, const Params&, Context& ctx) {
          auto d = solve_lcs_batch(x, ctx);
          std::int64_t sum = 0;
          for (const auto v : d) sum += v;
          const auto checksum = edit::batch_checksum(d);
          return Outcome<edit::BatchSolution>{sum, edit::BatchSolution{std::move(d)}, checksum};
        });

}  // namespace
}  // namespace dpgpu::myers
