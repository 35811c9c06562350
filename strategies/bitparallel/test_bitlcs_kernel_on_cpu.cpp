// test_bitlcs_kernel_on_cpu.cpp — the kernel's source (bitlcs_kernel.cuh), unchanged, run on
// the CPU through gpu.wavefront's warp emulation (lanes as fibers meeting at shuffles), held
// word for word to CpuPassRunner. One warp at a time takes all tickets in order, so every
// stripe's predecessor has finished before it starts: this checks indices, skew, the symbol
// and carry hand-over, slot tags, padding and the stored rows, not timing or memory order
// between warps (the GPU test does that). Needs no GPU and no CUDA: runs in CI.
#define DPGPU_BITLCS_CPU_EMULATION 1
#include "cpu_warp_emulation.hpp"

#define __restrict__ __restrict
inline void __syncwarp() {}
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  const unsigned long long old = *p;
  *p += v;
  return old;
}

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "bitlcs_kernel.cuh"
#include "bitlcs_pass.hpp"
#include "test_bitlcs_support.hpp"

namespace {

using namespace dpgpu::bitlcs;
namespace k = dpgpu::bitlcs::kernel;

// The GPU runner's host half, with one emulated warp instead of a launch.
template <class L, int W>
void run_emulated(const Symbols& s, const std::vector<PassJob>& jobs, std::int64_t total, std::vector<Word>& out) {
  std::vector<k::DevJob> dev;
  std::int64_t stripes = 0, slots = 0;
  for (const PassJob& j : jobs) {
    k::DevJob d{};
    d.x_off = j.x_off, d.x_len = j.x_len, d.y_off = j.y_off, d.y_len = j.y_len;
    d.words = words_of(j.x_len) * (64 / (8 * std::int64_t(sizeof(L))));
    d.stripes = (d.words + 32 * W - 1) / (32 * W);
    d.stripe_base = stripes;
    d.slot_off = slots;
    d.out_off = j.out_off;
    d.flags = (j.reversed ? k::kReversed : 0) | (j.store_rows ? k::kStoreRows : 0);
    stripes += d.stripes;
    slots += (d.stripes - 1) * ((j.y_len + 31) / 32);
    dev.push_back(d);
  }
  std::vector<Word> slot(std::size_t(slots + 1), 0);
  std::vector<L> smem(std::size_t(s.sigma) * W * 32);
  out.assign(std::size_t(total), 0);
  unsigned long long ticket = 0;
  dpgpu_emu::launch(1, 32, [&] {
    k::pass_body<L, W>(dev.data(), int(dev.size()), stripes, s.x.data(), s.y.data(), s.sigma, slot.data(), &ticket,
                    out.data(), smem.data());
  });
  // Every slot a stripe published carries its group's tag.
  for (const auto& d : dev) {
    const std::int64_t groups = (d.y_len + 31) / 32;
    for (std::int64_t b = 0; b + 1 < d.stripes; ++b)
      for (std::int64_t g = 0; g < groups; ++g)
        ASSERT_EQ(slot[std::size_t(d.slot_off + b * groups + g)] >> 32, std::uint64_t(g + 1)) << "stripe " << b << " group " << g;
  }
}

template <class L, int W>
void expect_same_as_model(std::uint64_t seed) {
  constexpr std::int64_t kStripeBits = 32 * W * 8 * std::int64_t(sizeof(L));
  std::mt19937_64 rng(seed);
  for (int alpha : {2, 4, 256}) {
    const std::string sym = test::alphabet(alpha);
    const std::string x = test::random_string(9000, sym, rng), y = test::random_string(300, sym, rng);
    const Symbols s = encode(x, y);
    std::vector<PassJob> jobs;
    // Word, stripe and group boundaries: bits 1, 63, 64, 65, one and two stripes ± 1; rows
    // 1, 31, 32, 33, 95 and a few hundred.
    const std::int64_t bits[] = {1, 31, 33, 63, 64, 65, kStripeBits - 1, kStripeBits, kStripeBits + 1, 2 * kStripeBits + 65};
    const std::int64_t rows[] = {1, 31, 32, 33, 95, 300};
    int t = 0;
    for (std::int64_t n : bits)
      for (std::int64_t m : rows) {
        PassJob j;
        j.x_len = std::min<std::int64_t>(n, 9000), j.y_len = m;
        j.x_off = (t * 37) % (9000 - j.x_len + 1), j.y_off = (t * 11) % (300 - m + 1);
        j.reversed = t % 2;
        j.store_rows = t % 5 == 0;
        jobs.push_back(j);
        ++t;
      }
    const std::int64_t total = lay_out(jobs);
    std::vector<Word> want, got;
    CpuPassRunner(s).run(jobs, total, want);
    run_emulated<L, W>(s, jobs, total, got);
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i] && bad++ == 0) first = i;
    EXPECT_EQ(bad, 0u) << "bits=" << 8 * sizeof(L) << " W=" << W << " alphabet " << alpha << ": first wrong word " << first << " of " << want.size();
  }
}

TEST(BitLcsKernelOnCpu, OneWordPerLane) {
  expect_same_as_model<k::u64, 1>(31);
  expect_same_as_model<k::u32, 1>(34);
}
TEST(BitLcsKernelOnCpu, TwoWordsPerLane) {
  expect_same_as_model<k::u64, 2>(32);
  expect_same_as_model<k::u32, 2>(35);
}
TEST(BitLcsKernelOnCpu, FourWordsPerLane) {
  expect_same_as_model<k::u64, 4>(33);
  expect_same_as_model<k::u32, 4>(36);
}

}  // namespace
