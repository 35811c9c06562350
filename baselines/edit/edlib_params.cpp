// cpu.edlib as the harness sees it (edlib.cpp): libedlib, one pair on one thread.
#include "registration.hpp"

namespace edit::cpu {
namespace {

auto edlib_builder() {
  return dpgpu::solver<edit::Problem, ScriptConfig>(
             "cpu.edlib",
             "libedlib (Debian): Myers' bit-vector with a doubling band, global mode, one thread")
      .param("script", &ScriptConfig::script, "also return the alignment path as an edit script")
      .memory([](const edit::Instance& x, const ScriptConfig& c) {
        // Its bit-vector blocks, and with the path the blocks it keeps per column before it
        // turns to Hirschberg's split for large pairs (taken as at most 1 GiB).
        const std::uint64_t n = x.a.size(), m = x.b.size();
        const std::uint64_t blocks = (n + 63) / 64 * 32 + 3 * (n + m);
        return MemoryNeed{
            c.script ? blocks + std::min<std::uint64_t>(n / 8 * m, 1ull << 30) : blocks, 0};
      });
}

#if DPGPU_WITH_EDLIB
[[maybe_unused]] const auto registered_edlib =
    edlib_builder().solve([](const edit::Instance& x, const ScriptConfig& c, Context& ctx) {
      auto compute = ctx.phase("compute");
      if (c.script) return with_script(edlib_script(x.a, x.b));
      return distance_only(edlib_distance(x.a, x.b));
    });
#else
[[maybe_unused]] const auto registered_edlib = edlib_builder().unavailable(
    "dpgpu was built without libedlib (apt-get install libedlib-dev, or scripts/install-deps.sh, "
    "then re-run cmake)");
#endif

}  // namespace
}  // namespace edit::cpu
