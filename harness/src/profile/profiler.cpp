#include "profile/profiler.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <thread>

namespace dpgpu {

namespace fs = std::filesystem;

const std::map<std::string, std::string>& paper_metrics() {
  static const std::map<std::string, std::string> m{
      {"gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"},
      {"gst_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"},
      {"warp_execution_efficiency", "smsp__thread_inst_executed_per_inst_executed.pct"},
      {"ipc", "sm__inst_executed.avg.per_cycle_active"},
      {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active"},
      {"sm_efficiency", "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed"},
      {"dram_utilization", "dram__throughput.avg.pct_of_peak_sustained_elapsed"}};
  return m;
}

std::vector<std::string> default_metrics() {
  return {"gld_efficiency", "warp_execution_efficiency", "ipc"};
}

std::vector<MetricName> resolve_metrics(const std::vector<std::string>& names) {
  std::vector<MetricName> out;
  for (auto& n : names) {
    auto it = paper_metrics().find(n);
    out.push_back({n, it == paper_metrics().end() ? n : it->second});
  }
  return out;
}

ProfilePlan plan_profile(std::int64_t max_launches, double kernel_launches,
                         double annotated_launches) {
  ProfilePlan p;
  const auto total = std::int64_t(kernel_launches);
  const auto marked = std::int64_t(annotated_launches);
  p.launch_count = std::max<std::int64_t>(max_launches, 0);
  if (marked > 0) {
    // The marked launches only: what CUPTI's ranges see, and ncu's with profiling off between
    // marks. Unmarked launches (the solver's set-up kernels, say) are in neither.
    p.stride =
        max_launches > 0 && marked > max_launches ? (marked + max_launches - 1) / max_launches : 1;
    if (p.stride > 1)
      p.sampling = fmt::format("every {}th of {}", p.stride, marked);
    else if (total > marked)
      p.sampling = fmt::format("all {} marked of {}", marked, total);
    else
      p.sampling = fmt::format("all {}", marked);
  } else if (max_launches > 0 && total > max_launches) {
    p.sampling = fmt::format("first {} of {}", max_launches, total);
  } else {
    p.sampling = total > 0 ? fmt::format("all {}", total) : "all";
  }
  return p;
}

WorkerRequest ncu_request(const WorkerRequest& req) {
  WorkerRequest one = req;
  one.measure.repetitions = one.measure.max_repetitions = 1;
  one.measure.max_noise.reset();
  one.measure.warmup = 0;
  one.measure.energy_window_s = 0;
  one.measure.cold = false;  // ncu's --cache-control empties the caches, as CUPTI's flush does
  one.measure.series = false;
  one.profile.reset();
  return one;
}

std::vector<std::string> ncu_environment(const ProfilePlan& plan, const Placement& where) {
  std::vector<std::string> env = where.env;
  if (plan.stride > 0) env.push_back("DPGPU_PROFILE_STRIDE=" + std::to_string(plan.stride));
  return env;
}

std::string counter_permission_help(const std::string& cause) {
  return cause +
         ": this user may not read the GPU's performance counters. Run as root, or load the NVIDIA "
         "driver with "
         "NVreg_RestrictProfilingToAdminUsers=0 (a line `options nvidia "
         "NVreg_RestrictProfilingToAdminUsers=0` in "
         "/etc/modprobe.d/, then reload the driver or reboot; "
         "https://developer.nvidia.com/ERR_NVGPUCTRPERM). "
         "Timed results are unaffected";
}

std::string find_ncu() {
  if (const char* env = std::getenv("DPGPU_NCU"); env && fs::exists(env)) return env;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string dir; std::getline(ss, dir, ':');)
      if (!dir.empty() && access((fs::path(dir) / "ncu").c_str(), X_OK) == 0)
        return (fs::path(dir) / "ncu").string();
  }
  if (access("/usr/local/cuda/bin/ncu", X_OK) == 0) return "/usr/local/cuda/bin/ncu";
  return {};
}

