// worker_main.cpp — the child side of process/isolate: `dpgpu __worker` reads its case,
// builds the instance, measures it and writes the CaseResult back to the parent.
#include "run/worker_main.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

#include "dpgpu/error.hpp"
#include "measure/measure.hpp"
#include "plan/instances.hpp"
#include "process/isolate.hpp"
#include "profile/profiler_cupti.hpp"
#include "run/run_case.hpp"

namespace dpgpu {

namespace {

// "2-5,8" → the set; false when the text is not a CPU list.
bool parse_cpu_list(const std::string& text, cpu_set_t& set) {
  CPU_ZERO(&set);
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string part = text.substr(pos, end - pos);
    int a = 0, b = 0;
    if (std::sscanf(part.c_str(), "%d-%d", &a, &b) == 2) {
    } else if (std::sscanf(part.c_str(), "%d", &a) == 1) {
      b = a;
    } else {
      return false;
    }
    if (a < 0 || b < a || b >= CPU_SETSIZE) return false;
    for (int c = a; c <= b; ++c) CPU_SET(c, &set);
    pos = end + 1;
  }
  return CPU_COUNT(&set) > 0;
}

}  // namespace

int worker_main(int argc, char** argv) {
  // The worker dies with the process that started it: a `dpgpu run` killed by any means
  // (SIGKILL too) leaves no worker solving on its card beside the next run, nor holding the
  // card's clocks busy after the run's guard has reset them. `--parent PID` catches a parent
  // that died before prctl took effect.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  int result_fd = 3;
  std::string request_file, result_file;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string key = argv[i];
    if (key == "--parent" && getppid() != std::atoi(argv[i + 1])) return 3;
    if (key == "--cpus") {
      // Before any thread starts, so every thread of the solver keeps to them.
      cpu_set_t set;
      if (!parse_cpu_list(argv[i + 1], set) || sched_setaffinity(0, sizeof set, &set) != 0)
        std::fprintf(stderr, "warning: cannot keep to CPUs '%s'\n", argv[i + 1]);
    }
    if (key == "--result-fd") result_fd = std::atoi(argv[i + 1]);
    if (key == "--request") request_file = argv[i + 1];
    if (key == "--result") result_file = argv[i + 1];
  }
  if (!result_file.empty()) {
    result_fd = open(result_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (result_fd < 0) return 3;
  }
  CaseResult result;
  try {
    std::string text;
    if (request_file.empty()) {
      text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
      std::ifstream in(request_file);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const CaseSpec spec = case_spec_from_json(nlohmann::json::parse(text));
    if (spec.profile) cupti_preload_start();  // while the instance is built
    const ProblemEntry* problem = Registry::get().problem(spec.problem);
    if (!problem) throw std::runtime_error("unknown problem '" + spec.problem + "'");
    const SolverEntry* solver = Registry::get().solver(spec.problem, spec.solver);
    if (!solver) throw std::runtime_error("unknown solver '" + spec.solver + "'");
    std::optional<AnyInstance> instance;
    try {
      instance = build_instance(*problem, spec.recipe);
    } catch (const InstanceTooLarge& e) {
      result = failed_result(Status::Oom, e.what());
      result.refused = true;
    }
    if (result_file.empty() &&
        write(result_fd, kWorkerReady.data(), kWorkerReady.size()) != ssize_t(kWorkerReady.size()))
      return 3;
    if (instance) {
      CaseJob job = job_of(spec, *problem, *solver, *instance);
      if (auto why = memory_refusal(job, /*check_device=*/true); !why.empty()) {
        result = failed_result(Status::Oom, why);
        result.refused = true;
      } else {
        result = measure_case(job);
      }
    }
  } catch (const std::exception& e) {
    result = failed_result(Status::Error, e.what());
  }
  std::string text = to_json(result).dump();
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(result_fd, text.data() + done, text.size() - done);
    if (n <= 0) return 3;
    done += std::size_t(n);
  }
  close(result_fd);
  return 0;
}

}  // namespace dpgpu
