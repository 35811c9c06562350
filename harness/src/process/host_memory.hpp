// host_memory.hpp — the host memory a case may use: the kernel's MemAvailable, and below it
// the limit of the cgroup this process runs in (cgroup v2 memory.max, v1
// memory.limit_in_bytes, of this cgroup and every parent), less what the cgroup uses beyond
// reclaimable file cache. Under `sbatch --mem` or `docker --memory` the cgroup limit is what
// the kernel kills at, however much MemAvailable says is free.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace dpgpu {

struct CgroupMemory {
  std::uint64_t limit = 0, used = 0;  // bytes; used: without inactive file cache
  std::string where;                  // the limit's file, for messages
  std::uint64_t left() const { return used < limit ? limit - used : 0; }
};

// The tightest memory limit of this process's cgroups, if any. `proc_cgroup` is
// /proc/self/cgroup and `cgroup_fs` /sys/fs/cgroup (tests pass their own; so does the
// environment variable DPGPU_CGROUP_FS=<fs>:<proc file>, for end-to-end tests).
std::optional<CgroupMemory> cgroup_memory(const std::filesystem::path& proc_cgroup,
                                          const std::filesystem::path& cgroup_fs);
std::optional<CgroupMemory> cgroup_memory();

// " (cgroup memory limit 1.5 GiB, 1.2 GiB of it in use)" when a cgroup limit is what bounds
// the memory available; else empty.
std::string cgroup_memory_words();

}  // namespace dpgpu
