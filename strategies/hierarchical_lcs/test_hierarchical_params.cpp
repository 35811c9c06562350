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
  EXPECT_NE(validate({256, 4096, 512, 3}).find("sub must be"), std::string::npos);
  EXPECT_NE(validate({256, 4096, 510, 4}).find("multiple of sub"), std::string::npos);
  EXPECT_NE(validate({256, 4096, 4096, 2}).find("at most 1024"), std::string::npos);
  EXPECT_NE(validate({2048, 1024, 512, 4}).find("gpu_cutoff"), std::string::npos);
  EXPECT_EQ(validate({16, 16, 32, 16}), "");
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
