#include "scale/worker_pool.hpp"

#include <sched.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include "dpgpu/error.hpp"
#include "device/host_info.hpp"

namespace dpgpu {

namespace {

// The CPUs this process may use (a Slurm job's or taskset's), in order.
std::vector<int> own_cpus() {
  cpu_set_t set;
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  if (out.empty()) out.push_back(0);
  return out;
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    parts.push_back(i == j ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

std::vector<int> parse_gpu_list(const std::string& spec) {
  static const std::regex form(R"(\s*\d{1,4}\s*(,\s*\d{1,4}\s*)*)");
  if (!std::regex_match(spec, form))
    throw InputError(fmt::format("--gpus '{}': expected all, or GPU indices like 0,1,3 (an index twice: two workers "
                                 "share that card)",
                                 spec));
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= spec.size()) {
    std::size_t end = spec.find(',', pos);
    if (end == std::string::npos) end = spec.size();
    out.push_back(std::stoi(spec.substr(pos, end - pos)));
    pos = end + 1;
  }
  return out;
}

}  // namespace

bool wants_gpu_lane(const CaseSpec& c) { return c.backend == Backend::Gpu && c.decision == Decision::Run; }

std::vector<Lane> make_lanes(const std::string& spec, int cpu_workers, std::string* note) {
  if (cpu_workers < 1) throw InputError("--cpu-workers must be at least 1");
  const std::vector<int> wanted = spec == "all" ? std::vector<int>{} : parse_gpu_list(spec);
  const nlohmann::json gpus = visible_gpus();
  std::vector<Lane> lanes;
  if (gpus.empty()) {
    *note = fmt::format("--gpus {}: {}; GPU cases are skipped and only the CPU lane{} run{}", spec,
                        gpu_unavailable_reason().empty() ? "no CUDA device" : gpu_unavailable_reason(),
                        cpu_workers > 1 ? "s" : "", cpu_workers > 1 ? "" : "s");
  } else {
    std::vector<int> indices = wanted;
    if (spec == "all")
      for (std::size_t i = 0; i < gpus.size(); ++i) indices.push_back(int(i));
    std::map<int, int> lanes_on;
    for (int i : indices) {
      if (i >= int(gpus.size())) {
        std::vector<std::string> seen;
        for (auto& g : gpus) seen.push_back(fmt::format("{} ({})", g["index"].get<int>(), g["name"].get<std::string>()));
        throw InputError(fmt::format("--gpus {}: there is no GPU {}; this process sees {}: {}", spec, i, gpus.size(),
                                     fmt::join(seen, ", ")));
      }
      const nlohmann::json& g = gpus[std::size_t(i)];
      const int k = ++lanes_on[i];
      Lane lane;
      lane.name = k == 1 ? fmt::format("gpu {}", i) : fmt::format("gpu {} #{}", i, k);
      lane.gpu = true;
      const std::string uuid = g.value("uuid", "");
      // The UUID names the card whatever the device order or an inherited CUDA_VISIBLE_DEVICES.
      lane.where.env = {"CUDA_VISIBLE_DEVICES=" + (uuid.empty() ? std::to_string(i) : uuid)};
      lane.facts = {{"lane", lane.name}, {"gpu", g}};
      lanes.push_back(std::move(lane));
    }
  }
  // CPU lanes: the CPUs left after one per GPU lane, split between them.
  const std::vector<int> cpus = own_cpus();
  const std::size_t reserved = lanes.size() < cpus.size() ? lanes.size() : 0;
  const std::vector<int> left(cpus.begin() + long(reserved), cpus.end());
  const std::size_t per_lane = std::max<std::size_t>(1, left.size() / std::size_t(cpu_workers));
  for (int w = 0; w < cpu_workers; ++w) {
    std::vector<int> mine;
    for (std::size_t j = 0; j < per_lane; ++j) mine.push_back(left[(std::size_t(w) * per_lane + j) % left.size()]);
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    Lane lane;
    lane.name = cpu_workers == 1 ? "cpu" : fmt::format("cpu {}", w);
    lane.where.cpus = cpu_list(mine);
    lane.where.env = {"OMP_NUM_THREADS=" + std::to_string(mine.size())};
    lane.facts = {{"lane", lane.name}, {"cpus", lane.where.cpus}, {"omp_num_threads", mine.size()}};
    lanes.push_back(std::move(lane));
  }
  return lanes;
}

void run_on_lanes(const std::vector<Lane>& lanes, const std::vector<const CaseSpec*>& cases, const RunOnLane& run,
                  const CommitRecord& commit, const std::function<bool()>& stop) {
  bool any_gpu_lane = false;
  for (auto& l : lanes) any_gpu_lane = any_gpu_lane || l.gpu;
  // Two queues in plan order; each lane takes the next case of its own.
  std::deque<const CaseSpec*> queue[2];
  for (const CaseSpec* c : cases) queue[any_gpu_lane && wants_gpu_lane(*c) ? 1 : 0].push_back(c);

  std::mutex m;
  std::condition_variable finished;
  std::deque<CaseRecord> done;
  std::size_t lanes_running = lanes.size();
  std::exception_ptr failure;
  auto lane_main = [&](const Lane& lane) {
    auto& mine = queue[lane.gpu ? 1 : 0];
    for (;;) {
      const CaseSpec* next = nullptr;
      {
        std::lock_guard lock(m);
        if (failure || stop() || mine.empty()) break;
        next = mine.front();
        mine.pop_front();
      }
      try {
        CaseRecord rec = run(*next, lane);
        std::lock_guard lock(m);
        done.push_back(std::move(rec));
      } catch (...) {
        std::lock_guard lock(m);
        if (!failure) failure = std::current_exception();
      }
      finished.notify_one();
    }
    {
      std::lock_guard lock(m);
      --lanes_running;
    }
    finished.notify_one();
  };
  std::vector<std::thread> threads;
  for (auto& lane : lanes) threads.emplace_back(lane_main, std::cref(lane));
  for (;;) {
    std::unique_lock lock(m);
    finished.wait(lock, [&] { return !done.empty() || lanes_running == 0; });
    if (done.empty() && lanes_running == 0) break;
    CaseRecord rec = std::move(done.front());
    done.pop_front();
    if (failure) continue;  // nothing more is committed once something broke
    lock.unlock();
    try {
      commit(std::move(rec));  // the journal's one writer
    } catch (...) {
      std::lock_guard relock(m);
      if (!failure) failure = std::current_exception();
    }
  }
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace dpgpu
