// cpu.hirschberg as the harness sees it (the algorithm: hirschberg.cpp).
#include "registration.hpp"

namespace lcs::cpu {
namespace {

[[maybe_unused]] const auto registered_hirschberg =
    dpgpu::solver<lcs::Problem>("cpu.hirschberg",
                                "Hirschberg divide and conquer: linear space, with certificate")
        .memory([](const lcs::Instance& x, const Params&) {
          return MemoryNeed{2 * row_bytes(x.b.size()) + std::min(x.a.size(), x.b.size()), 0};
        })
        .solve([](const lcs::Instance& x, const Params&, Context& ctx) {
          auto compute = ctx.phase("compute");
          return with_certificate(lcs::cpu::hirschberg(x.a, x.b, deadline_of(ctx)));
        });

}  // namespace
}  // namespace lcs::cpu
