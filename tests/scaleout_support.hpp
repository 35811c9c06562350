// scaleout_support.hpp — what the shard, merge and --gpus tests share: starting a run in
// the background, waiting, and comparing two results folders apart from times.
#pragma once
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "e2e_support.hpp"

namespace scaleout {

namespace fs = std::filesystem;

// Starts `bin args...` without waiting (output to `log`); returns its pid.
inline pid_t start(const std::string& bin, const std::vector<std::string>& args,
                   const fs::path& log) {
  pid_t pid = fork();
  if (pid == 0) {
    FILE* f = std::fopen(log.c_str(), "w");
    if (f) dup2(fileno(f), 1), dup2(fileno(f), 2);
    std::vector<char*> argv{const_cast<char*>(bin.c_str())};
    for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

inline int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

inline bool wait_for(const std::function<bool()>& ready, double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

inline std::size_t lines_in(const fs::path& p) {
  std::string text = e2e::slurp(p);
  return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

// Columns that hold times, or what is derived from times or the machine.
inline bool timing_column(const std::string& c) {
  static const std::regex timing(
      R"(^(time_.*|throughput|harness_.*|phase\..*|gpu\..*|worker\..*)$)");
  return std::regex_match(c, timing);
}

// A CSV file's rows without their timing columns, in file order.
inline std::vector<std::map<std::string, std::string>> untimed(const fs::path& p) {
  std::vector<std::map<std::string, std::string>> out;
  for (auto& row : e2e::read_csv(p)) {
    std::map<std::string, std::string> r;
    for (auto& [k, v] : row)
      if (!timing_column(k)) r[k] = v;
    out.push_back(std::move(r));
  }
  return out;
}

// The two folders hold the same results apart from times: runs.csv's (case, repetition)
// rows with their statuses and objectives, summary.csv's rows, benchmark.json's entries,
// series.csv and metrics.csv, row for row in the same order.
inline void expect_same_results(const fs::path& expected, const fs::path& got) {
  for (auto file : {"runs.csv", "summary.csv", "series.csv", "metrics.csv"}) {
    ASSERT_EQ(fs::exists(expected / file), fs::exists(got / file)) << file;
    if (!fs::exists(expected / file)) continue;
    const auto a = untimed(expected / file), b = untimed(got / file);
    ASSERT_EQ(a.size(), b.size()) << file;
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << file << " row " << i;
  }
  auto names = [](const fs::path& p) {
    std::vector<std::string> out;
    for (auto& b : nlohmann::json::parse(e2e::slurp(p / "benchmark.json")).at("benchmarks"))
      out.push_back(b.at("name").get<std::string>() + " " + b.at("run_type").get<std::string>() +
                    " " + b.value("aggregate_name", ""));
    return out;
  };
  EXPECT_EQ(names(expected), names(got)) << "benchmark.json";
  // The (case, repetition) pairs, each once.
  std::set<std::pair<std::string, std::string>> pairs;
  for (auto& r : e2e::read_csv(got / "runs.csv"))
    EXPECT_TRUE(pairs.insert({r.at("case_id"), r.at("rep")}).second)
        << r.at("case_id") << " rep " << r.at("rep");
}

}  // namespace scaleout
