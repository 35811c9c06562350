// edit_batch: the shapes, the check (count, sample against the reference, sum), the
// checksum, the generators and the readers.
#include <gtest/gtest.h>

#include "dpgpu/registry.hpp"
#include "edit/batch.hpp"
#include "edit/lcs_batch.hpp"
#include "edit/reference.hpp"
#include "testing/reader_fixture.hpp"

namespace {

edit::BatchInstance make(std::vector<std::pair<std::string, std::string>> pairs) {
  edit::BatchInstance x;
  for (auto& [a, b] : pairs) {
    x.a.push_back(a);
    x.b.push_back(b);
  }
  return x;
}

TEST(EditBatch, CheckSumsTheDistancesAndRecomputesTheSample) {
  const auto x = make({{"kitten", "sitting"}, {"", "abc"}, {"flaw", "lawn"}});
  auto v = edit::BatchProblem::check(x, {{3, 3, 2}});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 8);
  auto wrong = edit::BatchProblem::check(x, {{3, 3, 1}});
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.message.find("pair 2"), std::string::npos) << wrong.message;
  EXPECT_FALSE(edit::BatchProblem::check(x, {{3, 3}}).ok);
  EXPECT_DOUBLE_EQ(edit::BatchProblem::work(x), 42 + 0 + 16);
}

TEST(EditBatch, CrossShapeIsEveryPairIMajor) {
  auto x = make({{"ab", "a"}, {"b", "abc"}});
  x.cross = true;
  ASSERT_EQ(x.pairs(), 4u);
  EXPECT_EQ(x.a[x.a_of(1)], "ab");
  EXPECT_EQ(x.b[x.b_of(1)], "abc");
  EXPECT_EQ(x.a[x.a_of(2)], "b");
  // ab/a 1, ab/abc 1, b/a 1, b/abc 2
  auto v = edit::BatchProblem::check(x, {{1, 1, 1, 2}});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 5);
  EXPECT_DOUBLE_EQ(edit::BatchProblem::work(x), 3.0 * 4.0);
}

TEST(EditBatch, ChecksumSeesEveryPairAndItsPlace) {
  const auto h = edit::batch_checksum({1, 2, 3});
  EXPECT_NE(h, edit::batch_checksum({1, 3, 2}));
  EXPECT_NE(h, edit::batch_checksum({1, 2, 4}));
  EXPECT_EQ(h, edit::batch_checksum({1, 2, 3}));
}

TEST(EditBatch, GeneratorsMakeWhatTheySay) {
  auto* p = dpgpu::Registry::get().problem("edit_batch");
  ASSERT_NE(p, nullptr);
  auto* r = p->generator("random");
  const auto x = r->make(
      r->schema.resolve({{"pairs", std::int64_t{50}}, {"n", std::int64_t{100}}, {"spread", 0.5}}),
      4);
  const auto& b = x.as<edit::BatchInstance>();
  ASSERT_EQ(b.pairs(), 50u);
  for (std::size_t k = 0; k < 50; ++k) {
    EXPECT_GE(b.a[k].size(), 50u);
    EXPECT_LE(b.a[k].size(), 100u);
  }
  const auto again = r->make(
      r->schema.resolve({{"pairs", std::int64_t{50}}, {"n", std::int64_t{100}}, {"spread", 0.5}}),
      4);
  EXPECT_EQ(again.as<edit::BatchInstance>().a.text, b.a.text);
  auto* c = p->generator("cross");
  const auto y =
      c->make(c->schema.resolve({{"strings", std::int64_t{7}}, {"n", std::int64_t{30}}}), 1);
  EXPECT_EQ(y.as<edit::BatchInstance>().pairs(), 49u);
  EXPECT_DOUBLE_EQ(y.work, 7.0 * 30 * 7 * 30);
  auto* m = p->generator("mutated");
  const auto z =
      m->make(m->schema.resolve({{"pairs", std::int64_t{20}}, {"n", std::int64_t{200}}}), 2);
  const auto& zb = z.as<edit::BatchInstance>();
  for (std::size_t k = 0; k < 20; ++k) EXPECT_LE(edit::reference_distance(zb.a[k], zb.b[k]), 20);
}

TEST(LcsBatch, CheckRecomputesTheSampleWithTheLcsReference) {
  const auto x = make({{"ABCBDAB", "BDCABA"}, {"", "abc"}, {"AC", "CA"}});
  auto v = edit::LcsBatchProblem::check(x, {{4, 0, 1}});
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.objective, 5);
  EXPECT_FALSE(edit::LcsBatchProblem::check(x, {{4, 0, 2}}).ok);  // longer than the shorter
  auto wrong = edit::LcsBatchProblem::check(x, {{3, 0, 1}});
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.message.find("pair 0"), std::string::npos) << wrong.message;
  auto* p = dpgpu::Registry::get().problem("lcs_batch");
  ASSERT_NE(p, nullptr);
  EXPECT_NE(p->generator("cross"), nullptr);
}

class EditBatchReaders : public dpgpu_test::ReaderFixture {
 protected:
  EditBatchReaders() : ReaderFixture("edit_batch") {}
};

TEST_F(EditBatchReaders, TabLinesFastaPairsAndTwoFilesCrossed) {
  auto tsv = write("p.txt", "ab\tabc\n\nx\t\n");
  auto t = edit::BatchProblem::load({{tsv}, ""}).at(0).instance;
  ASSERT_EQ(t.pairs(), 2u);
  EXPECT_EQ(t.b[0], "abc");
  EXPECT_EQ(t.b[1], "");
  auto fa = write("p.fa", ">1\nAC\n>2\nAG\n>3\nT\n>4\nTT\n");
  auto f = edit::BatchProblem::load({{fa}, ""}).at(0).instance;
  ASSERT_EQ(f.pairs(), 2u);
  EXPECT_EQ(f.a[1], "T");
  EXPECT_EQ(f.b[1], "TT");
  auto cross = edit::BatchProblem::load({{fa, tsv}, ""}).at(0);
  EXPECT_TRUE(cross.instance.cross);
  EXPECT_EQ(cross.instance.pairs(), 4u * 2u);
  auto odd = write("odd.fa", ">1\nA\n");
  EXPECT_NE(load_error_of<edit::BatchProblem>({{odd}, ""}).find("even"), std::string::npos);
  auto bad = write("bad.txt", "abc\n");
  EXPECT_NE(load_error_of<edit::BatchProblem>({{bad}, ""}).find("line 1"), std::string::npos);
}

}  // namespace
