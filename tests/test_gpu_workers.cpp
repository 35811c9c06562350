// `dpgpu run --gpus`: lanes pulling cases from queues, the parent the only committer. The
// pool's logic with fake lanes and cases (GPU lanes on a machine without a GPU too), then
// the real dpgpu_toy binary: `--gpus 0,0` gives a plain run's rows, and an interrupted pooled
// run resumes without losing or repeating a case.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "dpgpu/error.hpp"
#include "e2e_support.hpp"
#include "device/host_info.hpp"
#include "scaleout_support.hpp"
#include "scale/worker_pool.hpp"

using e2e::read_csv;
using e2e::run;
namespace fs = std::filesystem;

namespace {

const std::string kToy = DPGPU_TOY_BIN;

std::vector<dpgpu::CaseSpec> fake_cases() {
  std::vector<dpgpu::CaseSpec> cases;
  for (int i = 0; i < 30; ++i) {
    dpgpu::CaseSpec c;
    c.id = "case" + std::to_string(i);
    c.backend = i % 3 == 0 ? dpgpu::Backend::Cpu : dpgpu::Backend::Gpu;
    if (i % 5 == 4) c.decision = dpgpu::Decision::Skip;  // GPU and CPU cases not run
    cases.push_back(c);
  }
  return cases;
}

std::vector<dpgpu::Lane> fake_lanes() {
  std::vector<dpgpu::Lane> lanes(3);
  lanes[0].name = "gpu 0", lanes[0].gpu = true;
  lanes[1].name = "gpu 0 #2", lanes[1].gpu = true;
  lanes[2].name = "cpu";
  return lanes;
}

}  // namespace

TEST(WorkerPool, GpuLanesTakeRunningGpuCasesCpuLanesTheRestEachOnceCommittedHere) {
  const auto cases = fake_cases();
  std::vector<const dpgpu::CaseSpec*> todo;
  for (auto& c : cases) todo.push_back(&c);
  std::atomic<int> running{0}, most{0};
  std::mutex m;
  std::map<std::string, std::string> lane_of;
  auto run_case = [&](const dpgpu::CaseSpec& c, const dpgpu::Lane& lane) {
    const int now = ++running;
    for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    --running;
    dpgpu::CaseRecord r;
    r.spec = c;
    r.worker = {{"lane", lane.name}};
    return r;
  };
  const auto caller = std::this_thread::get_id();
  std::vector<std::string> committed;
  auto commit = [&](dpgpu::CaseRecord r) {
    EXPECT_EQ(std::this_thread::get_id(), caller) << "only the calling thread commits";
    committed.push_back(r.spec.id);
    lane_of[r.spec.id] = r.worker["lane"];
  };
  dpgpu::run_on_lanes(fake_lanes(), todo, run_case, commit, [] { return false; });
  ASSERT_EQ(committed.size(), cases.size());
  EXPECT_EQ(std::set<std::string>(committed.begin(), committed.end()).size(), cases.size())
      << "each case once";
  std::set<std::string> gpu_lanes_used;
  for (auto& c : cases) {
    const std::string& lane = lane_of[c.id];
    if (dpgpu::wants_gpu_lane(c)) {
      EXPECT_NE(lane, "cpu") << c.id;
      gpu_lanes_used.insert(lane);
    } else {
      EXPECT_EQ(lane, "cpu") << c.id << ": CPU and skipped cases go to the CPU lane";
    }
  }
  EXPECT_EQ(gpu_lanes_used.size(), 2u) << "both workers of the shared card took cases";
  EXPECT_GE(most.load(), 2) << "lanes run at the same time";
}

TEST(WorkerPool, StopLetsRunningCasesFinishAndStartsNoOther) {
  const auto cases = fake_cases();
  std::vector<const dpgpu::CaseSpec*> todo;
  for (auto& c : cases) todo.push_back(&c);
  std::atomic<int> started{0};
  std::atomic<bool> stop{false};
  auto run_case = [&](const dpgpu::CaseSpec& c, const dpgpu::Lane&) {
    ++started;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    dpgpu::CaseRecord r;
    r.spec = c;
    return r;
  };
  std::size_t committed = 0;
  int started_at_stop = 0;
  auto commit = [&](dpgpu::CaseRecord) {
    if (++committed == 4) started_at_stop = started.load(), stop = true;
  };
  dpgpu::run_on_lanes(fake_lanes(), todo, run_case, commit, [&] { return stop.load(); });
  EXPECT_EQ(int(committed), started.load()) << "every case started was committed";
  EXPECT_LT(committed, cases.size()) << "stopped early";
  EXPECT_LE(started.load(), started_at_stop + 3)
      << "at most one case per lane (three) raced the stop";
}

