// kloetzli_params.cpp — registers gpu.kloetzli for LCS (the comparator of paper 000's
// Fig. 4a): its one parameter, the rule the kernel needs, the memory estimate and the GPU
// solve. Host C++ only, so CPU-only builds list it (as unavailable) and check experiments.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "dpgpu/registry.hpp"
#include "kloetzli_config.hpp"
#include "kloetzli_gpu.hpp"
#include "lcs/lcs.hpp"

namespace dpgpu::kloetzli {
namespace {

using C = KloetzliConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<lcs::Problem, C>(
        "gpu.kloetzli",
        "Kloetzli et al. (EGPGV 2008), our code from their description: tile x tile sub-problems, "
        "a launch per anti-diagonal of tiles (a block per tile), threads sweep each tile's cell "
        "diagonals in shared memory; length only")
        .param("tile", &C::tile, between(32, 1024),
               "side of a block's sub-problem and its threads (one per row)")
        .rule("tile", multiple_of(32))
        .check([](const C& c) { return refusal(why_invalid(c)); })
        .counters({counters::count("kernel_launches", "launches", "one per anti-diagonal of tiles"),
                   counters::count("tiles", "tiles", "tile x tile sub-problems")})
        .check_instance([](const C&, const ValueMap& dims) -> std::optional<std::string> {
          const double longest = std::max(to_number(dims.at("n")), to_number(dims.at("m")));
          if (longest > double(std::numeric_limits<int>::max()))
            return "strings longer than 2^31 - 1 symbols";
          return std::nullopt;
        })
        .memory([](const lcs::Instance& x, const C& c) {
          return MemoryNeed{0, device_bytes(std::int64_t(x.a.size()), std::int64_t(x.b.size()), c)};
        })
        .solve_gpu([](const lcs::Instance& x, const C& c, Context& ctx) {
          Outcome<lcs::Solution> out;
          out.objective = lcs_length(x.a, x.b, c, ctx);
          return out;
        });

}  // namespace
}  // namespace dpgpu::kloetzli
