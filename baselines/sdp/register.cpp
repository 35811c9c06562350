// Registers cpu.serial and cpu.pipeline_sim for the S-DP problem.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "dpgpu/registry.hpp"
#include "pipeline_bounds.hpp"
#include "sdp_cpu.hpp"

namespace sdp::cpu {

using namespace dpgpu::pipeline;  // the pipelines' formulas (strategies/pipeline)
namespace {

dpgpu::Outcome<Solution> outcome(const TableAnswer& a) {
  dpgpu::Outcome<Solution> o;
  o.objective = dpgpu::Objective(a.objective);
  o.checksum = a.checksum;
  o.solution = Solution{a.checksum};
  return o;
}

[[maybe_unused]] const dpgpu::Registered serial_registered =
    dpgpu::solver<Problem>("cpu.serial", "the paper's Figure 1: ST[i] from its k predecessors, i = a0..n-1")
        .memory([](const Instance& x, const dpgpu::Params&) {
          return dpgpu::MemoryNeed{std::uint64_t(x.n) * (fits_32_bits(x) ? 4u : 8u), 0};
        })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          return outcome(serial(x, [&] { ctx.check_deadline(); }));
        });

struct SimConfig {
  std::int64_t p = 1;             // fold: p·k threads per step
  std::string variant = "pfold";  // pfold | 2x2
  bool enforce_bound = true;      // refuse a p above the correctness bound (2x2: offsets it does not fit)
};

// The correctness bounds against the instance's offsets, when enforced: what simulate()
// would refuse, found by `dpgpu check`.
std::optional<std::string> sim_rule(const SimConfig& c, const Instance& x) {
  if (!c.enforce_bound || !why_malformed(x).empty()) return std::nullopt;  // malformed: the loader refuses it
  if (c.variant == "2x2") return dpgpu::refusal(why_not_2x2(x.offsets));
  if (c.p > max_fold(x.offsets))
    return fmt::format("'p' = {} exceeds the largest valid fold {} for these offsets (a_t >= (k - t)·p for every "
                       "stage t); enforce_bound: false runs it and lets the checks fail",
                       c.p, max_fold(x.offsets));
  return std::nullopt;
}

[[maybe_unused]] const dpgpu::Registered sim_registered =
    dpgpu::solver<Problem, SimConfig>("cpu.pipeline_sim",
                                      "the p-fold (or 2x2) pipeline in lock-step on the CPU: checks every read is final "
                                      "and no element is written twice; counts steps and read conflicts")
        .param("p", &SimConfig::p, dpgpu::at_least(1), "fold: p·k threads per step (p = 1: the plain pipeline)")
        .choice("variant", &SimConfig::variant, {"pfold", "2x2"}, "pfold: Figure 6; 2x2: ceil(k/2) threads, two stages each")
        .param("enforce_bound", &SimConfig::enforce_bound,
               "refuse p above the correctness bound; false: run it and let the checks fail")
        .check([](const SimConfig& c) -> std::optional<std::string> {
          if (c.variant == "2x2" && c.p != 1) return fmt::format("'variant' 2x2 needs 'p' = 1, got {}", c.p);
          return std::nullopt;
        })
        .check_instance(sim_rule)
        .memory([](const Instance& x, const SimConfig&) { return dpgpu::MemoryNeed{std::uint64_t(x.n) * 20, 0}; })
        .solve([](const Instance& x, const SimConfig& c, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          const SimReport r = simulate(x, c.p, c.variant, c.enforce_bound, [&] { ctx.check_deadline(); });
          ctx.set("steps", double(r.steps));
          ctx.set("paper_steps", double(c.variant == "pfold" ? paper_step_formula(x.n, x.a0(), x.k(), c.p)
                                                             : pipeline2x2_steps(x.n, x.a0(), x.k())));
          ctx.set("threads", double(r.threads));
          ctx.set("reads", double(r.reads));
          ctx.set("read_conflicts", double(r.read_conflicts));
          ctx.set("max_readers", double(r.max_readers));
          ctx.set("conflict_steps", double(r.conflict_steps));
          ctx.set("model_time", double(r.model_time));
          ctx.set("max_p", double(max_fold(x.offsets)));
          return outcome(r.answer);
        });

}  // namespace
}  // namespace sdp::cpu
