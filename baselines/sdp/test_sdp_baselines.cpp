// cpu.serial and cpu.pipeline_sim against the problem's reference, the step formula, the
// correctness bound (and that it is tight), and the read conflicts of the worst case.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "sdp/generators.hpp"
#include "sdp/pipeline_bounds.hpp"
#include "sdp_cpu.hpp"

namespace sdp {
namespace {

using namespace dpgpu::pipeline;  // the pipelines' formulas (problems/sdp/pipeline_bounds.hpp)

std::vector<Instance> corpus() {
  std::vector<Instance> v;
  std::uint64_t seed = 1;
  for (Op op : {Op::min, Op::max, Op::add}) {
    for (std::int64_t n : {1, 3, 40, 1000, 4097}) {
      v.push_back(make_instance(n, op, 1000000007, consecutive_offsets(5), 1000, seed++));
      v.push_back(make_instance(n, op, 97, strided_offsets(3, 7), 1u << 20, seed++));
      v.push_back(make_instance(n, op, 1000000007, random_offsets(6, 50, seed), 1u << 30, seed));
      ++seed;
      v.push_back(make_instance(n, op, 1000000007, {9}, 1000, seed++));  // k = 1
    }
  }
  // 64-bit cells: values above 2^32, and add with a modulus above 2^31.
  v.push_back(make_instance(3000, Op::max, 1, strided_offsets(4, 3), std::uint64_t{1} << 40, 77));
  v.push_back(make_instance(3000, Op::add, (std::uint64_t{1} << 40) + 15, strided_offsets(4, 3),
                            std::uint64_t{1} << 40, 78));
  return v;
}

TEST(SdpSerial, AgreesWithTheReference) {
  for (const auto& x : corpus()) {
    const Answer ref = reference_answer(x);
    const cpu::TableAnswer got = cpu::serial(x);
    EXPECT_EQ(got.objective, ref.objective)
        << "n=" << x.n << " k=" << x.k() << " op=" << to_string(x.op);
    EXPECT_EQ(got.checksum, ref.checksum)
        << "n=" << x.n << " k=" << x.k() << " op=" << to_string(x.op);
  }
}

TEST(SdpPipelineSim, EveryValidFoldAgreesAndTakesTheFormulasSteps) {
  for (const auto& x : corpus()) {
    const Answer ref = reference_answer(x);
    const std::int64_t pmax = max_fold(x.offsets);
    for (std::int64_t p : {std::int64_t{1}, std::max<std::int64_t>(1, pmax / 2), pmax}) {
      const cpu::SimReport r = cpu::simulate(x, p, "pfold", true);
      EXPECT_EQ(r.answer.objective, ref.objective) << "p=" << p;
      EXPECT_EQ(r.answer.checksum, ref.checksum) << "p=" << p;
      EXPECT_EQ(r.steps, pipeline_steps(x.n, x.a0(), x.k(), p));
      if (x.n > x.a0() && (x.n - x.a0()) % p == 0) {
        EXPECT_EQ(r.steps, paper_step_formula(x.n, x.a0(), x.k(), p));
      }
      EXPECT_EQ(r.operations, std::max<std::int64_t>(0, x.n - x.a0()) * x.k());
    }
  }
}

TEST(SdpPipelineSim, PapersFigure7) {
  // k = 3, a = (10, 8, 5), p = 3: 9 threads per step.
  Instance x = make_instance(40, Op::add, 1000003, {10, 8, 5}, 100, 3);
  EXPECT_EQ(max_fold(x.offsets), 3);
  const cpu::SimReport r = cpu::simulate(x, 3, "pfold", true);
  EXPECT_EQ(r.threads, 9);
  EXPECT_EQ(r.steps, 10 + 2);  // ceil(30/3) + k - 1
  EXPECT_EQ(r.steps, paper_step_formula(40, 10, 3, 3));
  EXPECT_EQ(r.answer.checksum, reference_answer(x).checksum);
}

TEST(SdpPipelineSim, PapersLoopBoundMissesAPartialLastBlock) {
  // n - a0 = 31 is not a multiple of p = 3: Figure 6's loop stops one step early.
  Instance x = make_instance(41, Op::max, 1, {10, 8, 5}, 100, 3);
  EXPECT_EQ(pipeline_steps(41, 10, 3, 3), paper_step_formula(41, 10, 3, 3) + 1);
  EXPECT_EQ(cpu::simulate(x, 3, "pfold", true).answer.checksum, reference_answer(x).checksum);
}

TEST(SdpPipelineSim, FoldAboveTheBoundIsRefusedWithTheBound) {
  Instance x = make_instance(200, Op::max, 1, {10, 8, 5}, 100, 3);
  try {
    cpu::simulate(x, 4, "pfold", true);
    FAIL() << "p = 4 accepted";
  } catch (const dpgpu::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("largest valid fold 3"), std::string::npos) << e.what();
  }
}

TEST(SdpPipelineSim, TheBoundIsTight) {
  // Run the schedule one above the bound: the checks must catch a read of an unfinished value.
  for (auto offsets :
       {std::vector<std::int64_t>{10, 8, 5}, strided_offsets(4, 6), consecutive_offsets(4)}) {
    Instance x = make_instance(500, Op::max, 1, offsets, 100, 5);
    const std::int64_t p = max_fold(offsets) + 1;
    try {
      cpu::simulate(x, p, "pfold", false);
      FAIL() << "p = " << p << " ran without a violation";
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find("not final"), std::string::npos) << e.what();
    }
  }
}

