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
#include "bitlcs_stripe_plan.hpp"
#include "bitlcs_window_kernel.cuh"
#include "test_bitlcs_support.hpp"

namespace {

using namespace dpgpu::bitlcs;
namespace k = dpgpu::bitlcs::kernel;

// The GPU runner's host half, with one emulated warp instead of a launch. `ring`: the carry
// words in rings of kRing slots with progress words (DevJob::ring); one warp runs each stripe
// to its end before the next starts, so the ring must hold every group (no wrap, no wait):
// this checks the ring's indices and progress words, the GPU tests its wrap and back-pressure.
constexpr std::int64_t kRing = 16;
template <class L, int W>
void run_emulated(const Symbols& s, const std::vector<PassJob>& jobs, std::int64_t total,
                  std::vector<Word>& out, bool ring = false) {
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
    d.ring = ring ? kRing : 0;
    stripes += d.stripes;
    slots += (d.stripes - 1) * (ring ? kRing : (j.y_len + 31) / 32);
    d.progress_off = slots;
    if (ring) slots += d.stripes;
    if (ring) {
      EXPECT_LE((j.y_len + 31) / 32, kRing) << "the emulation's ring must hold every group";
    }
    dev.push_back(d);
  }
  std::vector<Word> slot(std::size_t(slots + 1), 0);
  std::vector<L> smem(std::size_t(s.sigma) * W * 32);
  out.assign(std::size_t(total), 0);
  unsigned long long ticket = 0;
  // As the driver: the kernel without a row-storing path when no job stores rows.
  const bool any_store =
      std::any_of(jobs.begin(), jobs.end(), [](auto& j) { return j.store_rows; });
  dpgpu_emu::launch(1, 32, [&] {
    if (any_store)
      k::pass_body<L, W, true>(dev.data(), int(dev.size()), stripes, s.x.data(), s.y.data(),
                               s.sigma, slot.data(), &ticket, out.data(), smem.data());
    else
      k::pass_body<L, W, false>(dev.data(), int(dev.size()), stripes, s.x.data(), s.y.data(),
                                s.sigma, slot.data(), &ticket, out.data(), smem.data());
  });
  // Every slot a stripe published carries its group's tag; with rings every stripe but the
  // first has taken every group of the one below.
  for (const auto& d : dev) {
    const std::int64_t groups = (d.y_len + 31) / 32, per = ring ? kRing : groups;
    for (std::int64_t b = 0; b + 1 < d.stripes; ++b)
      for (std::int64_t g = 0; g < groups; ++g)
        ASSERT_EQ(slot[std::size_t(d.slot_off + b * per + g)] >> 32, std::uint64_t(g + 1))
            << "stripe " << b << " group " << g;
    for (std::int64_t b = 1; ring && b < d.stripes; ++b) {
      ASSERT_EQ(slot[std::size_t(d.progress_off + b)], std::uint64_t(groups)) << "stripe " << b;
    }
  }
}

