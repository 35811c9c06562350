// gpu.hierarchical's schema and rules, without a GPU.
#include <gtest/gtest.h>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "hierarchical_config.hpp"
#include "lcs/lcs.hpp"

namespace {

using dpgpu::hierarchical::HierarchicalConfig;
using dpgpu::hierarchical::validate;

TEST(HierarchicalParams, RegisteredAsGpuSolverWithDefaults) {
  auto* s = dpgpu::Registry::get().solver("lcs", "gpu.hierarchical");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->backend, dpgpu::Backend::Gpu);
  auto p = s->schema.resolve({});
  const HierarchicalConfig d;
  EXPECT_EQ(p.integer("grid"), d.grid);
  EXPECT_EQ(p.integer("sub"), d.sub);
  EXPECT_EQ(p.integer("cutoff"), d.cutoff);
  EXPECT_EQ(p.integer("gpu_cutoff"), d.gpu_cutoff);
  EXPECT_THROW(s->schema.resolve({{"grid", std::int64_t{1}}}), dpgpu::InputError);
  EXPECT_THROW(s->schema.resolve({{"sub", std::int64_t{32}}}), dpgpu::InputError);
  EXPECT_THROW(s->schema.resolve({{"block", std::int64_t{32}}}), dpgpu::InputError);
}

TEST(HierarchicalParams, RulesNameTheParameters) {
  EXPECT_EQ(validate(HierarchicalConfig{}), "");
  EXPECT_NE(validate({256, 4096, 512, 3}).find("'sub' must be"), std::string::npos);
  EXPECT_NE(validate({256, 4096, 510, 4}).find("multiple of 'sub'"), std::string::npos);
  EXPECT_NE(validate({256, 4096, 4096, 2}).find("at most 1024"), std::string::npos);
  EXPECT_NE(
      validate({2048, 1024, 512, 4}).find("'gpu_cutoff' (1024) must be at least 'cutoff' (2048)"),
      std::string::npos);
  EXPECT_EQ(validate({16, 16, 32, 16}), "");
}

// The rules are the registration's: resolving a point (what `dpgpu check` does for every
// sweep point) refuses it, naming the parameters; each parameter is bound to its field.
TEST(HierarchicalParams, RegistrationAppliesTheRulesAndBindsTheFields) {
  auto* s = dpgpu::Registry::get().solver("lcs", "gpu.hierarchical");
  ASSERT_NE(s, nullptr);
  struct Bad {
    dpgpu::ValueMap given;
    const char* says;
  };
  const Bad bad[] = {
      {{{"sub", std::int64_t{3}}}, "'sub' must be 2, 4, 8 or 16 (got 3)"},
      {{{"grid", std::int64_t{510}}}, "'grid' (510) must be a multiple of 'sub' (4)"},
      {{{"grid", std::int64_t{4096}}, {"sub", std::int64_t{2}}},
       "(2048 threads per block) must be at most 1024"},
      {{{"cutoff", std::int64_t{4096}}, {"gpu_cutoff", std::int64_t{1024}}},
       "'gpu_cutoff' (1024) must be at least 'cutoff' (4096)"},
  };
  for (const Bad& b : bad) {
    try {
      s->schema.resolve(b.given, "exp.yaml:3: solver 'gpu.hierarchical'");
      ADD_FAILURE() << "accepted: " << b.says;
    } catch (const dpgpu::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(b.says), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("exp.yaml:3"), std::string::npos) << e.what();
    }
  }
  // A small gpu_cutoff is valid with a smaller cutoff (each alone would break the rule with
  // the other's default): the binding hands both to the solve.
  const auto c =
      dpgpu::bind<HierarchicalConfig>(*s, s->schema.resolve({{"gpu_cutoff", std::int64_t{128}},
                                                             {"cutoff", std::int64_t{64}},
                                                             {"grid", std::int64_t{256}},
                                                             {"sub", std::int64_t{16}}}));
  EXPECT_EQ(c.gpu_cutoff, 128);
  EXPECT_EQ(c.cutoff, 64);
  EXPECT_EQ(c.grid, 256);
  EXPECT_EQ(c.sub, 16);
  EXPECT_EQ(dpgpu::hierarchical::threads_per_block(c), 16);
}

TEST(HierarchicalParams, DeviceMemoryIsLinearAndBoundedByGpuCutoff) {
  const HierarchicalConfig c;
  const auto small = dpgpu::hierarchical::device_bytes(1000, 1000, c);
  const auto big = dpgpu::hierarchical::device_bytes(1 << 20, 1 << 20, c);
  EXPECT_LT(small, 20000u);
  // Strings plus a frontier and edges of at most gpu_cutoff: far below a table.
  EXPECT_LT(big, 2u * (1u << 20) + 4u * 4u * (1u << 18));
}

}  // namespace