static double to_double(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());  // thousands separators
  if (s.empty() || s == "n/a") return std::nan("");
  try {
    return std::stod(s);
  } catch (...) {
    return std::nan("");
  }
}

std::vector<MetricStat> parse_ncu_csv(const std::string& text,
                                      const std::vector<MetricName>& metrics,
                                      std::int64_t* launches) {
  // ncu prints ==PROF== / ==WARNING== lines around the table; the table starts at "ID".
  std::string table;
  std::istringstream in(text);
  bool started = false;
  for (std::string line; std::getline(in, line);) {
    if (!started && line.rfind("\"ID\"", 0) == 0) started = true;
    if (started && line.rfind("==", 0) != 0) table += line + "\n";
  }
  if (launches) *launches = 0;
  if (table.empty()) return {};
  auto rows = csv_parse(table);
  if (rows.size() < 2) return {};
  const auto& header = rows[0];
  const auto& units = rows[1];
  auto column = [&](const std::string& name) -> int {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return int(i);
    return -1;
  };
  const int kernel_col = column("Kernel Name");
  // The units row has an empty ID; data rows have a number there.
  std::size_t first_data = (rows.size() > 1 && !rows[1].empty() && rows[1][0].empty()) ? 2 : 1;
  std::map<std::pair<std::string, std::string>, MetricStat> stats;  // (kernel, metric)
  std::int64_t n_launches = 0;
  for (std::size_t r = first_data; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.size() != header.size()) continue;
    ++n_launches;
    std::string kernel = kernel_col >= 0 ? row[kernel_col] : "?";
    // Template arguments make names long; the base name before '(' or '<' is enough to group.
    for (auto& m : metrics) {
      int c = column(m.ncu);
      if (c < 0) continue;
      double v = to_double(row[c]);
      if (std::isnan(v)) continue;
      auto& st = stats[{kernel, m.name}];
      if (st.count == 0) {
        st = {kernel, m.name, m.ncu, first_data == 2 && c < int(units.size()) ? units[c] : "",
              v,      0,      v,     0};
      }
      st.min = std::min(st.min, v);
      st.max = std::max(st.max, v);
      st.mean += v;
      ++st.count;
    }
  }
  std::vector<MetricStat> out;
  for (auto& [_, st] : stats) {
    st.mean /= double(st.count);
    out.push_back(st);
  }
  if (launches) *launches = n_launches;
  return out;
}

namespace {

// Runs argv with extra environment, output to `log`; kills it after `timeout_s`.
int run_logged(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
               const fs::path& log, double timeout_s, bool* timed_out) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<std::string> env = environment_with(extra_env);
  std::vector<char*> cargv, cenv;
  for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (auto& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, cargv[0], &actions, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return -1;
  const auto limit = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  *timed_out = false;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > limit) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      *timed_out = true;
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string tail_lines(const std::string& text, std::size_t n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.find("ERROR") != std::string::npos || l.find("rror") != std::string::npos)
      lines.push_back(l);
  if (lines.empty()) return text.size() > 400 ? text.substr(text.size() - 400) : text;
  if (lines.size() > n) lines.erase(lines.begin(), lines.end() - long(n));
  std::string out;
  for (auto& l : lines) out += (out.empty() ? "" : " | ") + l;
  return out;
}

}  // namespace

std::vector<std::string> ncu_argv(const std::string& ncu, const std::vector<MetricName>& metrics,
                                  const ProfilePlan& plan, const NcuOptions& options,
                                  const std::string& dir, const std::string& self) {
  std::string list;
  for (auto& m : metrics) list += (list.empty() ? "" : ",") + m.ncu;
  const fs::path d(dir);
  std::vector<std::string> argv{ncu,
                                "--csv",
                                "--page",
                                "raw",
                                "--metrics",
                                list,
                                "--clock-control",
                                "none",
                                "--cache-control",
                                options.cache_control,
                                "--replay-mode",
                                options.replay,
                                "--target-processes",
                                "all",
                                "--log-file",
                                (d / "ncu.csv").string()};
  if (plan.launch_count > 0)
    argv.insert(argv.end(), {"--launch-count", std::to_string(plan.launch_count)});
  if (plan.stride > 0) argv.insert(argv.end(), {"--profile-from-start", "off"});
  argv.insert(argv.end(), {self, "__worker", "--request", (d / "request.json").string(), "--result",
                           (d / "result.json").string()});
  return argv;
}

