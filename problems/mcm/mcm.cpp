// Validation, bounds, parenthesization (write and parse), check, sizes and registration.
#include "mcm/mcm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"

namespace mcm {

using u128 = unsigned __int128;

std::string why_malformed(const Instance& x) {
  if (x.p.size() < 2)
    return fmt::format("at least 2 dimensions (one matrix) are needed, got {}", x.p.size());
  if (x.n() > kMaxN) return fmt::format("n = {} matrices exceeds {}", x.n(), kMaxN);
  for (std::size_t t = 0; t < x.p.size(); ++t)
    if (x.p[t] < 1 || x.p[t] > kMaxDim)
      return fmt::format("dimension p{} = {} is not in [1, {}]", t, x.p[t], kMaxDim);
  return {};
}

namespace {

constexpr u128 kSaturate = u128(1) << 127;

u128 sat_mul(u128 a, u128 b) {
  if (a == 0 || b == 0) return 0;
  return a > kSaturate / b ? kSaturate : std::min(a * b, kSaturate);
}

std::string u128_text(u128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v) {
    s += char('0' + int(v % 10));
    v /= 10;
  }
  return {s.rbegin(), s.rend()};
}

}  // namespace

u128 cost_bound(const Instance& x) {
  // max over intervals [a, b] of (b - a - 1)·min(p_a..p_b): for each t as the minimum, its
  // widest interval (p >= p_t on both sides), found with a monotone stack in O(n).
  const auto& p = x.p;
  const std::int64_t m = std::int64_t(p.size());
  std::vector<std::int64_t> lo(static_cast<std::size_t>(m)), hi(static_cast<std::size_t>(m)), stack;
  for (std::int64_t t = 0; t < m; ++t) {
    while (!stack.empty() && p[std::size_t(stack.back())] >= p[std::size_t(t)]) stack.pop_back();
    lo[std::size_t(t)] = stack.empty() ? 0 : stack.back() + 1;
    stack.push_back(t);
  }
  stack.clear();
  for (std::int64_t t = m - 1; t >= 0; --t) {
    while (!stack.empty() && p[std::size_t(stack.back())] >= p[std::size_t(t)]) stack.pop_back();
    hi[std::size_t(t)] = stack.empty() ? m - 1 : stack.back() - 1;
    stack.push_back(t);
  }
  u128 best = 0;
  for (std::int64_t t = 0; t < m; ++t) {
    const std::int64_t width = hi[std::size_t(t)] - lo[std::size_t(t)] - 1;  // b - a - 1
    if (width > 0) best = std::max(best, u128(width) * u128(p[std::size_t(t)]));
  }
  const u128 pmax = u128(*std::max_element(p.begin(), p.end()));
  return sat_mul(best, pmax * pmax);
}

u128 split_bound(const Instance& x) {
  const u128 pmax = u128(*std::max_element(x.p.begin(), x.p.end()));
  const u128 c = cost_bound(x);
  const u128 two_c = c >= kSaturate / 2 ? kSaturate : 2 * c;
  const u128 cube = sat_mul(pmax * pmax, pmax);
  return std::min(kSaturate, two_c + cube);
}

std::string split_bound_excess(const Instance& x, u128 limit, const std::string& limit_name) {
  const u128 b = split_bound(x);
  if (b <= limit) return {};
  return fmt::format(
      "a cost could reach {} (bound 2·P²·max(b-a-1)·min(p_a..p_b) + P³, P = max p), above {} = {}",
      u128_text(b), limit_name, u128_text(limit));
}

std::string int64_excess(const Instance& x) {
  return split_bound_excess(x, u128(std::numeric_limits<std::int64_t>::max()), "2^63 - 1");
}

void require_split_bound(const Instance& x, u128 limit, const std::string& who,
                         const std::string& limit_name) {
  if (auto why = split_bound_excess(x, limit, limit_name); !why.empty())
    throw dpgpu::InputError(fmt::format("{}: refused: {}", who, why));
}

bool costs_fit_32_bits(const Instance& x) { return cost_bound(x) < (u128(1) << 32); }