template <class L, int W>
void expect_same_as_model(std::uint64_t seed) {
  constexpr std::int64_t kStripeBits = 32 * W * 8 * std::int64_t(sizeof(L));
  std::mt19937_64 rng(seed);
  // With stored rows in the batch (the kernel with both paths), without (the length kernel,
  // which has no row-storing path), and without with the carry words in rings.
  for (int mode : {0, 1, 2})
    for (int alpha : {2, 4, 256}) {
      const std::string sym = test::alphabet(alpha);
      const std::string x = test::random_string(9000, sym, rng),
                        y = test::random_string(300, sym, rng);
      const Symbols s = encode(x, y);
      std::vector<PassJob> jobs;
      // Word, stripe and group boundaries: bits 1, 63, 64, 65, one and two stripes ± 1; rows
      // 1, 31, 32, 33, 95 and a few hundred.
      const std::int64_t bits[] = {1,
                                   31,
                                   33,
                                   63,
                                   64,
                                   65,
                                   kStripeBits - 1,
                                   kStripeBits,
                                   kStripeBits + 1,
                                   2 * kStripeBits + 65};
      const std::int64_t rows[] = {1, 31, 32, 33, 95, 300};
      int t = 0;
      for (std::int64_t n : bits)
        for (std::int64_t m : rows) {
          PassJob j;
          j.x_len = std::min<std::int64_t>(n, 9000), j.y_len = m;
          j.x_off = (t * 37) % (9000 - j.x_len + 1), j.y_off = (t * 11) % (300 - m + 1);
          j.reversed = t % 2;
          j.store_rows = mode == 0 && t % 5 == 0;
          jobs.push_back(j);
          ++t;
        }
      const std::int64_t total = lay_out(jobs);
      std::vector<Word> want, got;
      CpuPassRunner(s).run(jobs, total, want);
      run_emulated<L, W>(s, jobs, total, got, mode == 2);
      std::size_t bad = 0, first = 0;
      for (std::size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i] && bad++ == 0) first = i;
      EXPECT_EQ(bad, 0u) << "bits=" << 8 * sizeof(L) << " W=" << W << " alphabet " << alpha
                         << (mode == 0   ? " (stored rows)"
                             : mode == 1 ? " (length)"
                                         : " (rings)")
                         << ": first wrong word " << first << " of " << want.size();
    }
}

// The multi-GPU pass (bitlcs_stripe_plan.hpp) with `gpus` logical GPUs, one emulated warp
// each; the "peer copy" is a copy of the exported ring runs. Launches and copies run in the
// most adversarial order the pipeline's rules (kRingLag) allow: every GPU runs ahead as far as
// it may, copies as late as they may, so a missing rule shows as a wrong word (or a stripe
// waiting forever for a tag). Returns V at the end as the one-GPU pass does.
template <class L, int W>
std::vector<Word> pipeline_emulated(const Symbols& s, const PassJob& j, int gpus,
                                    std::int64_t launch_rows) {
  constexpr std::int64_t kPerWord = 64 / (8 * std::int64_t(sizeof(L))), kStripe = 32 * W;
  k::DevJob job{};
  job.x_off = j.x_off, job.x_len = j.x_len, job.y_off = j.y_off, job.y_len = j.y_len;
  job.words = words_of(j.x_len) * kPerWord;
  job.stripes = (job.words + kStripe - 1) / kStripe;
  job.flags = j.reversed ? k::kReversed : 0;
  const StripePlan p = plan_stripes(job.stripes, j.y_len, gpus, launch_rows);
  const int g_count = p.gpus();
  std::vector<std::vector<Word>> rings(g_count), import(g_count), v(g_count);
  for (int g = 0; g < g_count; ++g) {
    const std::int64_t local = p.first[g + 1] - p.first[g];
    rings[g].assign(std::size_t(local * p.ring), 0);
    import[g].assign(std::size_t(p.ring), 0);
    v[g].assign(std::size_t(local * kStripe / kPerWord), ~Word{0});
  }
  std::vector<L> smem(std::size_t(s.sigma) * W * 32);
  auto launch = [&](int g, std::int64_t r) {
    if (!p.active(g, r)) return;
    unsigned long long ticket = 0;
    k::WindowArgs a;
    a.job = job, a.stripe0 = p.first[g], a.stripes = p.first[g + 1] - p.first[g];
    a.row0 = r * p.launch_rows, a.launch_rows = p.launch_rows, a.skew = p.skew,
    a.ring_mask = p.ring - 1;
    a.import = g > 0 ? import[g].data() : nullptr;
    a.rings = rings[g].data(), a.v = v[g].data(), a.ticket = &ticket;
    dpgpu_emu::launch(
        1, 32, [&] { k::window_body<L, W>(a, s.x.data(), s.y.data(), s.sigma, smem.data()); });
  };
  auto copy = [&](int g, std::int64_t r) {
    const Word* last = rings[g].data() + (p.first[g + 1] - p.first[g] - 1) * p.ring;
    for (const RingRun& run : ring_runs(p.exported(g, r), p.ring))
      std::copy(last + run.at, last + run.at + run.count, import[g + 1].begin() + run.at);
  };
  // done_l[g]: launches of GPU g done; done_c[g]: its copies done (to GPU g+1).
  std::vector<std::int64_t> done_l(std::size_t(g_count), 0), done_c(std::size_t(g_count), 0);
  for (bool progress = true; progress;) {
    progress = false;
    for (int g = 0; g < g_count; ++g) {  // launches first, as far as the rules allow
      const std::int64_t r = done_l[std::size_t(g)];
      const bool last = g + 1 == g_count;
      if (r < p.launches && (g == 0 || done_c[std::size_t(g - 1)] > r) &&
          (last || r < kRingLag || done_c[std::size_t(g)] > r - kRingLag)) {
        launch(g, r), ++done_l[std::size_t(g)], progress = true;
        break;
      }
    }
    if (progress) continue;
    for (int g = 0; g + 1 < g_count; ++g) {  // then one copy
      const std::int64_t r = done_c[std::size_t(g)];
      if (r < p.launches && done_l[std::size_t(g)] > r &&
          (r < kRingLag || done_l[std::size_t(g + 1)] > r - kRingLag)) {
        copy(g, r), ++done_c[std::size_t(g)], progress = true;
        break;
      }
    }
  }
  for (int g = 0; g < g_count; ++g)
    EXPECT_EQ(done_l[std::size_t(g)], p.launches) << "the schedule stalled";
  std::vector<Word> out(std::size_t(words_of(j.x_len)), 0);
  auto* dst = reinterpret_cast<L*>(out.data());
  for (int g = 0; g < g_count; ++g) {
    const std::int64_t begin = p.first[g] * kStripe,
                       end = std::min(job.words, p.first[g + 1] * kStripe);
    const auto* src = reinterpret_cast<const L*>(v[g].data());
    std::copy(src, src + (end - begin), dst + begin);
  }
  return out;
}

