// counter.hpp — what a solver's counters (ctx.set) are, declared in its registration
// (.counter(spec) or .counters({...})): the kind says how to read and format the value (a
// count, a size in bytes, a rate per second, a ratio, a duration in seconds) and the unit what
// is counted ("nodes", "bits"), so that outputs need no table of counter names. Every counter a
// solve sets must be declared: a run that sets another fails, naming the solver and counter.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dpgpu {

enum class CounterKind { Count, Bytes, Rate, Ratio, Seconds };

struct CounterSpec {
  // A '#' in the name stands for a whole number: "gpu#.compute_s" declares gpu0.compute_s,
  // gpu1.compute_s, ... (one counter per GPU or per range, as many as the run has).
  std::string name;
  CounterKind kind = CounterKind::Count;
  std::string help;
  // Counts: what one counts ("nodes", "launches"); rates: what per second ("nodes"). Bytes,
  // ratios and seconds carry their unit in their kind: "".
  std::string unit;
};

// Declarations, so a registration reads as a list: counters::count("nodes", "nodes", "...").
namespace counters {
inline CounterSpec count(std::string name, std::string unit, std::string help) {
  return {std::move(name), CounterKind::Count, std::move(help), std::move(unit)};
}
inline CounterSpec bytes(std::string name, std::string help) {
  return {std::move(name), CounterKind::Bytes, std::move(help), ""};
}
inline CounterSpec rate(std::string name, std::string unit, std::string help) {
  return {std::move(name), CounterKind::Rate, std::move(help), std::move(unit)};
}
inline CounterSpec ratio(std::string name, std::string help) {
  return {std::move(name), CounterKind::Ratio, std::move(help), ""};
}
inline CounterSpec seconds(std::string name, std::string help) {
  return {std::move(name), CounterKind::Seconds, std::move(help), ""};
}
}  // namespace counters

// "count", "bytes", "rate", "ratio", "seconds".
const char* counter_kind_name(CounterKind kind);

// Why the declaration is not well formed (an empty or odd name, no help, a count or rate
// without its unit, a unit on a kind that has its own, a kind out of range), or nullopt.
std::optional<std::string> counter_spec_error(const CounterSpec& spec);

// Whether `name` is what `declared` declares (its '#' matching one or more digits).
bool counter_name_matches(const std::string& declared, const std::string& name);

// The declaration of `name` among `specs`, or nullptr.
const CounterSpec* find_counter(const std::vector<CounterSpec>& specs, const std::string& name);

// Counters the harness itself sets on a solver's runs (peak_device_bytes, annotated_launches):
// declared for every solver.
const std::vector<CounterSpec>& harness_counters();

// The first of `set` that neither `declared` nor the harness declares, as a message naming
// the solver, or nullopt.
std::optional<std::string> undeclared_counter(const std::string& solver,
                                              const std::vector<CounterSpec>& declared,
                                              const std::map<std::string, double>& set);

}  // namespace dpgpu
