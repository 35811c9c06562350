// peer.stringzilla_cpu against the reference on random pairs of both shapes, the worker when
// StringZilla cannot be imported, and the harness's external time (measure.hpp, apply_external_time).
// Without StringZilla at configure time the solvers must be listed unavailable, saying why.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "dpgpu/context.hpp"
#include "dpgpu/gpu_presence.hpp"
#include "dpgpu/registry.hpp"
#include "dpgpu/test_seed.hpp"
#include "edit/batch.hpp"
#include "edit/edit.hpp"
#include "edit/reference.hpp"
#include "measure/measure.hpp"
#include "worker.hpp"

namespace {

#define REQUIRE_STRINGZILLA() \
  if (!DPGPU_WITH_STRINGZILLA) GTEST_SKIP() << "StringZilla was not importable at configure time"

dpgpu::Context cpu_context() {
  return dpgpu::Context(dpgpu::Backend::Cpu,
                        std::chrono::steady_clock::now() + std::chrono::hours(1));
}

std::string random_string(std::mt19937_64& rng, std::size_t n, int sigma) {
  std::string s(n, '\0');
  for (auto& c : s) c = char('A' + rng() % sigma);
  return s;
}

// count strings (or pairs) of lengths 0..max_len, over 2..5 symbols.
edit::BatchInstance random_batch(std::uint64_t seed, bool cross, int count, int max_len) {
  std::mt19937_64 rng(seed);
  edit::BatchInstance x;
  x.cross = cross;
  const int sigma = 2 + int(rng() % 4);
  for (int k = 0; k < count; ++k) x.a.push_back(random_string(rng, rng() % (max_len + 1), sigma));
  for (int k = 0; k < count + (cross ? 3 : 0); ++k)
    x.b.push_back(random_string(rng, rng() % (max_len + 1), sigma));
  return x;
}

dpgpu::AnyInstance any(const edit::BatchInstance& x) {
  dpgpu::AnyInstance a;
  a.data = std::shared_ptr<const void>(&x, [](const void*) {});
  return a;
}

TEST(PeerStringZilla, RegisteredForBothProblemsOrUnavailableSayingWhy) {
  for (const char* problem : {"edit_batch", "edit"})
    for (const char* name : {"peer.stringzilla", "peer.stringzilla_cpu"}) {
      const auto* s = dpgpu::Registry::get().solver(problem, name);
      ASSERT_NE(s, nullptr) << problem << " " << name;
      EXPECT_EQ(s->broken, "") << name;
      if (!DPGPU_WITH_STRINGZILLA) {
        EXPECT_NE(s->unavailable.find("StringZilla is not importable"), std::string::npos);
        EXPECT_NE(s->unavailable.find("re-run cmake"), std::string::npos) << s->unavailable;
      }
    }
  const auto* cpu = dpgpu::Registry::get().solver("edit_batch", "peer.stringzilla_cpu");
  if (DPGPU_WITH_STRINGZILLA) {
    EXPECT_EQ(cpu->unavailable, "");
  }
  EXPECT_EQ(dpgpu::Registry::get().solver("edit_batch", "peer.stringzilla")->backend,
            dpgpu::Backend::Gpu);
}

// Each pair's distance equals the reference, both shapes, one call and blocks of pairs; the
// library's time goes to the harness as counter external_time_s.
TEST(PeerStringZilla, EveryPairEqualsTheReferenceInBothShapes) {
  REQUIRE_STRINGZILLA();
  const auto seed = dpgpu::base_seed();
  const auto& s = *dpgpu::Registry::get().solver("edit_batch", "peer.stringzilla_cpu");
  for (int t = 0; t < 6; ++t) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t));
    const bool cross = t % 2 == 1;
    const auto x = random_batch(seed + t, cross, 5 + t * 7, t < 4 ? 40 : 300);
    const std::int64_t block = cross ? 1 : 1 + t;
    auto ctx = cpu_context();
    ctx.begin();
    auto out =
        s.solve(any(x), s.schema.resolve({{"block", block}, {"threads", std::int64_t{2}}}), ctx);
    ctx.end();
    EXPECT_EQ(s.undeclared_counter(ctx.counters()).value_or(""), "");
    const auto& d = static_cast<const edit::BatchSolution*>(out.solution.get())->distances;
    ASSERT_EQ(d.size(), x.pairs());
    for (std::size_t k = 0; k < x.pairs(); ++k)
      ASSERT_EQ(d[k], edit::reference_distance(x.a[x.a_of(k)], x.b[x.b_of(k)])) << "pair " << k;
    EXPECT_TRUE(edit::BatchProblem::check(x, edit::BatchSolution{d}).ok);
    EXPECT_EQ(out.checksum, edit::batch_checksum(d));
    const auto& c = ctx.counters();
    EXPECT_GT(c.at("external_time_s"), 0);
    EXPECT_LE(c.at("external_time_s"), ctx.elapsed_s());
    EXPECT_EQ(c.at("library_calls"), cross ? 1 : double((x.pairs() + block - 1) / block));
  }
}

