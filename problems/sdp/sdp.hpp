// sdp.hpp — the simplified DP problem (S-DP) of paper 001: a table ST[0..n-1], offsets
// a0 > a1 > ... > a(k-1) > 0, an associative operator ⊗ and initial values ST[0..a0-1];
// every later ST[i] = ⊗ over j of ST[i - aj]. Objective ST[n-1]; certificate: the wrap-around
// uint64 sum of the whole table.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dpgpu/problem.hpp"

namespace sdp {

enum class Op { min, max, add };  // add: modulo Instance::modulus
const char* to_string(Op op);
Op op_from(const std::string& name);  // throws dpgpu::InputError naming the allowed ones

inline constexpr std::uint64_t kDefaultModulus = 1000000007;
// Values and the modulus stay below 2^62, so a + b never overflows uint64 (nor int64).
inline constexpr std::uint64_t kMaxValue = std::uint64_t{1} << 62;
inline constexpr std::int64_t kMaxN = std::int64_t{1} << 40;

// A cached reference answer (objective, checksum) for check(): recomputing the table once per
// instance, not once per repetition. Keyed by a fingerprint of the definition, so an edited
// copy of an instance never reuses a stale answer.
struct ReferenceCache {
  std::mutex mutex;
  std::uint64_t key = 0;
  bool filled = false;
  std::uint64_t objective = 0, checksum = 0;
};

struct Instance {
  std::int64_t n = 0;
  Op op = Op::max;
  std::uint64_t modulus = kDefaultModulus;  // used by add only
  std::vector<std::int64_t> offsets;        // a0 > a1 > ... > a(k-1) > 0
  std::vector<std::uint64_t> init;  // exactly a0 values: ST[0..a0-1] (the first n when n < a0)
  mutable std::shared_ptr<ReferenceCache> reference = std::make_shared<ReferenceCache>();

  std::int64_t k() const { return std::int64_t(offsets.size()); }
  std::int64_t a0() const { return offsets.empty() ? 0 : offsets.front(); }
};

struct Solution {
  std::uint64_t checksum = 0;  // sum of ST[0..n-1] with wrap-around
};

// The operator on two values (already below the modulus for add).
inline std::uint64_t combine(Op op, std::uint64_t modulus, std::uint64_t a, std::uint64_t b) {
  switch (op) {
    case Op::min: return a < b ? a : b;
    case Op::max: return a > b ? a : b;
    case Op::add: {
      const std::uint64_t s = a + b;
      return s >= modulus ? s - modulus : s;
    }
  }
  return 0;
}

// Why `x` is not a valid instance ("" when it is): n >= 1, k >= 1, offsets strictly
// decreasing and positive, a0 initial values, values (and modulus for add) in range.
std::string why_malformed(const Instance& x);

struct Answer {
  std::uint64_t objective = 0, checksum = 0;
};
// The uint64 checksum of a table.
std::uint64_t table_checksum(const std::vector<std::uint64_t>& st);
// Reference answer through the serial algorithm (cached in x.reference).
Answer reference_answer(const Instance& x);

struct Problem {
  static constexpr const char* name = "sdp";
  static constexpr const char* file_kinds = "text";  // file_kind.hpp: others are refused by content
  static constexpr const char* help =
      "simplified DP (paper 001): ST[i] = op over j of ST[i - a_j]; objective ST[n-1], checksum of "
      "the table";
  using Instance = sdp::Instance;
  using Solution = sdp::Solution;

  // Recomputes the table serially (once per instance) and compares the checksum; the
  // verdict's objective is the recomputed ST[n-1].
  static dpgpu::Verdict check(const Instance& x, const Solution& s);
  // (n - a0)·k operator applications (0 when n <= a0).
  static double work(const Instance& x);
  static dpgpu::ValueMap dims(const Instance& x);  // n, k, a0, a_last, op
  static std::vector<dpgpu::Generator<Instance>> generators();
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src);
};

}  // namespace sdp
