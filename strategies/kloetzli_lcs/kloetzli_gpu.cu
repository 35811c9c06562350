// kloetzli_gpu.cu — gpu.kloetzli's driver: copies the strings, zeroes the boundaries and
// launches one kernel per anti-diagonal of tiles; the last tile's corner is the length.
#include "kloetzli_gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <string>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "kloetzli_kernel.cuh"

namespace dpgpu::kloetzli {

std::int64_t lcs_length(std::string_view a, std::string_view b, const KloetzliConfig& c,
                        Context& ctx) {
  if (const std::string why = why_invalid(c); !why.empty())
    throw InputError("gpu.kloetzli: " + why);
  const std::int64_t limit = std::numeric_limits<int>::max();
  if (std::int64_t(a.size()) > limit || std::int64_t(b.size()) > limit)
    throw InputError("gpu.kloetzli: strings longer than 2^31 - 1 symbols");
  ctx.set("kernel_launches", 0);
  if (a.empty() || b.empty()) return 0;
  const int m = int(a.size()), n = int(b.size()), t = c.tile;
  const int tiles_a = int(tiles_of(m, t)), tiles_b = int(tiles_of(n, t));
  const std::size_t corners = std::size_t(tiles_a + 1) * std::size_t(tiles_b + 1);
  auto stream = static_cast<cudaStream_t>(ctx.stream());

  gpu::DeviceBuffer<std::uint8_t> da, db;
  gpu::DeviceBuffer<int> row, col, corner;
  {
    auto alloc = ctx.phase("alloc");
    da = gpu::DeviceBuffer<std::uint8_t>(a.size(), &ctx);
    db = gpu::DeviceBuffer<std::uint8_t>(b.size(), &ctx);
    row = gpu::DeviceBuffer<int>(std::size_t(n), &ctx);
    col = gpu::DeviceBuffer<int>(std::size_t(m), &ctx);
    corner = gpu::DeviceBuffer<int>(corners, &ctx);
  }
  {
    auto h2d = ctx.phase("h2d");
    CUDA_CHECK(cudaMemcpyAsync(da.get(), a.data(), a.size(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(db.get(), b.data(), b.size(), cudaMemcpyHostToDevice, stream));
  }
  {
    auto compute = ctx.phase("compute");
    CUDA_CHECK(cudaMemsetAsync(row.get(), 0, row.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(col.get(), 0, col.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(corner.get(), 0, corner.bytes(), stream));
    const std::size_t smem = sizeof(int) * std::size_t(4 * t + 2) + std::size_t(t);
    for (int d = 0; d < tiles_a + tiles_b - 1; ++d) {
      const int first = std::max(0, d - tiles_b + 1), last = std::min(d, tiles_a - 1);
      auto mark = ctx.profiled_launch();
      kernel::tile_diagonal<<<last - first + 1, t, smem, stream>>>(
          da.get(), m, db.get(), n, t, d, first, tiles_b, row.get(), col.get(), corner.get());
      CUDA_CHECK_LAUNCH();
      if (d % 64 == 63) ctx.check_deadline();
    }
    ctx.set("kernel_launches", double(tiles_a + tiles_b - 1));
    ctx.set("tiles", double(tiles_a) * double(tiles_b));
  }
  int length = 0;
  {
    auto d2h = ctx.phase("d2h");
    CUDA_CHECK(cudaMemcpyAsync(&length, corner.get() + corners - 1, sizeof(int),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return length;
}

}  // namespace dpgpu::kloetzli