TEST(WorkerPool, ALaneThatThrowsStopsThePoolAndTheErrorReachesTheCaller) {
  const auto cases = fake_cases();
  std::vector<const dpgpu::CaseSpec*> todo;
  for (auto& c : cases) todo.push_back(&c);
  std::atomic<int> started{0};
  auto run_case = [&](const dpgpu::CaseSpec& c, const dpgpu::Lane&) -> dpgpu::CaseRecord {
    if (++started == 3) throw std::runtime_error("cannot start worker process");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    dpgpu::CaseRecord r;
    r.spec = c;
    return r;
  };
  std::size_t committed = 0;
  EXPECT_THROW(dpgpu::run_on_lanes(
                   fake_lanes(), todo, run_case, [&](dpgpu::CaseRecord) { ++committed; },
                   [] { return false; }),
               std::runtime_error);
  EXPECT_LT(committed, cases.size());
}

// Multi-GPU cases (solver parameter `gpus`): k lanes on k different cards at once, never a
// card that another case holds; the child sees exactly those cards; a case asking for more
// cards than the lanes have (allowed by --share-gpus) runs alone on all of them.
static std::vector<std::string> split(const std::string& list) {  // "a,b,c"
  std::vector<std::string> out;
  for (std::size_t at = 0;;) {
    const std::size_t end = list.find(',', at);
    out.push_back(list.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) return out;
    at = end + 1;
  }
}

