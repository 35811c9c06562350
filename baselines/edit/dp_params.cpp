// cpu.dp as the harness sees it: the reference recurrence (problems/edit/reference.hpp).
#include "registration.hpp"

namespace edit::cpu {
namespace {

[[maybe_unused]] const auto registered_dp =
    dpgpu::solver<edit::Problem, ScriptConfig>(
        "cpu.dp", "the textbook recurrence over two rows; the script by Hirschberg (linear space)")
        .param("script", &ScriptConfig::script,
               "also return an edit script (Hirschberg: about twice the cells)")
        .memory([](const edit::Instance& x, const ScriptConfig& c) {
          const std::uint64_t row = (std::min(x.a.size(), x.b.size()) + 1) * 8;
          const std::uint64_t script = c.script ? 3 * (x.a.size() + x.b.size()) : 0;
          return MemoryNeed{4 * row + script + (std::uint64_t{1} << 20), 0};
        })
        .solve([](const edit::Instance& x, const ScriptConfig& c, Context& ctx) {
          auto compute = ctx.phase("compute");
          if (c.script) return with_script(hirschberg_script(x.a, x.b, deadline_of(ctx)));
          return distance_only(reference_distance(x.a, x.b, deadline_of(ctx)));
        });

}  // namespace
}  // namespace edit::cpu
