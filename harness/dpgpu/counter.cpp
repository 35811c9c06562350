#include "dpgpu/counter.hpp"

#include <cctype>

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

std::optional<std::string> counter_spec_error(const CounterSpec& spec) {
  const std::string what = "counter '" + spec.name + "': ";
  if (spec.name.empty()) return std::string("a counter without a name");
  for (char c : spec.name)
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '#'))
      return what + "a name of lower-case letters, digits, '_', '.' and '#' only";
  const int kind = static_cast<int>(spec.kind);
  if (kind < static_cast<int>(CounterKind::Count) || kind > static_cast<int>(CounterKind::Seconds))
    return what + "kind " + std::to_string(kind) + " is not a CounterKind";
  if (spec.help.empty()) return what + "no help (what it says)";
  const bool needs_unit = spec.kind == CounterKind::Count || spec.kind == CounterKind::Rate;
  if (needs_unit && spec.unit.empty())
    return what + "a " + counter_kind_name(spec.kind) + " needs its unit (what is counted)";
  if (!needs_unit && !spec.unit.empty())
    return what + "a " + counter_kind_name(spec.kind) + " carries its unit in its kind; unit '" +
           spec.unit + "' is one too many";
  return std::nullopt;
}

bool counter_name_matches(const std::string& declared, const std::string& name) {
  std::size_t i = 0, j = 0;
  while (i < declared.size()) {
    if (declared[i] != '#') {
      if (j >= name.size() || name[j] != declared[i]) return false;
      ++i, ++j;
      continue;
    }
    const std::size_t digits = j;
    while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) ++j;
    if (j == digits) return false;
    ++i;
  }
  return j == name.size();
}

const CounterSpec* find_counter(const std::vector<CounterSpec>& specs, const std::string& name) {
  for (const CounterSpec& s : specs)
    if (counter_name_matches(s.name, name)) return &s;
  return nullptr;
}

const std::vector<CounterSpec>& harness_counters() {
  static const std::vector<CounterSpec> c{
      counters::bytes("peak_device_bytes",
                      "most device memory the solve held at once (the harness's allocator)"),
      counters::count("annotated_launches", "launches", "kernel launches marked for the profiler"),
      counters::seconds(
          "external_time_s",
          "a solve's own time, measured where the harness cannot (a library call in a "
          "worker process): the repetition's time (measure.hpp, apply_external_time)"),
      counters::seconds("measured_s", "the harness's time of a solve that set external_time_s"),
  };
  return c;
}

std::optional<std::string> undeclared_counter(const std::string& solver,
                                              const std::vector<CounterSpec>& declared,
                                              const std::map<std::string, double>& set) {
  for (const auto& [name, value] : set)
    if (!find_counter(declared, name) && !find_counter(harness_counters(), name))
      return "solver '" + solver + "' set counter '" + name +
             "', which its registration does not declare (.counter)";
  return std::nullopt;
}

}  // namespace dpgpu
