#include "device/rapl.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <string>

namespace dpgpu {

namespace {

std::optional<std::uint64_t> read_number(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

}  // namespace

std::optional<RaplReading> read_rapl(const std::filesystem::path& root) {
  // Packages only: intel-rapl:0, intel-rapl:1 (their subzones, intel-rapl:0:0, are inside).
  static const std::regex package("intel-rapl:[0-9]+");
  std::vector<std::filesystem::path> domains;
  std::error_code ec;
  for (auto& e : std::filesystem::directory_iterator(root, ec))
    if (std::regex_match(e.path().filename().string(), package)) domains.push_back(e.path());
  std::sort(domains.begin(), domains.end());
  RaplReading r;
  for (auto& d : domains) {
    auto uj = read_number(d / "energy_uj");
    if (!uj) continue;
    r.uj.push_back(*uj);
    r.range_uj.push_back(read_number(d / "max_energy_range_uj").value_or(0));
  }
  if (r.uj.empty()) return std::nullopt;
  return r;
}

double rapl_joules(const RaplReading& a, const RaplReading& b) {
  double uj = 0;
  for (std::size_t i = 0; i < std::min(a.uj.size(), b.uj.size()); ++i)
    uj +=
        b.uj[i] >= a.uj[i] ? double(b.uj[i] - a.uj[i]) : double(b.uj[i] + a.range_uj[i] - a.uj[i]);
  return uj * 1e-6;
}

}  // namespace dpgpu
