#include "run/run_case.hpp"

#include <chrono>

#include "dpgpu/error.hpp"
#include "device/host_info.hpp"
#include "plan/instances.hpp"
#include "process/isolate.hpp"
#include "profile/profiler_cupti.hpp"

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
  if (auto why = memory_refusal(job, /*check_device=*/true); !why.empty())
    return failed(Status::Oom, why, true);
  return measure_case(job);
}

ProfileRecord profile(const CaseSpec& spec, const CaseResult& res, const ProfileSettings& settings,
                      double case_wall, const Placement& where) {
  auto& cnt = res.reps.front().counters;
  double launches = cnt.count("kernel_launches") ? cnt.at("kernel_launches") : 0;
  double marked = cnt.count("annotated_launches") ? cnt.at("annotated_launches") : 0;
  ProfilePlan plan = plan_profile(settings.max_launches, launches, marked);
  CaseSpec once = spec;
  once.measure.repetitions = once.measure.max_repetitions = 1;
  once.measure.warmup = 0;
  once.measure.series = false;
  once.profile.reset();
  ProfileOutcome po = profile_case(once, settings.metrics, plan, settings.ncu, where);
  ProfileRecord p;
  p.backend = "ncu";
  p.ok = po.ok;
  p.message = po.message;
  p.sampling = plan.sampling;
  p.wall_s = po.wall_s;
  p.launches_total = launches;
  // Against one timed run in its own process (start-up included), as profiling is.
  const double one_run = case_wall / double(spec.measure.repetitions + spec.measure.warmup);
  p.cost_x = one_run > 0 ? po.wall_s / one_run : 0;
  p.case_wall_s = case_wall;
  p.stats = std::move(po.stats);
  return p;
}

}  // namespace

CaseJob job_of(const CaseSpec& spec, const ProblemEntry& problem, const SolverEntry& solver,
               const AnyInstance& x) {
  CaseJob job;
  job.problem = &problem;
  job.solver = &solver;
  job.instance = &x;
  job.params = solver.schema.resolve(spec.solver_params);
  job.name = spec.id;
  job.measure = spec.measure;
  job.verbose = spec.verbose;
  job.profile = spec.profile;
  return job;
}

// The in-worker profile as the record keeps it: its cost against one timed solve, as ncu's.
ProfileRecord from_worker(const CaseSpec& spec, ProfileRecord p, double case_wall) {
  const double one_run = case_wall / double(spec.measure.repetitions + spec.measure.warmup);
  p.cost_x = one_run > 0 ? p.wall_s / one_run : 0;
  p.case_wall_s = case_wall;
  return p;
}

CaseRecord run_case(const CaseSpec& spec, const ProfileSettings& settings, const Placement* where) {
  const auto start = Clock::now();
  CaseRecord rec;
  rec.spec = spec;
  const bool profiled =
      settings.on && spec.backend == Backend::Gpu && spec.decision == Decision::Run;
  // The CUPTI backend profiles in the worker, after the timed solves: the request travels
  // with the copy that runs, never into the plan or the journal.
  CaseSpec to_run = spec;
  if (profiled && settings.backend == "cupti" && cupti_built()) {
    std::vector<std::string> names, metrics;
    for (auto& m : settings.metrics) names.push_back(m.name), metrics.push_back(m.ncu);
    to_run.profile =
        ProfileRequest{names, metrics, settings.max_launches, settings.ncu.cache_control == "all"};
  }
  auto run = [&](const CaseSpec& s) {
    return where ? run_in_child(s, *where) : s.isolate ? run_in_child(s) : run_here(s);
  };
  if (spec.decision != Decision::Run)
    rec.result = unrun_result(spec);
  else
    rec.result = run(to_run);
  // A worker that died while CUPTI profiled took the timed results with it: run it again
  // without, and profile through ncu.
  if (to_run.profile && rec.result.status == Status::Error && rec.result.reps.empty() &&
      !rec.result.profile) {
    const std::string why = rec.result.message;
    rec.result = run(spec);
    rec.result.profile = ProfileRecord{};
    rec.result.profile->unavailable = true;
    rec.result.profile->message = "the worker failed while CUPTI profiled (" + why + ")";
  }
  std::optional<ProfileRecord> in_worker = std::move(rec.result.profile);
  rec.result.profile.reset();
  const double case_wall = std::chrono::duration<double>(Clock::now() - start).count() -
                           (in_worker ? in_worker->wall_s : 0.0);
  if (profiled && rec.result.status == Status::Ok && !rec.result.reps.empty()) {
    if (in_worker && !in_worker->unavailable) {
      rec.profile = from_worker(spec, *in_worker, case_wall);
    } else {
      rec.profile = profile(spec, rec.result, settings, case_wall, where ? *where : Placement{});
      // Say why ncu stood in for CUPTI.
      std::string note =
          settings.backend != "cupti" ? ""
          : !cupti_built() ? "backend cupti: dpgpu was built without CUPTI; profiled with ncu"
          : in_worker ? "backend cupti unavailable (" + in_worker->message + "); profiled with ncu"
                      : "";
      if (!note.empty())
        rec.profile->message =
            rec.profile->message.empty() ? note : note + "; " + rec.profile->message;
    }
  }
  rec.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  rec.finished = now_iso8601();
  return rec;
}

}  // namespace dpgpu