TEST(SdpPipelineSim, ConsecutiveOffsetsAreTheWorstCaseForReads) {
  const std::int64_t k = 5;
  Instance x = make_instance(300, Op::add, 1000000007, consecutive_offsets(k), 1000, 9);
  const cpu::SimReport r = cpu::simulate(x, 1, "pfold", true);
  EXPECT_EQ(r.max_readers, k);  // Figure 4: every stage reads ST[i - k]
  // Every step reads one element only, so all reads but one per step conflict.
  EXPECT_EQ(r.read_conflicts, (300 - k) * k - r.steps);
  EXPECT_GT(r.model_time, r.steps * 4);
}

TEST(SdpPipelineSim, TwoByTwoIsCorrectAndConflictFreeOnConsecutiveOffsets) {
  for (std::int64_t k : {1, 2, 3, 4, 5, 8, 16, 17}) {
    for (Op op : {Op::min, Op::max, Op::add}) {
      Instance x =
          make_instance(700, op, 1000000007, consecutive_offsets(k), 1u << 30, std::uint64_t(k));
      ASSERT_EQ(why_not_2x2(x.offsets), "");
      const cpu::SimReport r = cpu::simulate(x, 1, "2x2", true);
      const Answer ref = reference_answer(x);
      EXPECT_EQ(r.answer.checksum, ref.checksum) << "k=" << k;
      EXPECT_EQ(r.answer.objective, ref.objective) << "k=" << k;
      EXPECT_EQ(r.read_conflicts, 0) << "k=" << k;
      EXPECT_EQ(r.threads, (k + 1) / 2);
      EXPECT_EQ(r.steps, pipeline2x2_steps(700, k, k));
    }
  }
}

TEST(SdpPipelineSim, TwoByTwoIsCorrectOnAnyOffsets) {
  // Its condition a_j + floor(j/2) >= ceil(k/2) follows from a_j >= k - j (strictly decreasing
  // positive offsets), so it holds everywhere; conflicts may appear on other offsets.
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const std::int64_t k = 1 + std::int64_t(seed % 7);
    Instance x = make_instance(900, Op(seed % 3), 1000000007, random_offsets(k, 3 * k + 2, seed),
                               1u << 20, seed);
    ASSERT_EQ(why_not_2x2(x.offsets), "");
    EXPECT_EQ(cpu::simulate(x, 1, "2x2", true).answer.checksum, reference_answer(x).checksum)
        << "seed " << seed;
  }
  EXPECT_THROW(cpu::simulate(make_instance(50, Op::max, 1, {4, 1}, 10, 1), 2, "2x2", true),
               dpgpu::InputError);
}

TEST(SdpRegistered, BothSolversAreListed) {
  EXPECT_NE(dpgpu::Registry::get().solver("sdp", "cpu.serial"), nullptr);
  EXPECT_NE(dpgpu::Registry::get().solver("sdp", "cpu.pipeline_sim"), nullptr);
}

}  // namespace
}  // namespace sdp