namespace {

// Sets out.ok, or out.message saying why nothing (or not every metric) was profiled; `text`
// is ncu's log and CSV output.
void judge_outcome(ProfileOutcome& out, const std::vector<MetricName>& metrics, int code,
                   bool timed_out, const std::string& text) {
  if (timed_out) {
    out.message = fmt::format("ncu killed after {:.0f} s", out.wall_s);
  } else if (out.stats.empty() && text.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    out.message = counter_permission_help("ncu: ERR_NVGPUCTRPERM");
  } else if (code != 0 && out.stats.empty()) {
    out.message = fmt::format("ncu exited with {}: {}", code, tail_lines(text, 3));
  } else if (out.stats.empty()) {
    out.message = "ncu profiled no launch with these metrics: " + tail_lines(text, 3);
  } else {
    out.ok = true;
    // A metric ncu did not know leaves its column out: name it.
    std::vector<std::string> missing;
    for (auto& m : metrics) {
      bool seen = false;
      for (auto& s : out.stats) seen |= s.metric == m.name;
      if (!seen) missing.push_back(m.name + " (" + m.ncu + ")");
    }
    if (!missing.empty()) out.message = fmt::format("no values for {}", fmt::join(missing, ", "));
  }
}

}  // namespace

static int kept_ = 0;

ProfileOutcome profile_case(const WorkerRequest& req, const std::vector<MetricName>& metrics,
                            const ProfilePlan& plan, const NcuOptions& options,
                            const Placement& where) {
  ProfileOutcome out;
  const std::string ncu = find_ncu();
  if (ncu.empty()) {
    out.message =
        "ncu (Nsight Compute) not found on PATH, in $DPGPU_NCU or /usr/local/cuda/bin; timed "
        "results are unaffected";
    return out;
  }
  fs::path dir =
      fs::temp_directory_path() / fmt::format("dpgpu-profile-{}-{}", getpid(), std::rand());
  fs::create_directories(dir);
  { std::ofstream(dir / "request.json") << worker_request_json(ncu_request(req)); }
  // Under ncu, /proc/self/exe would name ncu: give this binary's real path.
  const std::vector<std::string> argv = ncu_argv(ncu, metrics, plan, options, dir.string(),
                                                 fs::read_symlink("/proc/self/exe").string());
  const std::vector<std::string> env = ncu_environment(plan, where);

  bool timed_out = false;
  auto t0 = std::chrono::steady_clock::now();
  int code = run_logged(argv, env, dir / "ncu.log", std::max(600.0, req.measure.timeout_s * 50),
                        &timed_out);
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ifstream csv_in(dir / "ncu.csv"), log_in(dir / "ncu.log");
  std::stringstream csv, log;
  csv << csv_in.rdbuf();
  log << log_in.rdbuf();
  out.stats = parse_ncu_csv(csv.str(), metrics, &out.launches_profiled);
  std::error_code ec;
  // DPGPU_KEEP_NCU=DIR keeps ncu's raw output (for parser fixtures and by-hand reading).
  if (const char* keep = std::getenv("DPGPU_KEEP_NCU")) {
    fs::create_directories(keep, ec);
    fs::copy_file(dir / "ncu.csv", fs::path(keep) / fmt::format("ncu-{}.csv", ++kept_),
                  fs::copy_options::overwrite_existing, ec);
  }
  fs::remove_all(dir, ec);

  judge_outcome(out, metrics, code, timed_out, log.str() + csv.str());
  return out;
}

}  // namespace dpgpu
