// cpu.serial: the paper's Figure 1, with 32-bit cells where the values allow.
#include <algorithm>
#include <vector>

#include "sdp_cpu.hpp"

namespace sdp::cpu {

bool fits_32_bits(const Instance& x) {
  if (x.op == Op::add) return x.modulus <= (std::uint64_t{1} << 31);  // a + b < 2^32
  for (auto v : x.init)
    if (v > 0xffffffffull) return false;
  return true;
}

namespace {

template <class T, Op O>
TableAnswer run(const Instance& x, const Poll& poll) {
  const std::int64_t n = x.n, a0 = x.a0(), k = x.k();
  const T m = T(x.modulus);
  std::vector<T> st(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < std::min(a0, n); ++i) st[std::size_t(i)] = T(x.init[std::size_t(i)]);
  const std::vector<std::int64_t>& a = x.offsets;
  constexpr std::int64_t kPollEvery = std::int64_t{1} << 22;
  T* s = st.data();
  for (std::int64_t i = a0; i < n; ++i) {
    T v = s[i - a0];
    for (std::int64_t j = 1; j < k; ++j) {
      const T w = s[i - a[std::size_t(j)]];
      if constexpr (O == Op::max)
        v = v > w ? v : w;
      else if constexpr (O == Op::min)
        v = v < w ? v : w;
      else {
        v = v + w;
        v = v >= m ? v - m : v;
      }
    }
    s[i] = v;
    if (poll && (i & (kPollEvery - 1)) == 0) poll();
  }
  TableAnswer out;
  out.objective = std::uint64_t(st.back());
  for (T v : st) out.checksum += std::uint64_t(v);
  return out;
}

template <class T>
TableAnswer run_typed(const Instance& x, const Poll& poll) {
  switch (x.op) {
    case Op::max: return run<T, Op::max>(x, poll);
    case Op::min: return run<T, Op::min>(x, poll);
    case Op::add: break;
  }
  return run<T, Op::add>(x, poll);
}

}  // namespace

TableAnswer serial(const Instance& x, const Poll& poll) {
  return fits_32_bits(x) ? run_typed<std::uint32_t>(x, poll) : run_typed<std::uint64_t>(x, poll);
}

}  // namespace sdp::cpu
