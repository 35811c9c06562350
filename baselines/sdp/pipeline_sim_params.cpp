// cpu.pipeline_sim as the harness sees it (the algorithm: pipeline_sim.cpp).
#include <fmt/format.h>

#include <optional>
#include <string>

#include "sdp/pipeline_bounds.hpp"
#include "registration.hpp"

namespace sdp::cpu {
using namespace dpgpu::pipeline;  // the pipelines' formulas over the offsets
namespace {

struct SimConfig {
  std::int64_t p = 1;             // fold: p·k threads per step
  std::string variant = "pfold";  // pfold | 2x2
  bool enforce_bound =
      true;  // refuse a p above the correctness bound (2x2: offsets it does not fit)
};

// The correctness bounds against the instance's offsets, when enforced: what simulate()
// would refuse, found by `dpgpu check`.
std::optional<std::string> sim_rule(const SimConfig& c, const Instance& x) {
  if (!c.enforce_bound || !why_malformed(x).empty())
    return std::nullopt;  // malformed: the loader refuses it
  if (c.variant == "2x2") return dpgpu::refusal(why_not_2x2(x.offsets));
  if (c.p > max_fold(x.offsets))
    return fmt::format(
        "'p' = {} exceeds the largest valid fold {} for these offsets (a_t >= (k - t)·p for every "
        "stage t); enforce_bound: false runs it and lets the checks fail",
        c.p, max_fold(x.offsets));
  return std::nullopt;
}

[[maybe_unused]] const dpgpu::Registered sim_registered =
    dpgpu::solver<Problem, SimConfig>(
        "cpu.pipeline_sim",
        "the p-fold (or 2x2) pipeline in lock-step on the CPU: checks every read is final "
        "and no element is written twice; counts steps and read conflicts")
        .param("p", &SimConfig::p, dpgpu::at_least(1),
               "fold: p·k threads per step (p = 1: the plain pipeline)")
        .choice("variant", &SimConfig::variant, {"pfold", "2x2"},
                "pfold: Figure 6; 2x2: ceil(k/2) threads, two stages each")
        .param("enforce_bound", &SimConfig::enforce_bound,
               "refuse p above the correctness bound; false: run it and let the checks fail")
        .check([](const SimConfig& c) -> std::optional<std::string> {
          if (c.variant == "2x2" && c.p != 1)
            return fmt::format("'variant' 2x2 needs 'p' = 1, got {}", c.p);
          return std::nullopt;
        })
        .check_instance(sim_rule)
        .counter("steps", dpgpu::CounterKind::Count, "lock-step steps of the pipeline", "steps")
        .counter("paper_steps", dpgpu::CounterKind::Count, "steps by the paper's formula", "steps")
        .counter("threads", dpgpu::CounterKind::Count, "threads of one step", "threads")
        .counter("reads", dpgpu::CounterKind::Count, "table reads", "reads")
        .counter("read_conflicts", dpgpu::CounterKind::Count,
                 "reads of one element by several threads in a step", "reads")
        .counter("max_readers", dpgpu::CounterKind::Count,
                 "most threads reading one element in a step", "threads")
        .counter("conflict_steps", dpgpu::CounterKind::Count, "steps with a read conflict", "steps")
        .counter("model_time", dpgpu::CounterKind::Count,
                 "the model's time: steps, conflicts serialised", "model time units")
        .counter("max_p", dpgpu::CounterKind::Count, "the largest valid fold for the offsets",
                 "fold")
        .memory([](const Instance& x, const SimConfig&) {
          return dpgpu::MemoryNeed{std::uint64_t(x.n) * 20, 0};
        })
        .solve([](const Instance& x, const SimConfig& c, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          const SimReport r =
              simulate(x, c.p, c.variant, c.enforce_bound, [&] { ctx.check_deadline(); });
          ctx.set("steps", double(r.steps));
          ctx.set("paper_steps",
                  double(c.variant == "pfold" ? paper_step_formula(x.n, x.a0(), x.k(), c.p)
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
