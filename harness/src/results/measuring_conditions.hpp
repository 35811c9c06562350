// measuring_conditions.hpp — how a run measures its cases beyond what the plan fixes: which
// run in a child process (the experiment's isolate:), on which worker lanes (--gpus,
// --cpu-workers) and with how many OpenMP threads. plan.json records them; a run continuing
// the folder (--resume, --filter) must find them unchanged (results_folder.hpp), since its
// cases keep the same ids.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/plan.hpp"
#include "scale/worker_pool.hpp"

namespace dpgpu {

// {"isolate": [each part's], "lanes": [names] or "one process", "omp_threads": [per lane]}
nlohmann::json measuring_conditions(const RunPlan& plan, const std::vector<Lane>& lanes);

// The CPUs this process may run on (its affinity: a Slurm job's, taskset's), at least 1.
int usable_cores();

// The OpenMP threads a solver in this process (or a child it starts without a lane) gets:
// OMP_NUM_THREADS where set, else the CPUs this process may run on.
int omp_threads_here();

}  // namespace dpgpu
