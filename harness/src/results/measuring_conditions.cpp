#include "results/measuring_conditions.hpp"

#include <sched.h>

#include <cstdlib>
#include <string>

namespace dpgpu {

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

int omp_threads_here() {
  if (const char* env = std::getenv("OMP_NUM_THREADS"); env && std::atoi(env) > 0)
    return std::atoi(env);  // its first number: the outer level's threads
  return usable_cores();
}

nlohmann::json measuring_conditions(const RunPlan& plan, const std::vector<Lane>& lanes) {
  nlohmann::json isolate = nlohmann::json::array();
  for (const Experiment& part : plan.parts) isolate.push_back(part.isolate);
  nlohmann::json names = nlohmann::json::array(), threads = nlohmann::json::array();
  for (const Lane& lane : lanes) {
    names.push_back(lane.name);
    if (!lane.gpu) threads.push_back(lane.facts.value("omp_num_threads", 0));
  }
  if (lanes.empty()) threads.push_back(omp_threads_here());
  return {{"isolate", isolate},
          {"lanes", lanes.empty() ? nlohmann::json("one process") : names},
          {"omp_threads", threads}};
}

}  // namespace dpgpu