TEST(WorkerPool, MultiGpuCasesTakeDistinctCardsNeverDoubleBooked) {
  std::vector<dpgpu::Lane> lanes(5);
  for (int g = 0; g < 4; ++g) {
    lanes[std::size_t(g)].name = "gpu " + std::to_string(g), lanes[std::size_t(g)].gpu = true;
    lanes[std::size_t(g)].card = g, lanes[std::size_t(g)].device = "GPU-" + std::to_string(g);
    lanes[std::size_t(g)].where.env = {"CUDA_VISIBLE_DEVICES=GPU-" + std::to_string(g)};
    lanes[std::size_t(g)].facts = {{"lane", lanes[std::size_t(g)].name},
                                   {"gpu", {{"index", g}, {"uuid", "GPU-" + std::to_string(g)}}}};
  }
  lanes[4].name = "cpu";
  std::vector<dpgpu::CaseSpec> cases;
  const int wants[] = {1, 2, 4, 1, 1, 2, 8, 1, 2, 2, 4, 1, 3, 1};
  for (int i = 0; i < int(std::size(wants)); ++i) {
    dpgpu::CaseSpec c;
    c.id = "case" + std::to_string(i);
    c.backend = dpgpu::Backend::Gpu;
    c.solver_params["gpus"] = std::int64_t(wants[i]);
    cases.push_back(c);
  }
  std::vector<const dpgpu::CaseSpec*> todo;
  for (auto& c : cases) todo.push_back(&c);
  EXPECT_THROW(dpgpu::check_cards(lanes, todo, false), dpgpu::InputError) << "gpus 8 on 4 cards";
  EXPECT_NO_THROW(dpgpu::check_cards(lanes, todo, true));

  std::mutex m;
  std::map<std::string, int> holders;  // device -> cases holding it now
  int running = 0, alone_violations = 0, double_booked = 0;
  std::map<std::string, std::string> visible;
  auto run_case = [&](const dpgpu::CaseSpec& c, const dpgpu::Lane& lane) {
    std::string env;
    for (auto& e : lane.where.env)
      if (e.rfind("CUDA_VISIBLE_DEVICES=", 0) == 0) env = e.substr(21);
    const std::vector<std::string> devices = split(env);
    {
      std::lock_guard lock(m);
      visible[c.id] = env;
      ++running;
      for (auto& d : devices) double_booked += ++holders[d] > 1;
      if (dpgpu::cards_wanted(c) > 4 && running > 1) ++alone_violations;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    {
      std::lock_guard lock(m);
      if (dpgpu::cards_wanted(c) > 4 && running > 1) ++alone_violations;
      --running;
      for (auto& d : devices) --holders[d];
    }
    dpgpu::CaseRecord r;
    r.spec = c;
    r.worker = lane.facts;
    return r;
  };
  std::map<std::string, nlohmann::json> worker;
  dpgpu::run_on_lanes(
      lanes, todo, run_case, [&](dpgpu::CaseRecord r) { worker[r.spec.id] = r.worker; },
      [] { return false; });
  ASSERT_EQ(worker.size(), cases.size());
  EXPECT_EQ(double_booked, 0) << "a card held by two cases at once";
  EXPECT_EQ(alone_violations, 0) << "gpus 8 on 4 cards runs alone";
  for (auto& c : cases) {
    const int k = std::min(dpgpu::cards_wanted(c), 4);
    const std::vector<std::string> devices = split(visible[c.id]);
    EXPECT_EQ(int(std::set<std::string>(devices.begin(), devices.end()).size()), k)
        << c.id << " saw " << visible[c.id];
    EXPECT_EQ(int(devices.size()), k) << c.id << ": each card once";
    if (k > 1) {
      ASSERT_TRUE(worker[c.id].contains("gpus")) << c.id;
      EXPECT_EQ(int(worker[c.id]["gpus"].size()), k) << c.id << ": the record names every card";
    }
  }
}

// `dpgpu check` holds a case's `gpus` to the GPUs of the host (where there is one): more is an
// error naming the parameter, unless --share-gpus. Skipped without a GPU (the cases are then
// skipped, and their rule with them).
TEST(WorkerPool, CheckRefusesMoreGpusThanTheHostHasUnlessShared) {
  const std::size_t cards = dpgpu::visible_gpus().size();
  if (cards == 0) GTEST_SKIP() << "no GPU: GPU cases are skipped before this rule";
  e2e::TempDir dir;
  const fs::path file = dir.write("many.yaml",
                                  "name: many\nproblem: lcs\ninstances:\n  - generator: random\n"
                                  "    params: {n: 5000}\nsolvers:\n  - name: gpu.bitparallel\n"
                                  "    params: {gpus: " +
                                      std::to_string(cards + 1) + "}\n");
  const auto refused = run(std::string(DPGPU_BIN) + " check " + file.string());
  EXPECT_EQ(refused.code, 2) << refused.output;
  EXPECT_NE(refused.output.find("'gpus' is " + std::to_string(cards + 1)), std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("--share-gpus"), std::string::npos) << refused.output;
  const auto shared = run(std::string(DPGPU_BIN) + " check --share-gpus " + file.string());
  EXPECT_EQ(shared.code, 0) << shared.output;
}

// `gpus: all` through the real dpgpu (its resolution: test_experiment's GpusAllIsTheHostsCardCount):
// `check` takes it on any host, and the case id keeps "gpus=all".
TEST(WorkerPool, GpusAllIsTakenByCheckAndNamedInTheCaseId) {
  e2e::TempDir dir;
  const fs::path file = dir.write("all.yaml",
                                  "name: every\nproblem: lcs\ninstances:\n  - generator: random\n"
                                  "    params: {n: 5000}\nsolvers:\n  - name: gpu.bitparallel\n"
                                  "    params: {gpus: [1, all]}\n");
  const auto checked = run(std::string(DPGPU_BIN) + " check " + file.string());
  EXPECT_EQ(checked.code, 0) << checked.output;
  EXPECT_NE(checked.output.find("gpu.bitparallel[gpus=all]"), std::string::npos) << checked.output;
}

TEST(WorkerPool, LanesOfThisMachine) {
  std::string note;
  EXPECT_THROW(dpgpu::make_lanes("0,x", 1, &note), dpgpu::InputError);
  EXPECT_THROW(dpgpu::make_lanes("", 1, &note), dpgpu::InputError);
  EXPECT_THROW(dpgpu::make_lanes("0", 0, &note), dpgpu::InputError);
  const auto gpus = dpgpu::visible_gpus();
  const auto lanes = dpgpu::make_lanes("0,0", 2, &note);
  std::size_t gpu_lanes = 0;
  for (auto& l : lanes) gpu_lanes += l.gpu;
  if (gpus.empty()) {
    EXPECT_EQ(gpu_lanes, 0u) << "no GPU: no GPU lanes";
    EXPECT_NE(note.find("GPU cases are skipped"), std::string::npos) << note;
  } else {
    ASSERT_EQ(gpu_lanes, 2u) << "two workers share card 0";
    EXPECT_EQ(lanes[0].where.env, lanes[1].where.env);
    EXPECT_EQ(lanes[0].where.env.at(0),
              "CUDA_VISIBLE_DEVICES=" + gpus[0]["uuid"].get<std::string>());
    EXPECT_EQ(lanes[1].name, "gpu 0 #2");
    EXPECT_THROW(dpgpu::make_lanes(std::to_string(gpus.size()), 1, &note), dpgpu::InputError);
  }
  ASSERT_EQ(lanes.size(), gpu_lanes + 2) << "two CPU lanes";
  for (std::size_t i = gpu_lanes; i < lanes.size(); ++i) {
    EXPECT_FALSE(lanes[i].gpu);
    EXPECT_FALSE(lanes[i].where.cpus.empty());
    EXPECT_EQ(lanes[i].where.env.at(0).rfind("OMP_NUM_THREADS=", 0), 0u);
  }
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  if (CPU_COUNT(&set) >= int(gpu_lanes) + 2)
    EXPECT_NE(lanes[gpu_lanes].where.cpus, lanes[gpu_lanes + 1].where.cpus)
        << "CPU lanes split the CPUs";
}

namespace {

// CPU solvers (one sleeping, so cases overlap), one GPU solver that is never available, and
// series: 40 cases.
std::string sweep(const std::string& name, const std::string& sleep = "[0, 3]") {
  return "name: " + name +
         "\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [1, 2, 3, 4, 5, 6, 7, "
         "8, 9, 10]}\n"
         "solvers:\n  - name: cpu.right\n    params: {sleep_ms: " +
         sleep +
         "}\n  - name: cpu.steps\n  - name: gpu.none\n"
         "repetitions: 2\nwarmup: 0\ntimeout_s: 30\nseries: true\n";
}

}  // namespace

TEST(GpuWorkers, TwoWorkersOnOneCardGiveAPlainRunsRows) {
  e2e::TempDir d;
  auto yaml = d.write("g.yaml", sweep("pool"));
  auto plain = run(kToy + " run " + yaml.string() + " --out " + (d.path / "plain").string());
  ASSERT_EQ(plain.code, 0) << plain.output;
  for (std::string workers : {"1", "2"}) {
    const fs::path out = d.path / ("pool" + workers);
    auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() +
                 " --gpus 0,0 --cpu-workers " + workers);
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("40 of 40 cases recorded"), std::string::npos) << r.output;
    scaleout::expect_same_results(d.path / "plain", out);
    auto context = nlohmann::json::parse(e2e::slurp(out / "context.json"));
    ASSERT_TRUE(context.contains("lanes")) << context.dump();
    std::size_t journal_lines = 0;
    std::istringstream journal(e2e::slurp(out / "journal.jsonl"));
    for (std::string line; std::getline(journal, line); ++journal_lines)
      EXPECT_TRUE(nlohmann::json::parse(line).contains("worker")) << "each record names its lane";
    EXPECT_EQ(journal_lines, 40u);
    if (dpgpu::visible_gpus().empty())
      EXPECT_NE(r.output.find("GPU cases are skipped"), std::string::npos) << r.output;
  }
}

