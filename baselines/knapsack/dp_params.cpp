// cpu.dp as the harness sees it (the algorithm: dp.cpp).
#include "registration.hpp"

namespace knapsack::cpu {
namespace {

[[maybe_unused]] const auto registered_dp =
    dpgpu::solver<knapsack::Problem>(
        "cpu.dp", "serial DP over one array of C+1 values, decision bits for the certificate")
        .counter("cell_bits", dpgpu::CounterKind::Count, "width of a DP cell (32 or 64)", "bits")
        .memory([](const knapsack::Instance& x, const Params&) {
          return MemoryNeed{knapsack::cpu::dp_bytes(x), 0};
        })
        .solve([](const knapsack::Instance& x, const Params&, Context& ctx) {
          const auto bytes = knapsack::cpu::dp_bytes(x);
          count_dp(ctx, x);
          return allocating("cpu.dp", bytes, [&] {
            auto compute = ctx.phase("compute");
            return with_certificate(knapsack::cpu::dp(x, deadline_of(ctx)));
          });
        });

}  // namespace
}  // namespace knapsack::cpu
