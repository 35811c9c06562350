// shared_data.hpp — where tests find the public data sets (../shared/data): $DPGPU_SHARED,
// which the test helper sets; machines without the folder skip those tests.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace dpgpu {

// $DPGPU_SHARED/data/<name> when that folder exists, else an empty path.
inline std::filesystem::path shared_data_dir(std::string_view name) {
  const char* shared = std::getenv("DPGPU_SHARED");
  if (!shared) return {};
  auto dir = std::filesystem::path(shared) / "data" / name;
  return std::filesystem::is_directory(dir) ? dir : std::filesystem::path{};
}

}  // namespace dpgpu