TEST(GpuWorkers, InterruptedPooledRunResumesWithoutLossOrDuplicates) {
  for (int sig : {SIGINT, SIGKILL}) {
    e2e::TempDir d;
    auto yaml = d.write("g.yaml", sweep("poolstop", "[40, 80]"));
    const fs::path out = d.path / "out";
    pid_t pid = scaleout::start(
        kToy, {"run", yaml.string(), "--out", out.string(), "--gpus", "0,0", "--cpu-workers", "2"},
        d.path / "log.txt");
    ASSERT_TRUE(
        scaleout::wait_for([&] { return scaleout::lines_in(out / "journal.jsonl") >= 3; }, 30));
    kill(pid, sig);
    EXPECT_EQ(scaleout::wait_exit(pid), 128 + sig) << e2e::slurp(d.path / "log.txt");
    if (sig == SIGINT)
      EXPECT_NE(e2e::slurp(d.path / "log.txt")
                    .find("--gpus 0,0 --cpu-workers 2 --out " + out.string() + " --resume"),
                std::string::npos)
          << e2e::slurp(d.path / "log.txt");
    const std::size_t done = scaleout::lines_in(out / "journal.jsonl");
    EXPECT_LT(done, 40u) << "stopped early";
    if (sig == SIGINT)
      EXPECT_EQ(read_csv(out / "summary.csv").size(), done) << "outputs hold every committed case";
    auto resumed = run(kToy + " run " + yaml.string() + " --out " + out.string() +
                       " --resume --gpus 0,0 --cpu-workers 2");
    ASSERT_EQ(resumed.code, 0) << resumed.output;
    EXPECT_EQ(scaleout::lines_in(out / "journal.jsonl"), 40u) << "each case once in the journal";
    ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + (d.path / "plain").string()).code,
              0);
    scaleout::expect_same_results(d.path / "plain", out);
  }
}

