// cpu.chowdhury against the reference and the other CPU solvers: the boundary recursion on
// its own, the LCS string (checked), shapes around the cut-off, threads, linear memory.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/chowdhury.hpp"
#include "lcs/generators.hpp"
#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"
#include "lcs/reference.hpp"

namespace {

namespace ch = lcs::chowdhury;

ch::Options opts(std::size_t cutoff, int threads = 1, std::size_t task_min = 8) {
  ch::Options o;
  o.cutoff = cutoff;
  o.threads = threads;
  o.task_min_side = task_min;
  return o;
}

// The LCS string must be a common subsequence of both and have the reference length.
void expect_lcs(const std::string& a, const std::string& b, const ch::Options& o) {
  SCOPED_TRACE(testing::Message() << "|a|=" << a.size() << " |b|=" << b.size() << " cutoff "
                                  << o.cutoff << " threads " << o.threads);
  const auto r = lcs::cpu::chowdhury(a, b, o);
  const auto v = lcs::Problem::check({a, b}, {r.subsequence});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, lcs::reference_length(a, b));
  EXPECT_EQ(std::int64_t(r.subsequence.size()), lcs::cpu::linear(a, b));
}

TEST(Chowdhury, TextbookPair) {
  for (std::size_t cutoff : {1, 2, 3, 100}) {
    const auto r = lcs::cpu::chowdhury("ABCBDAB", "BDCABA", opts(cutoff));
    EXPECT_EQ(r.subsequence.size(), 4u);
    EXPECT_TRUE(lcs::Problem::check({"ABCBDAB", "BDCABA"}, {r.subsequence}).ok);
  }
}

// The forward pass alone: output boundaries of an inner region with arbitrary (true) inputs
// equal a full table's, for cut-offs that split unevenly or not at all.
TEST(Chowdhury, OutputBoundaryEqualsFullTable) {
  auto x = lcs::random_pair(181, 157, 3, 5);
  const std::size_t n = x.a.size(), m = x.b.size();
  std::vector<std::vector<ch::Score>> d(n + 1, std::vector<ch::Score>(m + 1, 0));
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j)
      d[i][j] = x.a[i - 1] == x.b[j - 1] ? d[i - 1][j - 1] + 1 : std::max(d[i - 1][j], d[i][j - 1]);
  const ch::Region r{17, 9, n - 17, m - 9};
  for (std::size_t cutoff : {1, 2, 5, 16, 64, 1000}) {
    std::vector<ch::Score> top(r.w), left(r.h);
    for (std::size_t k = 0; k < r.w; ++k) top[k] = d[r.i0][r.j0 + 1 + k];
    for (std::size_t k = 0; k < r.h; ++k) left[k] = d[r.i0 + 1 + k][r.j0];
    ch::CpuOnly leaf;
    ch::Progress progress({});
    ch::MemoryMeter meter;
    ch::Recursion<ch::CpuOnly> rec(x.a, x.b, opts(cutoff), leaf, progress, meter);
    rec.boundary(r, top.data(), left.data(), d[r.i0][r.j0]);
    for (std::size_t k = 0; k < r.w; ++k)
      ASSERT_EQ(top[k], d[n][r.j0 + 1 + k]) << "cutoff " << cutoff << " k " << k;
    for (std::size_t k = 0; k < r.h; ++k)
      ASSERT_EQ(left[k], d[r.i0 + 1 + k][m]) << "cutoff " << cutoff << " k " << k;
    EXPECT_EQ(progress.cpu_cells(), r.h * r.w);
    EXPECT_EQ(meter.peak(), 0u) << "the forward pass works in place";
  }
}

TEST(Chowdhury, EdgeSizesAlphabetsAndCutoffs) {
  const int sizes[] = {0, 1, 2, 15, 16, 17, 33, 64, 100};
  std::uint64_t seed = 1;
  for (int k : {1, 2, 4, 200})
    for (int n : sizes)
      for (int m : sizes) {
        auto x = lcs::random_pair(n, m, k, seed++);
        for (std::size_t cutoff : {1, 16}) expect_lcs(x.a, x.b, opts(cutoff));
      }
}

TEST(Chowdhury, AroundTheCutoffAndOneStringMuchLonger) {
  const std::size_t cutoff = 64;
  const std::pair<int, int> shapes[] = {{63, 64},  {64, 65},  {65, 65},    {128, 129},  {129, 127},
                                        {3000, 5}, {7, 2500}, {4097, 300}, {200, 2049}, {1, 3000}};
  std::uint64_t seed = 50;
  for (int k : {2, 4, 200})
    for (auto [n, m] : shapes) {
      auto x = lcs::random_pair(n, m, k, seed++);
      expect_lcs(x.a, x.b, opts(cutoff));
    }
}

TEST(Chowdhury, ThreadsAgreeWithOneThread) {
  auto x = lcs::random_pair(2100, 1900, 4, 9);
  for (int threads : {1, 2, 4}) expect_lcs(x.a, x.b, opts(32, threads, 64));
  auto y = lcs::random_pair(1500, 1700, 200, 10);
  expect_lcs(y.a, y.b, opts(8, 3, 16));
}

