// Registers cpu.serial and cpu.pipeline_sim for the S-DP problem.
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

[[maybe_unused]] const dpgpu::Registered sim_registered =
    dpgpu::solver<Problem>("cpu.pipeline_sim",
                           "the p-fold (or 2x2) pipeline in lock-step on the CPU: checks every read is final and "
                           "no element is written twice; counts steps and read conflicts")
        .param("p", std::int64_t{1}, dpgpu::at_least(1), "fold: p·k threads per step (p = 1: the plain pipeline)")
        .choice("variant", "pfold", {"pfold", "2x2"}, "pfold: Figure 6; 2x2: ceil(k/2) threads, two stages each")
        .param("enforce_bound", true, "refuse p above the correctness bound; false: run it and let the checks fail")
        .memory([](const Instance& x, const dpgpu::Params&) {
          return dpgpu::MemoryNeed{std::uint64_t(x.n) * 20, 0};
        })
        .solve([](const Instance& x, const dpgpu::Params& prm, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          const SimReport r = simulate(x, prm.integer("p"), prm.text("variant"), prm.flag("enforce_bound"),
                                       [&] { ctx.check_deadline(); });
          ctx.set("steps", double(r.steps));
          ctx.set("paper_steps", double(prm.text("variant") == "pfold"
                                            ? paper_step_formula(x.n, x.a0(), x.k(), prm.integer("p"))
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
