#include "records/hash_text.hpp"

#include <cstdint>

#include <fmt/format.h>

namespace dpgpu {

std::string hash_text(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

}  // namespace dpgpu
