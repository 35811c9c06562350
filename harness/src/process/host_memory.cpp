#include "process/host_memory.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "measure/measure.hpp"
#include "records/human_format.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

// A file's first number; nullopt for "max", a missing file or no number.
std::optional<std::uint64_t> number_in(const fs::path& file) {
  std::ifstream in(file);
  std::string word;
  if (!(in >> word) || word.empty() || word.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::strtoull(word.c_str(), nullptr, 10);
}

// `key`'s value in a memory.stat file, or 0.
std::uint64_t stat_of(const fs::path& file, const std::string& key) {
  std::ifstream in(file);
  std::string k;
  std::uint64_t v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

// The limit of the cgroup at `dir` (v2 or v1 file names), and what it uses.
std::optional<CgroupMemory> limit_at(const fs::path& dir, bool v2) {
  const auto limit = number_in(dir / (v2 ? "memory.max" : "memory.limit_in_bytes"));
  // v1 says "no limit" with a huge number (PAGE_COUNTER_MAX pages).
  if (!limit || *limit >= (std::uint64_t(1) << 62)) return std::nullopt;
  const std::uint64_t usage =
      number_in(dir / (v2 ? "memory.current" : "memory.usage_in_bytes")).value_or(0);
  const std::uint64_t cache =
      stat_of(dir / "memory.stat", v2 ? "inactive_file" : "total_inactive_file");
  return CgroupMemory{*limit, usage > cache ? usage - cache : 0,
                      (dir / (v2 ? "memory.max" : "memory.limit_in_bytes")).string()};
}

// The tightest limit from `dir` up to `root` (a parent's limit bounds its children).
std::optional<CgroupMemory> tightest(const fs::path& root, fs::path dir, bool v2) {
  std::optional<CgroupMemory> best;
  std::error_code ec;
  if (!fs::exists(dir, ec)) dir = root;  // a container sees its own cgroup as the root
  for (;;) {
    if (auto m = limit_at(dir, v2); m && (!best || m->left() < best->left())) best = m;
    if (dir == root || !dir.has_parent_path() || dir.parent_path() == dir) break;
    dir = dir.parent_path();
  }
  return best;
}

}  // namespace

std::optional<CgroupMemory> cgroup_memory(const fs::path& proc_cgroup, const fs::path& cgroup_fs) {
  std::ifstream in(proc_cgroup);
  std::optional<CgroupMemory> best;
  auto keep = [&](std::optional<CgroupMemory> m) {
    if (m && (!best || m->left() < best->left())) best = m;
  };
  for (std::string line; std::getline(in, line);) {
    // "0::/path" (v2) or "4:memory:/path" (v1; controllers may be listed together).
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    const std::string rel = path.empty() || path == "/" ? "" : path.substr(1);
    if (controllers.empty()) {
      const fs::path root = fs::exists(cgroup_fs / "unified") ? cgroup_fs / "unified" : cgroup_fs;
      keep(tightest(root, root / rel, true));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      keep(tightest(cgroup_fs / "memory", cgroup_fs / "memory" / rel, false));
    }
  }
  return best;
}

std::optional<CgroupMemory> cgroup_memory() {
  if (const char* env = std::getenv("DPGPU_CGROUP_FS")) {
    const std::string spec = env;
    const auto colon = spec.find(':');
    if (colon != std::string::npos)
      return cgroup_memory(spec.substr(colon + 1), spec.substr(0, colon));
  }
  return cgroup_memory("/proc/self/cgroup", "/sys/fs/cgroup");
}

std::uint64_t host_bytes_available() {
  std::uint64_t avail = UINT64_MAX;
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") {
      avail = kb * 1024;
      break;
    }
  if (const auto cg = cgroup_memory(); cg && cg->left() < avail) avail = cg->left();
  return avail;
}

std::string cgroup_memory_words() {
  const auto cg = cgroup_memory();
  if (!cg || cg->left() != host_bytes_available()) return {};
  return fmt::format(" (cgroup memory limit {}, {} of it in use; {})", format_bytes(cg->limit),
                     format_bytes(cg->used), cg->where);
}

}  // namespace dpgpu