// peer.stringzilla on the GPU (skipped without StringZilla's CUDA backend or a usable GPU):
// every pair equals the reference, both shapes, and its time is the library call's.
TEST(PeerStringZilla, GpuBackendEqualsTheReferenceInBothShapes) {
  const auto& s = *dpgpu::Registry::get().solver("edit_batch", "peer.stringzilla");
  if (!s.unavailable.empty()) GTEST_SKIP() << s.unavailable;
  if (const auto why = dpgpu::no_usable_gpu_reason(); !why.empty()) GTEST_SKIP() << why;
  const auto seed = dpgpu::base_seed();
  for (int t = 0; t < 4; ++t) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(t));
    const bool cross = t % 2 == 1;
    const auto x = random_batch(seed + t, cross, 30 + 10 * t, t < 2 ? 120 : 1200);
    dpgpu::Context ctx(dpgpu::Backend::Gpu,
                       std::chrono::steady_clock::now() + std::chrono::hours(1));
    ctx.begin();
    auto out = s.solve(any(x), s.schema.resolve({{"block", std::int64_t{1 + t}}}), ctx);
    ctx.end();
    const auto& d = static_cast<const edit::BatchSolution*>(out.solution.get())->distances;
    ASSERT_EQ(d.size(), x.pairs());
    for (std::size_t k = 0; k < x.pairs(); ++k)
      ASSERT_EQ(d[k], edit::reference_distance(x.a[x.a_of(k)], x.b[x.b_of(k)])) << "pair " << k;
    EXPECT_LE(ctx.counters().at("external_time_s"), ctx.elapsed_s());
  }
}

// A repeated solve of the same batch does not send it again (load_s 0), and gives the same.
TEST(PeerStringZilla, RepetitionsReuseTheSentBatch) {
  REQUIRE_STRINGZILLA();
  auto x = random_batch(dpgpu::base_seed(), false, 20, 60);
  auto& w = peers::stringzilla::shared_worker();
  const auto first = w.run(x, {});
  const auto again = w.run(x, {});
  EXPECT_TRUE(first.sent);
  EXPECT_FALSE(again.sent);
  EXPECT_EQ(again.load_s, 0);
  EXPECT_EQ(first.distances, again.distances);
  x.a.text[0] = x.a.text[0] == 'A' ? 'B' : 'A';  // the same object, other content
  EXPECT_TRUE(w.run(x, {}).sent);
}