std::string parenthesize(std::int64_t n,
                         const std::function<std::int64_t(std::int64_t, std::int64_t)>& split) {
  std::string out;
  // Work items: an interval to expand, or a ')' to emit.
  struct Item {
    std::int64_t a, b;  // b < 0: emit ')'
  };
  std::vector<Item> stack{{0, n}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    if (it.b < 0) {
      out += ')';
    } else if (it.b - it.a == 1) {
      out += 'A';
      out += std::to_string(it.b);
    } else {
      const std::int64_t c = split(it.a, it.b);
      if (c <= it.a || c >= it.b)
        throw std::logic_error(
            fmt::format("split {} of [{}, {}) is outside the interval", c, it.a, it.b));
      out += '(';
      stack.push_back({0, -1});
      stack.push_back({c, it.b});
      stack.push_back({it.a, c});
    }
  }
  return out;
}

std::string parenthesize_preorder(std::int64_t n, const std::vector<std::int64_t>& splits) {
  std::size_t next = 0;
  return parenthesize(n, [&](std::int64_t a, std::int64_t b) {
    if (next >= splits.size())
      throw std::logic_error(fmt::format("preorder split list ended at [{}, {})", a, b));
    return splits[next++];
  });
}

Cost cost_of(const Instance& x, const std::string& s) {
  struct Node {
    std::int64_t first, last;  // matrices first..last (1-based)
    u128 cost;
  };
  constexpr std::int64_t kOpen = -1;
  std::vector<Node> stack;
  std::int64_t expected = 1;
  const u128 limit = u128(std::numeric_limits<std::int64_t>::max());
  auto fail = [](std::size_t at, const std::string& why) {
    return Cost{false, 0, fmt::format("at character {}: {}", at + 1, why)};
  };
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    if (ch == '(') {
      stack.push_back({kOpen, kOpen, 0});
      ++i;
    } else if (ch == 'A') {
      std::size_t j = i + 1;
      std::int64_t v = 0;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) && v <= kMaxN)
        v = v * 10 + (s[j++] - '0');
      if (j == i + 1) return fail(i, "'A' without a number");
      if (v != expected)
        return fail(i, fmt::format("A{} where A{} was expected (matrices in order, each once)", v,
                                   expected));
      ++expected;
      stack.push_back({v, v, 0});
      i = j;
    } else if (ch == ')') {
      if (stack.size() < 3) return fail(i, "')' without two operands");
      const Node right = stack.back();
      stack.pop_back();
      const Node left = stack.back();
      stack.pop_back();
      if (left.first == kOpen || right.first == kOpen || stack.back().first != kOpen)
        return fail(i, "a parenthesis must hold exactly two operands");
      stack.pop_back();
      // left is p(first-1) × p(last), right is p(last) × p(right.last).
      const u128 mult = u128(x.p[std::size_t(left.first - 1)]) * u128(x.p[std::size_t(left.last)]) *
                        u128(x.p[std::size_t(right.last)]);
      const u128 cost = left.cost + right.cost + mult;
      if (cost > limit) return fail(i, "the cost exceeds 2^63 - 1");
      stack.push_back({left.first, right.last, cost});
      ++i;
    } else {
      return fail(i, fmt::format("unexpected character '{}'", ch));
    }
  }
  if (expected != x.n() + 1)
    return {false, 0, fmt::format("{} matrices named, {} expected", expected - 1, x.n())};
  if (stack.size() != 1 || stack[0].first == kOpen) return {false, 0, "unbalanced parentheses"};
  return {true, std::int64_t(stack[0].cost), {}};
}

double split_evaluations(std::int64_t n) { return double(n) * (double(n) * double(n) - 1.0) / 6.0; }

dpgpu::Verdict Problem::check(const Instance& x, const Solution& s) {
  if (auto why = why_malformed(x); !why.empty())
    return dpgpu::Verdict::invalid("the instance is malformed: " + why);
  const Cost c = cost_of(x, s.parenthesization);
  if (!c.ok) return dpgpu::Verdict::invalid("the parenthesization is not valid: " + c.why);
  return dpgpu::Verdict::valid(dpgpu::Objective(c.cost));
}

double Problem::work(const Instance& x) { return split_evaluations(x.n()); }

dpgpu::ValueMap Problem::dims(const Instance& x) {
  const auto pmax = x.p.empty() ? 0 : *std::max_element(x.p.begin(), x.p.end());
  const u128 b = x.p.size() >= 2 ? cost_bound(x) : 0;
  std::int64_t bits = 0;
  for (u128 v = b; v; v >>= 1) ++bits;
  return {{"n", x.n()}, {"p_max", pmax}, {"cost_bits", bits}};
}

}  // namespace mcm

DPGPU_REGISTER_PROBLEM(mcm::Problem);
