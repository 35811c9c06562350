// e2e_support.hpp — running the dpgpu binaries from tests and reading what they wrote.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "records/csv_table.hpp"

namespace e2e {

namespace fs = std::filesystem;

struct Ran {
  int code = -1;
  std::string output;  // stdout and stderr together
};

inline Ran run(const std::string& command) {
  Ran r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf;
  while (fgets(buf.data(), int(buf.size()), p)) r.output += buf.data();
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return r;
}

// A fresh folder per test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path =
        fs::temp_directory_path() / ("dpgpu-test-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<dpgpu::CsvRow> read_csv(const fs::path& p) {
  dpgpu::CsvTable t(p, {});
  return t.load();
}

// Every file of a folder with its content, to prove that a refused run changed nothing.
inline std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = slurp(e.path());
  return out;
}

// A toy experiment: generator count at n (a YAML list), cpu.right sleeping `sleep` ms (a YAML
// list) and cpu.bare, `reps` repetitions, no warm-up; `extra` YAML lines appended.
inline std::string toy_sweep(const std::string& name, const std::string& n,
                             const std::string& sleep, int reps, const std::string& extra = "") {
  return "name: " + name +
         "\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: " + n +
         "}\nsolvers:\n  - name: cpu.right\n    params: {sleep_ms: " + sleep +
         "}\n  - name: cpu.bare\nrepetitions: " + std::to_string(reps) +
         "\nwarmup: 0\ntimeout_s: 30\n" + extra;
}

}  // namespace e2e