template <class L, int W>
void expect_pipeline_same_as_model(std::uint64_t seed) {
  constexpr std::int64_t kStripeBits = 32 * W * 8 * std::int64_t(sizeof(L));
  std::mt19937_64 rng(seed);
  for (int alpha : {2, 4, 20}) {
    const std::string sym = test::alphabet(alpha);
    const std::string x = test::random_string(4 * kStripeBits + 77, sym, rng),
                      y = test::random_string(701, sym, rng);
    const Symbols s = encode(x, y);
    // Odd and unequal lengths; windows of one group and of many; stripes per GPU 1 and more.
    const std::int64_t bits[] = {kStripeBits + 1, 3 * kStripeBits - 5, 4 * kStripeBits + 77};
    const std::int64_t rows[] = {33, 701};
    int t = 0;
    for (std::int64_t n : bits)
      for (std::int64_t m : rows)
        for (int gpus : {2, 3, 4})
          for (std::int64_t launch_rows : {32, 1024}) {
            PassJob j;
            j.x_len = n, j.y_len = m, j.reversed = t % 2;
            j.x_off = std::int64_t(x.size()) - n, j.y_off = (t * 7) % (701 - m + 1);
            ++t;
            std::vector<Word> want;
            std::vector<PassJob> one{j};
            CpuPassRunner(s).run(one, lay_out(one), want);
            const std::vector<Word> got = pipeline_emulated<L, W>(s, one[0], gpus, launch_rows);
            ASSERT_EQ(got, want) << "bits=" << 8 * sizeof(L) << " W=" << W << " alphabet " << alpha
                                 << " n=" << n << " m=" << m << " gpus=" << gpus
                                 << " launch_rows=" << launch_rows;
          }
  }
}

TEST(BitLcsKernelOnCpu, PipelineOverGpus) {
  expect_pipeline_same_as_model<k::u64, 1>(41);
  expect_pipeline_same_as_model<k::u32, 2>(42);
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
