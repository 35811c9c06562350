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
#include <set>
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
    throw InputError(fmt::format(
        "--gpus '{}': expected all, or GPU indices like 0,1,3 (an index twice: two workers "
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

bool wants_gpu_lane(const CaseSpec& c) {
  return c.backend == Backend::Gpu && c.decision == Decision::Run;
}

std::vector<Lane> make_lanes(const std::string& spec, int cpu_workers, std::string* note) {
  if (cpu_workers < 1) throw InputError("--cpu-workers must be at least 1");
  const std::vector<int> wanted = spec == "all" ? std::vector<int>{} : parse_gpu_list(spec);
  const nlohmann::json gpus = visible_gpus();
  std::vector<Lane> lanes;
  if (gpus.empty()) {
    *note =
        fmt::format("--gpus {}: {}; GPU cases are skipped and only the CPU lane{} run{}", spec,
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
        for (auto& g : gpus)
          seen.push_back(
              fmt::format("{} ({})", g["index"].get<int>(), g["name"].get<std::string>()));
        throw InputError(fmt::format("--gpus {}: there is no GPU {}; this process sees {}: {}",
                                     spec, i, gpus.size(), fmt::join(seen, ", ")));
      }
      const nlohmann::json& g = gpus[std::size_t(i)];
      const int k = ++lanes_on[i];
      Lane lane;
      lane.name = k == 1 ? fmt::format("gpu {}", i) : fmt::format("gpu {} #{}", i, k);
      lane.gpu = true;
      lane.card = i;
      const std::string uuid = g.value("uuid", "");
      // The UUID names the card whatever the device order or an inherited CUDA_VISIBLE_DEVICES.
      lane.device = uuid.empty() ? std::to_string(i) : uuid;
      lane.where.env = {"CUDA_VISIBLE_DEVICES=" + lane.device};
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
    for (std::size_t j = 0; j < per_lane; ++j)
      mine.push_back(left[(std::size_t(w) * per_lane + j) % left.size()]);
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

namespace {
std::size_t distinct_cards(const std::vector<Lane>& lanes) {
  std::set<int> cards;
  for (auto& l : lanes)
    if (l.gpu) cards.insert(l.card);
  return cards.size();
}
}  // namespace

void check_cards(const std::vector<Lane>& lanes, const std::vector<const CaseSpec*>& cases,
                 bool share_gpus) {
  const std::size_t cards = distinct_cards(lanes);
  if (share_gpus || cards == 0) return;  // without GPU lanes the GPU cases are skipped
  for (const CaseSpec* c : cases)
    if (wants_gpu_lane(*c) && std::size_t(cards_wanted(*c)) > cards)
      throw InputError(fmt::format(
          "case '{}' asks for {} GPUs ('gpus') but the --gpus lanes have {} card{}; list more "
          "cards, lower 'gpus', or pass --share-gpus to let its logical GPUs share the cards",
          c->id, cards_wanted(*c), cards, cards == 1 ? "" : "s"));
}

nlohmann::json plain_run_cards(int want) {
  const nlohmann::json gpus = visible_gpus();
  nlohmann::json used = nlohmann::json::array();
  for (std::size_t i = 0; i < gpus.size() && int(i) < want; ++i) used.push_back(gpus[i]);
  return {{"gpus", used}};
}

Lane joined_lane(const std::vector<Lane>& lanes, const std::vector<std::size_t>& taken) {
  if (taken.size() == 1) return lanes[taken.front()];
  Lane j;
  j.gpu = true;
  std::vector<std::string> names, devices;
  nlohmann::json gpus = nlohmann::json::array();
  std::set<int> cards;
  for (std::size_t t : taken) {
    names.push_back(lanes[t].name);
    if (!cards.insert(lanes[t].card).second) continue;  // two lanes of one card: the card once
    devices.push_back(lanes[t].device);
    gpus.push_back(lanes[t].facts.value("gpu", nlohmann::json()));
  }
  j.name = fmt::format("{}", fmt::join(names, " + "));
  j.card = lanes[taken.front()].card;
  j.device = fmt::format("{}", fmt::join(devices, ","));
  j.where = lanes[taken.front()].where;
  for (auto& e : j.where.env)
    if (e.rfind("CUDA_VISIBLE_DEVICES=", 0) == 0) e = "CUDA_VISIBLE_DEVICES=" + j.device;
  j.facts = {{"lane", j.name}, {"gpu", gpus.front()}, {"gpus", gpus}};
  return j;
}

namespace {

// Idle lanes for `c` in lane `me`'s queue, `me` first: one for a CPU or one-GPU case; for a
// case of k GPUs k idle GPU lanes on different cards; with k above the cards, every GPU lane
// (all idle). Empty: not now.
std::vector<std::size_t> lanes_for(const CaseSpec& c, std::size_t me,
                                   const std::vector<Lane>& lanes, const std::vector<bool>& busy) {
  const int want = lanes[me].gpu ? cards_wanted(c) : 1;
  if (want <= 1) return {me};
  const bool all = std::size_t(want) > distinct_cards(lanes);
  std::vector<std::size_t> taken{me};
  std::set<int> cards{lanes[me].card};
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    if (l == me || !lanes[l].gpu) continue;
    if (busy[l]) {
      if (all) return {};
      continue;
    }
    if (all)
      taken.push_back(l);  // every GPU lane: the case runs alone
    else if (int(cards.size()) < want && cards.insert(lanes[l].card).second)
      taken.push_back(l);
  }
  if (!all && int(cards.size()) < want) return {};
  return taken;
}

}  // namespace

void run_on_lanes(const std::vector<Lane>& lanes, const std::vector<const CaseSpec*>& cases,
                  const RunOnLane& run, const CommitRecord& commit,
                  const std::function<bool()>& stop) {
  bool any_gpu_lane = false;
  for (auto& l : lanes) any_gpu_lane = any_gpu_lane || l.gpu;
  // Two queues in plan order; each lane takes the next case of its own, with the lanes (the
  // cards) that case needs: a case at the front that waits for cards holds back those behind it.
  std::deque<const CaseSpec*> queue[2];
  for (const CaseSpec* c : cases) queue[any_gpu_lane && wants_gpu_lane(*c) ? 1 : 0].push_back(c);

  std::mutex m;
  std::condition_variable finished, freed;
  std::deque<CaseRecord> done;
  std::vector<bool> busy(lanes.size(), false);
  std::size_t lanes_running = lanes.size();
  std::exception_ptr failure;
  auto lane_main = [&](std::size_t me) {
    auto& mine = queue[lanes[me].gpu ? 1 : 0];
    for (;;) {
      const CaseSpec* next = nullptr;
      std::vector<std::size_t> taken;
      {
        std::unique_lock lock(m);
        freed.wait(lock, [&] {
          if (failure || stop() || mine.empty()) return true;
          if (busy[me]) return false;
          taken = lanes_for(*mine.front(), me, lanes, busy);
          return !taken.empty();
        });
        if (failure || stop() || mine.empty()) break;
        next = mine.front();
        mine.pop_front();
        for (std::size_t t : taken) busy[t] = true;
      }
      try {
        CaseRecord rec = run(*next, joined_lane(lanes, taken));
        std::lock_guard lock(m);
        done.push_back(std::move(rec));
      } catch (...) {
        std::lock_guard lock(m);
        if (!failure) failure = std::current_exception();
      }
      {
        std::lock_guard lock(m);
        for (std::size_t t : taken) busy[t] = false;
      }
      freed.notify_all();
      finished.notify_one();
    }
    {
      std::lock_guard lock(m);
      --lanes_running;
    }
    freed.notify_all();
    finished.notify_one();
  };
  std::vector<std::thread> threads;
  for (std::size_t l = 0; l < lanes.size(); ++l) threads.emplace_back(lane_main, l);
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