TEST(Chowdhury, PlantedInstancesExact) {
  for (double fraction : {0.0, 0.3, 1.0}) {
    auto p = lcs::planted_pair(1800, 2300, 4, fraction, 31);
    for (std::size_t cutoff : {7, 256}) {
      const auto r = lcs::cpu::chowdhury(p.instance.a, p.instance.b, opts(cutoff));
      const auto v = lcs::Problem::check(p.instance, {r.subsequence});
      EXPECT_TRUE(v.ok) << v.message;
      EXPECT_EQ(v.objective, p.lcs_length) << "fraction " << fraction;
    }
  }
}

TEST(Chowdhury, IdenticalAndUnary) {
  const std::string s = lcs::random_pair(900, 1, 4, 3).a;
  expect_lcs(s, s, opts(16));
  expect_lcs(std::string(700, 'a'), std::string(500, 'a'), opts(16));
  expect_lcs(std::string(700, 'a'), std::string(500, 'b'), opts(16));
}

// Peak scratch grows linearly: doubling both lengths at most doubles what is above the
// fixed decision table, and stays under the bound the solver declares.
TEST(Chowdhury, PeakMemoryIsLinear) {
  const std::size_t cutoff = 32;
  std::size_t prev = 0;
  for (int n : {2000, 4000, 8000}) {
    auto x = lcs::random_pair(n, n, 4, 77);
    const auto r = lcs::cpu::chowdhury(x.a, x.b, opts(cutoff));
    const std::size_t fixed = cutoff * cutoff, linear = r.peak_scratch_bytes - fixed;
    EXPECT_LE(r.peak_scratch_bytes, 16 * std::size_t(2 * n) + fixed + n) << n;
    EXPECT_GE(linear, std::size_t(8 * n)) << "the top-level boundary alone is 4 (n + m) bytes";
    if (prev) {
      EXPECT_LE(linear, 2 * prev + 2048) << n;  // one more level: a constant more
    }
    prev = linear;
  }
}

// The task structure, apart from the cores: leaves that sleep need no CPU, so how many run at
// once shows what the OpenMP tasks allow. With Q21 run inline beside the Q12 task, GCC's
// OpenMP never ran more than 4 at once; with both as tasks it runs many more.
struct SleepingLeaf {
  std::string_view a, b;
  std::atomic<int> active{0}, peak{0};
  bool offload(const ch::Region& r) const { return std::max(r.h, r.w) <= 128; }
  void boundary(const ch::Region& r, ch::Score* top, ch::Score* left, ch::Score corner) {
    const int now = ++active;
    for (int p = peak; now > p && !peak.compare_exchange_weak(p, now);) {
    }
    ch::base_boundary(a, b, r, top, left, corner);
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    --active;
  }
};

TEST(Chowdhury, TasksLetManyLeavesRunAtOnce) {
  auto x = lcs::random_pair(2048, 2048, 4, 2);
  SleepingLeaf leaf{x.a, x.b};
  const auto r = ch::solve(x.a, x.b, opts(64, 16, 256), leaf, {});
  EXPECT_TRUE(lcs::Problem::check(x, {r.subsequence}).ok);
  EXPECT_EQ(std::int64_t(r.subsequence.size()), lcs::reference_length(x.a, x.b));
  EXPECT_GT(leaf.peak.load(), 4);
}

TEST(Chowdhury, StopsOnTheDeadline) {
  auto x = lcs::random_pair(6000, 6000, 4, 1);
  for (int threads : {1, 2}) {
    int polls = 0;
    auto poll = [&polls] {
      if (++polls == 1) throw dpgpu::Timeout("deadline");
    };
    EXPECT_THROW(lcs::cpu::chowdhury(x.a, x.b, opts(64, threads, 256), poll), dpgpu::Timeout);
  }
}

TEST(Chowdhury, RegisteredWithCertificateAndParameters) {
  auto* s = dpgpu::Registry::get().solver("lcs", "cpu.chowdhury");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->backend, dpgpu::Backend::Cpu);
  auto p = s->schema.resolve({});
  EXPECT_EQ(p.integer("threads"), 1);
  EXPECT_THROW(s->schema.resolve({{"cutoff", std::int64_t{0}}}), dpgpu::InputError);
  auto p700 = lcs::planted_pair(700, 900, 4, 0.5, 3);
  const auto length = p700.lcs_length;
  auto x = dpgpu::erase_instance<lcs::Problem>({"planted", std::move(p700.instance), length});
  dpgpu::Context ctx(dpgpu::Backend::Cpu, dpgpu::Context::Clock::now() + std::chrono::hours(1));
  auto out = s->solve(
      x, s->schema.resolve({{"threads", std::int64_t{2}}, {"cutoff", std::int64_t{16}}}), ctx);
  EXPECT_EQ(out.objective, length);
  auto verdict = dpgpu::Registry::get().problem("lcs")->check(x, out);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->ok) << verdict->message;
  EXPECT_LE(ctx.counters().at("peak_host_bytes"), double(s->memory(x, p).host + 16 * 16));
  EXPECT_GT(ctx.counters().at("peak_host_bytes"), 0);
}

}  // namespace
