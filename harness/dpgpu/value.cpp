#include "dpgpu/value.hpp"

#include <cmath>
#include <fmt/format.h>

namespace dpgpu {

std::string to_string(const Value& v) {
  struct {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return fmt::format("{}", d); }
    std::string operator()(const std::string& s) const { return s; }
  } visit;
  return std::visit(visit, v);
}

double to_number(const Value& v) {
  if (auto b = std::get_if<bool>(&v)) return *b ? 1.0 : 0.0;
  if (auto i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (auto d = std::get_if<double>(&v)) return *d;
  return std::nan("");
}

const char* type_name(const Value& v) {
  static const char* names[] = {"bool", "int", "real", "string"};
  return names[v.index()];
}

}  // namespace dpgpu
