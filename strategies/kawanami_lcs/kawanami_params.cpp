// kawanami_params.cpp — registers gpu.kawanami for LCS (the comparator of paper 000's
// Fig. 4a): its one parameter, the rule the kernel needs, the longest string one block holds,
// the memory estimate and the GPU solve. Host C++ only, so CPU-only builds list it.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "dpgpu/registry.hpp"
#include "kawanami_config.hpp"
#include "kawanami_gpu.hpp"
#include "lcs/lcs.hpp"

namespace dpgpu::kawanami {
namespace {

using C = KawanamiConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<lcs::Problem, C>(
        "gpu.kawanami",
        "Kawanami and Fujimoto (2012), our code from their description: Crochemore et al.'s "
        "bit-parallel LCS, bitwise operators parallel over 32-bit words, the sum as a "
        "carry-lookahead over one block's threads, a row per step; length only")
        .param("threads", &C::threads, between(32, 1024),
               "threads of the one block (each owns consecutive words)")
        .rule("threads", multiple_of(32))
        .check([](const C& c) { return refusal(why_invalid(c)); })
        .counters({counters::count("kernel_launches", "launches", "one launch for all rows"),
                   counters::count("words_per_thread", "words", "32-bit words per thread"),
                   counters::count("sigma", "symbols", "distinct symbols of the pair")})
        .check_instance([](const C& c, const ValueMap& dims) -> std::optional<std::string> {
          const double longest = std::max(to_number(dims.at("n")), to_number(dims.at("m")));
          if (longest > double(max_bits(c)))
            return "the longer string exceeds the " + std::to_string(max_bits(c)) +
                   " bits one block of " + std::to_string(c.threads) + " threads holds";
          return std::nullopt;
        })
        .memory([](const lcs::Instance& x, const C&) {
          const std::int64_t n = std::int64_t(std::max(x.a.size(), x.b.size()));
          const std::int64_t m = std::int64_t(std::min(x.a.size(), x.b.size()));
          return MemoryNeed{0, device_bytes(n, m, 255)};
        })
        .solve_gpu([](const lcs::Instance& x, const C& c, Context& ctx) {
          Outcome<lcs::Solution> out;
          out.objective = lcs_length(x.a, x.b, c, ctx);
          return out;
        });

}  // namespace
}  // namespace dpgpu::kawanami
