#include "run_case.hpp"

#include <chrono>

#include "dpgpu/error.hpp"
#include "host_info.hpp"
#include "instances.hpp"
#include "isolate.hpp"

namespace dpgpu {

namespace {

using Clock = std::chrono::steady_clock;

CaseResult failed(Status s, std::string message, bool refused = false) {
  CaseResult r;
  r.status = s;
  r.message = std::move(message);
  r.refused = refused;
  return r;
}

// In this process: the instance is built again from its recipe (the planner kept only its
// facts), so memory holds one instance at a time.
CaseResult run_here(const CaseSpec& spec) {
  const ProblemEntry* problem = Registry::get().problem(spec.problem);
  const SolverEntry* solver = Registry::get().solver(spec.problem, spec.solver);
  if (!problem || !solver) return failed(Status::Error, "problem or solver no longer registered");
  AnyInstance x;
  try {
    x = build_instance(*problem, spec.recipe);
  } catch (const InstanceTooLarge& e) {
    return failed(Status::Oom, e.what(), true);
  } catch (const std::exception& e) {
    return failed(Status::Error, std::string("building the instance: ") + e.what());
  }
  CaseJob job = job_of(spec, *problem, *solver, x);
  if (auto why = memory_refusal(job, /*check_device=*/true); !why.empty()) return failed(Status::Oom, why, true);
  return measure_case(job);
}

ProfileRecord profile(const CaseSpec& spec, const CaseResult& res, const ProfileSettings& settings, double case_wall,
                      const Placement& where) {
  auto& cnt = res.reps.front().counters;
  double launches = cnt.count("kernel_launches") ? cnt.at("kernel_launches") : 0;
  double marked = cnt.count("annotated_launches") ? cnt.at("annotated_launches") : 0;
  ProfilePlan plan = plan_profile(settings.max_launches, launches, marked);
  CaseSpec once = spec;
  once.repetitions = once.max_repetitions = 1;
  once.warmup = 0;
  once.series = false;
  ProfileOutcome po = profile_case(once, settings.metrics, plan, settings.ncu, where);
  ProfileRecord p;
  p.ok = po.ok;
  p.message = po.message;
  p.sampling = plan.sampling;
  p.wall_s = po.wall_s;
  p.launches_total = launches;
  // Against one timed run in its own process (start-up included), as profiling is.
  const double one_run = case_wall / double(spec.repetitions + spec.warmup);
  p.cost_x = one_run > 0 ? po.wall_s / one_run : 0;
  p.case_wall_s = case_wall;
  for (auto& s : po.stats) p.stats.push_back({s.kernel, s.metric, s.ncu_metric, s.unit, s.min, s.mean, s.max, s.count});
  return p;
}

}  // namespace

CaseJob job_of(const CaseSpec& spec, const ProblemEntry& problem, const SolverEntry& solver, const AnyInstance& x) {
  CaseJob job;
  job.problem = &problem;
  job.solver = &solver;
  job.instance = &x;
  job.params = solver.schema.resolve(spec.solver_params);
  job.name = spec.id;
  job.repetitions = spec.repetitions;
  job.max_repetitions = std::max(spec.repetitions, spec.max_repetitions);
  job.max_noise = spec.max_noise;
  job.cold = spec.cold;
  job.series = spec.series;
  job.warmup = spec.warmup;
  job.timeout_s = spec.timeout_s;
  job.verbose = spec.verbose;
  return job;
}

CaseRecord run_case(const CaseSpec& spec, const ProfileSettings& settings, const Placement* where) {
  const auto start = Clock::now();
  CaseRecord rec;
  rec.spec = spec;
  if (spec.decision != Decision::Run)
    rec.result = unrun_result(spec);
  else
    rec.result = where ? run_in_child(spec, *where) : spec.isolate ? run_in_child(spec) : run_here(spec);
  const double case_wall = std::chrono::duration<double>(Clock::now() - start).count();
  if (settings.on && spec.backend == Backend::Gpu && rec.result.status == Status::Ok && !rec.result.reps.empty())
    rec.profile = profile(spec, rec.result, settings, case_wall, where ? *where : Placement{});
  rec.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  rec.finished = now_iso8601();
  return rec;
}

}  // namespace dpgpu
