// Validation, the reference answer, check, sizes and registration.
#include "sdp/sdp.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"

namespace sdp {

const char* to_string(Op op) {
  switch (op) {
    case Op::min: return "min";
    case Op::max: return "max";
    case Op::add: return "add";
  }
  return "?";
}

Op op_from(const std::string& name) {
  if (name == "min") return Op::min;
  if (name == "max") return Op::max;
  if (name == "add") return Op::add;
  throw dpgpu::InputError(fmt::format("unknown operator '{}': one of min, max, add", name));
}

std::string why_malformed(const Instance& x) {
  if (x.n < 1 || x.n > kMaxN) return fmt::format("n must be in [1, {}], got {}", kMaxN, x.n);
  if (x.offsets.empty()) return "at least one offset is needed (k >= 1)";
  for (std::size_t j = 0; j < x.offsets.size(); ++j) {
    if (x.offsets[j] < 1) return fmt::format("offset a{} = {} is not positive", j, x.offsets[j]);
    if (j > 0 && x.offsets[j] >= x.offsets[j - 1])
      return fmt::format("offsets must decrease strictly: a{} = {} follows a{} = {}", j,
                         x.offsets[j], j - 1, x.offsets[j - 1]);
  }
  if (x.a0() > kMaxN) return fmt::format("a0 = {} exceeds {}", x.a0(), kMaxN);
  if (std::int64_t(x.init.size()) != x.a0())
    return fmt::format("{} initial values given, a0 = {} needed", x.init.size(), x.a0());
  if (x.op == Op::add && (x.modulus < 1 || x.modulus > kMaxValue))
    return fmt::format("modulus must be in [1, 2^62], got {}", x.modulus);
  const std::uint64_t bound = x.op == Op::add ? x.modulus : kMaxValue;
  for (std::size_t j = 0; j < x.init.size(); ++j)
    if (x.init[j] >= bound)
      return fmt::format("initial value {} (ST[{}]) is not below {}", x.init[j], j,
                         x.op == Op::add ? "the modulus" : "2^62");
  return {};
}

std::uint64_t table_checksum(const std::vector<std::uint64_t>& st) {
  std::uint64_t s = 0;
  for (auto v : st) s += v;
  return s;
}

namespace {

// FNV-1a over the definition: the reference cache's key.
std::uint64_t fingerprint(const Instance& x) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::uint64_t v) {
    for (int b = 0; b < 8; ++b) h = (h ^ ((v >> (8 * b)) & 0xff)) * 1099511628211ull;
  };
  mix(std::uint64_t(x.n));
  mix(std::uint64_t(x.op));
  mix(x.modulus);
  mix(x.offsets.size());
  for (auto a : x.offsets) mix(std::uint64_t(a));
  for (auto v : x.init) mix(v);
  return h;
}

// Figure 1 of the paper, deliberately plain: the reference every solver is held to.
Answer compute_reference(const Instance& x) {
  std::vector<std::uint64_t> st(static_cast<std::size_t>(x.n));
  const std::int64_t a0 = x.a0();
  for (std::int64_t i = 0; i < std::min(a0, x.n); ++i) st[std::size_t(i)] = x.init[std::size_t(i)];
  for (std::int64_t i = a0; i < x.n; ++i) {
    std::uint64_t v = st[std::size_t(i - a0)];
    for (std::size_t j = 1; j < x.offsets.size(); ++j)
      v = combine(x.op, x.modulus, v, st[std::size_t(i - x.offsets[j])]);
    st[std::size_t(i)] = v;
  }
  return {st.back(), table_checksum(st)};
}

}  // namespace

Answer reference_answer(const Instance& x) {
  auto& c = *x.reference;
  const std::uint64_t key = fingerprint(x);
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.filled || c.key != key) {
    const Answer a = compute_reference(x);
    c.key = key;
    c.objective = a.objective;
    c.checksum = a.checksum;
    c.filled = true;
  }
  return {c.objective, c.checksum};
}

dpgpu::Verdict Problem::check(const Instance& x, const Solution& s) {
  if (auto why = why_malformed(x); !why.empty())
    return dpgpu::Verdict::invalid("the instance is malformed: " + why);
  const Answer ref = reference_answer(x);
  if (s.checksum != ref.checksum)
    return dpgpu::Verdict::invalid(fmt::format(
        "table checksum {} differs from the serial recomputation's {}", s.checksum, ref.checksum));
  return dpgpu::Verdict::valid(dpgpu::Objective(ref.objective));
}

double Problem::work(const Instance& x) {
  return x.n > x.a0() ? double(x.n - x.a0()) * double(x.k()) : 0.0;
}

dpgpu::ValueMap Problem::dims(const Instance& x) {
  return {{"n", x.n},
          {"k", x.k()},
          {"a0", x.a0()},
          {"a_last", x.offsets.empty() ? std::int64_t{0} : x.offsets.back()},
          {"op", std::string(to_string(x.op))}};
}

}  // namespace sdp

DPGPU_REGISTER_PROBLEM(sdp::Problem);
