// The certificate check, the sizes, and the problem's registration.
#include "edit/edit.hpp"

#include <fmt/format.h>

#include "dpgpu/registry.hpp"

namespace edit {

std::uint64_t Problem::instance_bytes(const std::string&, const dpgpu::Params& p) {
  const double n = double(p.integer("n"));
  // random: m given (-1: n); planted and mutated: b grows by at most n insertions.
  const auto& v = p.values();
  const double m = v.count("m") ? (p.integer("m") < 0 ? n : double(p.integer("m"))) : 2 * n;
  return 2 * (n + m) < 1.8e19 ? std::uint64_t(2 * (n + m)) : UINT64_MAX;  // saturates
}

dpgpu::Verdict Problem::check(const Instance& x, const Solution& s) {
  std::string why;
  const auto made = apply(s.script, x.a, &why);
  if (!made) return dpgpu::Verdict::invalid("edit script cannot be applied to a: " + why);
  if (*made != x.b) {
    std::size_t k = 0;
    while (k < made->size() && k < x.b.size() && (*made)[k] == x.b[k]) ++k;
    return dpgpu::Verdict::invalid(fmt::format(
        "edit script applied to a gives a string of length {} that differs from b (length {}) "
        "first at position {}",
        made->size(), x.b.size(), k));
  }
  return dpgpu::Verdict::valid(cost(s.script));
}

dpgpu::ValueMap Problem::dims(const Instance& x) {
  return {{"n", static_cast<std::int64_t>(x.a.size())},
          {"m", static_cast<std::int64_t>(x.b.size())}};
}

}  // namespace edit

DPGPU_REGISTER_PROBLEM(edit::Problem);
