// cpu.hu_shing as the harness sees it (the algorithm: hu_shing.cpp).
#include "registration.hpp"

namespace mcm::cpu {
namespace {

[[maybe_unused]] const dpgpu::Registered hu_shing_registered =
    dpgpu::solver<Problem>(
        "cpu.hu_shing",
        "Hu and Shing's O(n log n) algorithm (the polygon form: h-arcs, supporting weights, "
        "mergeable heaps), cost and parenthesization, one core")
        .check_instance(int64_rule)
        .memory([](const Instance& x, const dpgpu::Params&) {
          return dpgpu::MemoryNeed{hu_shing_bytes(x), 0};
        })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          return outcome(hu_shing(x));
        });

}  // namespace
}  // namespace mcm::cpu
