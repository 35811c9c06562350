// The GPU levels' kernels (level_kernels.cuh), unchanged, run on the CPU through
// cpu_block_emulation.hpp: output boundaries against the full table, and whole solves of the
// recursion with the emulated GPU beneath it. Needs no GPU and no CUDA.
#include "cpu_block_emulation.hpp"
// clang-format off
#include "level_kernels.cuh"
// clang-format on

#include <gtest/gtest.h>

#include "lcs/chowdhury.hpp"
#include "lcs/generators.hpp"
#include "lcs/lcs.hpp"
#include "lcs/reference.hpp"

namespace dpgpu::hierarchical {
Score smem[1 << 15];  // the kernels' `extern __shared__`
}

namespace {

using dpgpu::hierarchical::Score;
using dpgpu::hierarchical::Subproblem;
namespace ch = lcs::chowdhury;

// GpuLeaf::boundary's sequence of launches, on the emulator.
struct EmulatedLeaf {
  std::string_view a, b;
  int grid, sub;
  std::size_t gpu_cutoff;
  std::uint64_t calls = 0;

  bool offload(const ch::Region& r) const { return std::max(r.h, r.w) <= gpu_cutoff; }

  void boundary(const ch::Region& r, Score* top, Score* left, Score corner) {
    using namespace dpgpu::hierarchical;
    ++calls;
    const std::uint32_t rows = (r.h + grid - 1) / grid, cols = (r.w + grid - 1) / grid;
    std::vector<Score> bottom(cols * (grid + 1)), right(rows * (grid + 1)), edges(r.w + r.h);
    std::copy_n(top, r.w, edges.data());
    std::copy_n(left, r.h, edges.data() + r.w);
    Subproblem s{reinterpret_cast<const std::uint8_t*>(a.data()) + r.i0,
                 reinterpret_cast<const std::uint8_t*>(b.data()) + r.j0,
                 std::uint32_t(r.h),
                 std::uint32_t(r.w),
                 rows,
                 cols,
                 bottom.data(),
                 right.data()};
    emu::launch(3, 64, [&] { scatter_inputs(s, grid, edges.data(), edges.data() + r.w, corner); });
    for (std::uint32_t d = 0; d + 1 < rows + cols; ++d) {
      const std::uint32_t first = d >= cols ? d - cols + 1 : 0, last = std::min(d, rows - 1);
      emu::launch(last - first + 1, grid / sub, [&] {
        switch (sub) {
          case 2: diagonal_blocks<2>(s, grid, d); break;
          case 4: diagonal_blocks<4>(s, grid, d); break;
          case 8: diagonal_blocks<8>(s, grid, d); break;
          default: diagonal_blocks<16>(s, grid, d); break;
        }
      });
    }
    emu::launch(2, 64, [&] { gather_outputs(s, grid, edges.data(), edges.data() + r.w); });
    std::copy_n(edges.data(), r.w, top);
    std::copy_n(edges.data() + r.w, r.h, left);
  }
};

std::vector<std::vector<Score>> table(const std::string& a, const std::string& b) {
  std::vector<std::vector<Score>> d(a.size() + 1, std::vector<Score>(b.size() + 1, 0));
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      d[i][j] = a[i - 1] == b[j - 1] ? d[i - 1][j - 1] + 1 : std::max(d[i - 1][j], d[i][j - 1]);
  return d;
}

TEST(LevelKernelsOnCpu, OutputBoundaryEqualsTheTable) {
  auto x = lcs::random_pair(230, 190, 3, 4);
  const auto d = table(x.a, x.b);
  const std::pair<int, int> shapes[] = {{8, 2}, {16, 4}, {32, 8}, {32, 16}, {64, 4}, {16, 16}};
  const ch::Region regions[] = {{0, 0, 230, 190}, {13, 7, 1, 1},    {100, 3, 1, 150},
                                {5, 100, 200, 1}, {37, 41, 63, 65}, {64, 64, 128, 64},
                                {3, 9, 227, 181}};
  for (auto [grid, sub] : shapes) {
    EmulatedLeaf leaf{x.a, x.b, grid, sub, 1 << 20};
    for (const auto& r : regions) {
      std::vector<Score> top(r.w), left(r.h);
      for (std::size_t q = 0; q < r.w; ++q) top[q] = d[r.i0][r.j0 + 1 + q];
      for (std::size_t q = 0; q < r.h; ++q) left[q] = d[r.i0 + 1 + q][r.j0];
      leaf.boundary(r, top.data(), left.data(), d[r.i0][r.j0]);
      for (std::size_t q = 0; q < r.w; ++q)
        ASSERT_EQ(top[q], d[r.i0 + r.h][r.j0 + 1 + q])
            << "grid " << grid << " sub " << sub << " region " << r.i0 << "," << r.j0 << " " << r.h
            << "x" << r.w << " bottom " << q;
      for (std::size_t q = 0; q < r.h; ++q)
        ASSERT_EQ(left[q], d[r.i0 + 1 + q][r.j0 + r.w])
            << "grid " << grid << " sub " << sub << " right " << q;
    }
  }
}

TEST(LevelKernelsOnCpu, WholeSolvesWithTheEmulatedGpuBeneath) {
  std::uint64_t seed = 40;
  for (int k : {2, 200})
    for (auto [n, m] : {std::pair{300, 280}, std::pair{700, 20}, std::pair{17, 500}}) {
      auto x = lcs::random_pair(n, m, k, seed++);
      EmulatedLeaf leaf{x.a, x.b, 16, 4, 128};
      ch::Options o;
      o.cutoff = 8;
      auto r = ch::solve(x.a, x.b, o, leaf, {});
      const auto v = lcs::Problem::check(x, {r.subsequence});
      EXPECT_TRUE(v.ok) << v.message;
      EXPECT_EQ(v.objective, lcs::reference_length(x.a, x.b)) << n << "x" << m << " alphabet " << k;
      EXPECT_GT(leaf.calls, 0u);
    }
}

}  // namespace
