// bound_param.hpp — a parameter declared once, bound to the field of a solver's config struct
// that it sets: its type follows the field's (bool, integer, floating point, std::string, or
// an enum through named choices), its default is the field's default in `Config{}`, and the
// config is built from the resolved values by the binding, never by reading names by hand.
// SolverBuilder (registry.hpp) is the user; see its `param(name, &Config::field, ...)`.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeindex>
#include <utility>
#include <vector>

#include "dpgpu/params.hpp"

namespace dpgpu {

// The ParamType a field of type T is declared as (enums: Choice through named values).
template <class T>
constexpr ParamType param_type_of() {
  if constexpr (std::is_same_v<T, bool>)
    return ParamType::Bool;
  else if constexpr (std::is_integral_v<T>)
    return ParamType::Int;
  else if constexpr (std::is_floating_point_v<T>)
    return ParamType::Real;
  else if constexpr (std::is_same_v<T, std::string>)
    return ParamType::String;
  else if constexpr (std::is_enum_v<T>)
    return ParamType::Choice;
  else
    static_assert(!sizeof(T),
                  "a bound parameter's field must be bool, an integer, a floating point, "
                  "std::string or an enum");
}

// Builds a Config from resolved Params: one setter per bound field, in declaration order.
template <class Config>
class ConfigBinding {
 public:
  using Setter = std::function<void(const Params&, Config&)>;
  void add(Setter s) { setters_.push_back(std::move(s)); }
  Config operator()(const Params& p) const {
    Config c{};
    for (auto& set : setters_) set(p, c);
    return c;
  }

 private:
  std::vector<Setter> setters_;
};

// The spec of a numeric field: its range narrowed to what a field narrower than the
// schema's int64 holds, so an int field never receives a value that would wrap.
template <class T>
Range range_for(Range r) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                sizeof(T) < sizeof(std::int64_t)) {
    const double lo = double(std::numeric_limits<T>::lowest()),
                 hi = double(std::numeric_limits<T>::max());
    if (!r.min || *r.min < lo) r.min = lo;
    if (!r.max || *r.max > hi) r.max = hi;
  }
  return r;
}

// The value of a field as a schema default.
template <class T>
Value value_of_field(const T& v) {
  if constexpr (std::is_same_v<T, bool>)
    return v;
  else if constexpr (std::is_integral_v<T>)
    return std::int64_t(v);
  else if constexpr (std::is_floating_point_v<T>)
    return double(v);
  else
    return std::string(v);
}

// Sets a field from its resolved value (types were checked by the schema).
template <class T>
T field_from(const Params& p, const std::string& name) {
  if constexpr (std::is_same_v<T, bool>)
    return p.flag(name);
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(p.integer(name));
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(p.real(name));
  else
    return p.text(name);
}

// A type-erased way back from a solver entry to its config: bind<Config>(entry, params).
struct AnyBinding {
  std::type_index type = typeid(void);
  std::function<std::shared_ptr<const void>(const Params&)> make;
};

}  // namespace dpgpu
