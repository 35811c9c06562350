// counter.hpp — what a solver's counters (ctx.set) are, declared in its registration
// (.counter(name, kind, help)): the kind says how to read and format the value (a count, a
// size in bytes, a rate per second, a ratio, a duration in seconds) and the unit what is
// counted ("nodes", "bits"), so that outputs need no table of counter names.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dpgpu {

enum class CounterKind { Count, Bytes, Rate, Ratio, Seconds };

struct CounterSpec {
  std::string name;
  CounterKind kind = CounterKind::Count;
  std::string help;
  std::string unit;  // what one counts ("nodes", "launches"); "" for bytes, seconds and ratios
};

// "count", "bytes", "rate", "ratio", "seconds".
const char* counter_kind_name(CounterKind kind);

// Counters the harness itself sets on a solver's runs (peak_device_bytes, annotated_launches):
// declared for every solver.
const std::vector<CounterSpec>& harness_counters();

// The first of `set` that neither `declared` nor the harness declares, as a message naming
// the solver, or nullopt.
std::optional<std::string> undeclared_counter(const std::string& solver,
                                              const std::vector<CounterSpec>& declared,
                                              const std::map<std::string, double>& set);

}  // namespace dpgpu
