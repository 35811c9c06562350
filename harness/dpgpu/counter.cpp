#include "dpgpu/counter.hpp"

namespace dpgpu {

const char* counter_kind_name(CounterKind kind) {
  switch (kind) {
    case CounterKind::Count: return "count";
    case CounterKind::Bytes: return "bytes";
    case CounterKind::Rate: return "rate";
    case CounterKind::Ratio: return "ratio";
    case CounterKind::Seconds: return "seconds";
  }
  return "count";
}

const std::vector<CounterSpec>& harness_counters() {
  static const std::vector<CounterSpec> c{
      {"peak_device_bytes", CounterKind::Bytes,
       "most device memory the solve held at once (the harness's allocator)", ""},
      {"annotated_launches", CounterKind::Count, "kernel launches marked for the profiler",
       "launches"},
  };
  return c;
}

std::optional<std::string> undeclared_counter(const std::string& solver,
                                              const std::vector<CounterSpec>& declared,
                                              const std::map<std::string, double>& set) {
  auto among = [](const std::vector<CounterSpec>& specs, const std::string& name) {
    for (const CounterSpec& s : specs)
      if (s.name == name) return true;
    return false;
  };
  for (const auto& [name, value] : set)
    if (!among(declared, name) && !among(harness_counters(), name))
      return "solver '" + solver + "' set counter '" + name +
             "', which its registration does not declare (.counter)";
  return std::nullopt;
}

}  // namespace dpgpu
