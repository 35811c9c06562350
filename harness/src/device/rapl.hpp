// rapl.hpp — the CPU packages' energy counters (RAPL) through /sys/class/powercap, for the
// energy of CPU rows. Often readable by root only; where no package counter can be read the
// CPU rows say "n/a".
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace dpgpu {

struct RaplReading {
  std::vector<std::uint64_t> uj;        // per package domain (intel-rapl:N), microjoules
  std::vector<std::uint64_t> range_uj;  // where each counter wraps (max_energy_range_uj)
};

// Every package domain's counter under `root`; nullopt when none is readable.
std::optional<RaplReading> read_rapl(const std::filesystem::path& root = "/sys/class/powercap");

// Joules of all packages between two readings of the same domains (a counter that wrapped
// once is counted through its range).
double rapl_joules(const RaplReading& before, const RaplReading& after);

}  // namespace dpgpu