// The single pair (problem edit) as a 1 x 1 call.
TEST(PeerStringZilla, SinglePairGivesTheReferenceDistance) {
  REQUIRE_STRINGZILLA();
  const auto& s = *dpgpu::Registry::get().solver("edit", "peer.stringzilla_cpu");
  std::mt19937_64 rng(dpgpu::base_seed());
  const edit::Instance x{random_string(rng, 700, 4), random_string(rng, 650, 4)};
  dpgpu::AnyInstance a;
  a.data = std::shared_ptr<const void>(&x, [](const void*) {});
  auto ctx = cpu_context();
  ctx.begin();
  auto out = s.solve(a, s.schema.resolve({}), ctx);
  ctx.end();
  EXPECT_EQ(out.objective, edit::reference_distance(x.a, x.b));
}

// A Python that cannot import stringzillas (a module of that name that fails, first on
// PYTHONPATH): the worker does not start, and says why.
TEST(PeerStringZilla, AbsentPackageIsAClearError) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("dpgpu_sz_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "stringzillas.py") << "raise ImportError('no stringzillas here')\n";
  const char* old = std::getenv("PYTHONPATH");
  const std::string saved = old ? old : "";
  setenv("PYTHONPATH", dir.c_str(), 1);
  try {
    peers::stringzilla::Worker w("python3", DPGPU_SZ_WORKER_PATH);
    ADD_FAILURE() << "the worker started: " << w.ready_line();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot import stringzilla"), std::string::npos)
        << e.what();
  }
  if (old)
    setenv("PYTHONPATH", saved.c_str(), 1);
  else
    unsetenv("PYTHONPATH");
  std::filesystem::remove_all(dir);
}

// The harness's hook: a counter external_time_s replaces the measured time, which stays a
// counter; without it nothing changes.
TEST(PeerStringZilla, ExternalTimeReplacesTheMeasuredTime) {
  dpgpu::RepRecord rec;
  rec.time_s = 0.5;
  rec.counters = {{"external_time_s", 0.125}, {"load_s", 0}};
  dpgpu::apply_external_time(rec);
  EXPECT_DOUBLE_EQ(rec.time_s, 0.125);
  EXPECT_DOUBLE_EQ(rec.counters.at("measured_s"), 0.5);
  dpgpu::RepRecord plain;
  plain.time_s = 0.5;
  dpgpu::apply_external_time(plain);
  EXPECT_DOUBLE_EQ(plain.time_s, 0.5);
  EXPECT_EQ(plain.counters.count("measured_s"), 0u);
}

// A whole case through the runner: the warm-up sends the batch, the repetitions only run the
// library (load_s 0), each repetition's time is the library's, every answer is checked valid.
TEST(PeerStringZilla, ACaseSendsTheBatchOnceAndTimesTheLibrary) {
  REQUIRE_STRINGZILLA();
  const auto& reg = dpgpu::Registry::get();
  const auto* problem = reg.problem("edit_batch");
  const auto* solver = reg.solver("edit_batch", "peer.stringzilla_cpu");
  const auto* gen = problem->generator("cross");
  const auto x =
      gen->make(gen->schema.resolve({{"strings", std::int64_t{30}}, {"n", std::int64_t{200}}}),
                dpgpu::base_seed());
  dpgpu::CaseJob job;
  job.problem = problem, job.solver = solver, job.instance = &x;
  job.params = solver->schema.resolve({{"threads", std::int64_t{2}}});
  job.measure.warmup = 1, job.measure.repetitions = 3, job.measure.timeout_s = 120;
  const auto r = dpgpu::measure_case(job);
  ASSERT_EQ(r.status, dpgpu::Status::Ok) << r.message;
  ASSERT_EQ(r.reps.size(), 3u);
  for (const auto& rep : r.reps) {
    EXPECT_EQ(rep.status, dpgpu::Status::Ok) << rep.message;
    EXPECT_EQ(rep.valid.value_or(false), true);
    EXPECT_DOUBLE_EQ(rep.time_s, rep.counters.at("external_time_s"));
    EXPECT_GE(rep.counters.at("measured_s"), rep.time_s);
    EXPECT_EQ(rep.counters.at("load_s"), 0);  // sent in the warm-up
  }
}

}  // namespace
