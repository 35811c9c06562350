// e2e_support.hpp — running the dpgpu binaries from tests and reading what they wrote.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

}  // namespace e2e
