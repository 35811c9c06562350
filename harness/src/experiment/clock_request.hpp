// clock_request.hpp — the clocks an experiment asks the GPU to hold for the whole run
// (`clocks: {sm: max | base | MHZ, memory: max | MHZ}`, or `dpgpu run --lock-clocks`):
// NVML's locked clocks, set and undone by device/clock_lock.hpp.
#pragma once
#include <string>

namespace dpgpu {

struct ClockRequest {
  std::string sm;      // "max", "base" (the TDP clock), a number of MHz, or empty: not locked
  std::string memory;  // "max", a number of MHz, or empty
  bool any() const { return !sm.empty() || !memory.empty(); }
  std::string str() const;  // "sm=base,memory=max"
};

// Why `value` is not a clock setting for `key` ("sm" or "memory"), or empty.
std::string clock_value_error(const std::string& key, const std::string& value);

// `--lock-clocks TEXT`: "base", "max", "1500" (the SM clock) or "sm=base,memory=max".
// InputError naming the option on a bad value.
ClockRequest parse_lock_clocks(const std::string& text);

}  // namespace dpgpu
