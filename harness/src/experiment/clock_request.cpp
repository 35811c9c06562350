#include "experiment/clock_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "dpgpu/error.hpp"

namespace dpgpu {

std::string ClockRequest::str() const {
  std::string s = sm.empty() ? std::string() : "sm=" + sm;
  if (!memory.empty()) s.append(s.empty() ? "" : ",").append("memory=").append(memory);
  return s;
}

std::string clock_value_error(const std::string& key, const std::string& v) {
  if (key != "sm" && key != "memory")
    return fmt::format("unknown clock '{}' (known: sm, memory)", key);
  if (v == "max" || (v == "base" && key == "sm")) return {};
  const bool digits =
      !v.empty() && v.size() <= 6 &&
      std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isdigit(c); });
  if (digits && std::stoi(v) > 0) return {};
  return fmt::format("expected {}or a clock in MHz (e.g. 1500), got '{}'",
                     key == "sm" ? "max, base (the TDP clock) " : "max ", v);
}

ClockRequest parse_lock_clocks(const std::string& text) {
  ClockRequest r;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = std::min(text.find(',', pos), text.size());
    const std::string part = text.substr(pos, end - pos);
    const std::size_t eq = part.find('=');
    const std::string key = eq == std::string::npos ? "sm" : part.substr(0, eq);
    const std::string value = eq == std::string::npos ? part : part.substr(eq + 1);
    if (auto why = clock_value_error(key, value); !why.empty())
      throw InputError("--lock-clocks: " + key + ": " + why +
                       " (e.g. --lock-clocks base or --lock-clocks sm=1500,memory=max)");
    (key == "sm" ? r.sm : r.memory) = value;
    pos = end + 1;
  }
  return r;
}

}  // namespace dpgpu