TEST(GpuWorkers, ABadGpuListIsExitTwoWithNothingWritten) {
  e2e::TempDir d;
  auto yaml = d.write("g.yaml", sweep("badgpus"));
  for (std::string bad : {"0,x", "-1", "all,0"}) {
    auto r = run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string() +
                 " --gpus " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--gpus"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(d.path / "out")) << "nothing written";
  }
  if (!dpgpu::visible_gpus().empty()) {
    auto r =
        run(kToy + " run " + yaml.string() + " --out " + (d.path / "out").string() + " --gpus 99");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("there is no GPU 99"), std::string::npos) << r.output;
  }
}

namespace {

// The first child of `parent` whose command line holds `word`, or 0.
pid_t child_with(pid_t parent, const std::string& word) {
  for (auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = e2e::slurp(e.path() / "stat");
    const auto close = stat.rfind(')');
    char state = 0;
    int ppid = 0;
    if (close == std::string::npos ||
        std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2 || ppid != parent)
      continue;
    if (e2e::slurp(e.path() / "cmdline").find(word) != std::string::npos)
      return pid_t(std::stoi(name));
  }
  return 0;
}

// Gone, or a zombie waiting for whoever adopted it.
bool ended(pid_t pid) {
  const std::string stat = e2e::slurp(fs::path("/proc") / std::to_string(pid) / "stat");
  const auto close = stat.rfind(')');
  return stat.empty() || close == std::string::npos || stat[close + 2] == 'Z';
}

}  // namespace

// `dpgpu run` killed with SIGKILL (no handler runs) takes its worker with it
// (PR_SET_PDEATHSIG): nothing of the run keeps solving, nor keeps a GPU busy, after it.
TEST(GpuWorkers, AKilledRunLeavesNoWorkerBehind) {
  e2e::TempDir d;
  auto yaml =
      d.write("slow.yaml",
              "name: slow\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: 1}\n"
              "solvers:\n  - name: cpu.right\n    params: {sleep_ms: 10000}\n"
              "repetitions: 3\nwarmup: 0\ntimeout_s: 60\nisolate: always\n");
  const pid_t pid = scaleout::start(
      kToy, {"run", yaml.string(), "--out", (d.path / "out").string()}, d.path / "log.txt");
  pid_t worker = 0;
  ASSERT_TRUE(scaleout::wait_for([&] { return (worker = child_with(pid, "__worker")) > 0; }, 30))
      << e2e::slurp(d.path / "log.txt");
  kill(pid, SIGKILL);
  EXPECT_EQ(scaleout::wait_exit(pid), 128 + SIGKILL);
  EXPECT_TRUE(scaleout::wait_for([&] { return ended(worker); }, 5))
      << "worker " << worker << " outlived its run";
  if (!ended(worker)) kill(worker, SIGKILL);
}
