// The worker's two calls: the probe, and one run over a file of strings.
#include "stringzilla_peer.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace dpgpu::myers {

namespace {

namespace fs = std::filesystem;

std::string python() {
  const char* p = std::getenv("DPGPU_PYTHON");
  return p && *p ? p : "python3";
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command`, its stderr into its stdout; returns the exit status and the output.
std::pair<int, std::string> run_command(const std::string& command) {
  std::string out;
  FILE* f = popen((command + " 2>&1").c_str(), "r");
  if (!f) return {-1, "cannot start: " + command};
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) out.append(buf, n);
  const int status = pclose(f);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string worker_command(const std::string& args) {
  return quoted(python()) + " " + quoted(DPGPU_STRINGZILLA_WORKER) + " " + args;
}

void write_side(std::ofstream& f, const edit::Strings& s) {
  std::vector<std::uint64_t> off(s.offset.begin(), s.offset.end());
  f.write(reinterpret_cast<const char*>(off.data()), std::streamsize(off.size() * 8));
  f.write(s.text.data(), std::streamsize(s.text.size()));
}

}  // namespace

std::string stringzilla_unavailable(const std::string& backend) {
  static std::mutex m;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(m);
  if (auto it = known.find(backend); it != known.end()) return it->second;
  auto [rc, out] = run_command(worker_command("probe " + backend));
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return known[backend] = rc == 0 ? "" : python() + ": " + out;
}

PeerRun run_stringzilla(const edit::BatchInstance& x, const std::string& backend) {
  if (!x.cross) throw std::runtime_error("peer.stringzilla runs the cross shape only");
  const fs::path dir =
      fs::temp_directory_path() /
      ("dpgpu_stringzilla_" + std::to_string(::getpid()) + "_" +
       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(dir);
  struct Cleanup {
    fs::path d;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  } cleanup{dir};
  {
    std::ofstream f(dir / "in", std::ios::binary);
    const std::uint64_t head[2] = {x.a.size(), x.b.size()};
    f.write("DPSZ", 4);
    f.write(reinterpret_cast<const char*>(head), 16);
    write_side(f, x.a);
    write_side(f, x.b);
  }
  const auto start = std::chrono::steady_clock::now();
  auto [rc, out] =
      run_command(worker_command("run " + backend + " " + quoted((dir / "in").string()) + " " +
                                 quoted((dir / "out").string())));
  PeerRun r;
  r.worker_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (rc != 0)
    throw std::runtime_error("peer.stringzilla: the worker failed (exit " + std::to_string(rc) +
                             "): " + out);
  std::ifstream f(dir / "out", std::ios::binary);
  std::string line;
  std::getline(f, line);
  const auto j = nlohmann::json::parse(line);
  r.library_s = j.at("seconds").get<double>();
  r.version = j.at("version").get<std::string>();
  std::vector<std::uint32_t> d(x.pairs());
  f.read(reinterpret_cast<char*>(d.data()), std::streamsize(d.size() * 4));
  if (std::size_t(f.gcount()) != d.size() * 4)
    throw std::runtime_error("peer.stringzilla: the worker wrote " +
                             std::to_string(f.gcount() / 4) + " distances for " +
                             std::to_string(d.size()) + " pairs");
  r.distances.assign(d.begin(), d.end());
  return r;
}

}  // namespace dpgpu::myers
