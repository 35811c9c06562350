// cpu.linear as the harness sees it (the algorithm: linear.cpp).
#include "registration.hpp"

namespace lcs::cpu {
namespace {

[[maybe_unused]] const auto registered_linear =
    dpgpu::solver<lcs::Problem>("cpu.linear", "two score rows over the shorter string; length only")
        .memory([](const lcs::Instance& x, const Params&) {
          return MemoryNeed{row_bytes(std::min(x.a.size(), x.b.size())), 0};
        })
        .solve([](const lcs::Instance& x, const Params&, Context& ctx) {
          auto compute = ctx.phase("compute");
          return length_only(lcs::cpu::linear(x.a, x.b, deadline_of(ctx)));
        });

}  // namespace
}  // namespace lcs::cpu
