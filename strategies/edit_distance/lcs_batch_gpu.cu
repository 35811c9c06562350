// lcs_batch_gpu.cu — gpu.bitparallel over lcs_batch: pairs grouped by the words of a (W = 1,
// 2, 4, 8, 16), one launch per group, one pair per thread.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "lcs_batch_gpu.hpp"
#include "lcs_thread_kernel.cuh"
#include "myers_pass.hpp"

namespace dpgpu::myers {

namespace {

using gpu::DeviceBuffer;
using lcs_thread_kernel::PairJob;
constexpr int kClasses = 5;

template <int W>
void launch_class(const PairJob* jobs, int n, const std::uint8_t* x, const std::uint8_t* y,
                  int sigma, long long* out, cudaStream_t stream, int optin, int sms) {
  int threads = 128;
  auto smem = [&] { return std::size_t(std::max(sigma, 1)) * W * std::size_t(threads) * 8; };
  while (smem() > std::size_t(optin) && threads > 32) threads /= 2;
  if (smem() > std::size_t(optin))
    throw InputError("gpu.bitparallel (lcs_batch): the masks of " + std::to_string(sigma) +
                     " symbols do not fit in shared memory");
  auto* k = &lcs_thread_kernel::lcs_per_thread<W>;
  CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k),
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem())));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem()));
  const int blocks = int(
      std::min<std::int64_t>((n + threads - 1) / threads, std::int64_t(std::max(1, per_sm)) * sms));
  k<<<blocks, threads, smem(), stream>>>(jobs, n, x, y, sigma, out);
  CUDA_CHECK_LAUNCH();
}

void launch(int cls, const PairJob* jobs, int n, const std::uint8_t* x, const std::uint8_t* y,
            int sigma, long long* out, cudaStream_t s, int optin, int sms) {
  switch (cls) {
    case 0: return launch_class<1>(jobs, n, x, y, sigma, out, s, optin, sms);
    case 1: return launch_class<2>(jobs, n, x, y, sigma, out, s, optin, sms);
    case 2: return launch_class<4>(jobs, n, x, y, sigma, out, s, optin, sms);
    case 3: return launch_class<8>(jobs, n, x, y, sigma, out, s, optin, sms);
    default: return launch_class<16>(jobs, n, x, y, sigma, out, s, optin, sms);
  }
}

}  // namespace

std::vector<std::int32_t> solve_lcs_batch(const edit::BatchInstance& x, Context& ctx) {
  const std::size_t n = x.pairs();
  std::vector<std::int32_t> out(n, 0);
  std::vector<PairJob> cls[kClasses];
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = x.a_of(k), j = x.b_of(k);
    const std::int64_t la = x.a.offset[i + 1] - x.a.offset[i];
    const std::int64_t lb = x.b.offset[j + 1] - x.b.offset[j];
    if (la == 0 || lb == 0) continue;  // LCS 0
    if (la > kLcsBatchMaxSymbols)
      throw InputError("gpu.bitparallel (lcs_batch): pair " + std::to_string(k) + " has a of " +
                       std::to_string(la) + " symbols, more than " +
                       std::to_string(kLcsBatchMaxSymbols));
    int c = 0;
    while (words_of(la) > (std::int64_t(1) << c)) ++c;
    cls[c].push_back(
        {x.a.offset[i], x.b.offset[j], std::int32_t(la), std::int32_t(lb), std::int64_t(k)});
  }
  ctx.set("kernel_launches", 0);
  const Symbols sym = encode(x.a.text, x.b.text);
  ctx.set("sigma", sym.sigma);
  auto stream = static_cast<cudaStream_t>(ctx.stream());
  int dev = 0, optin = 0, sms = 1;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  DeviceBuffer<std::uint8_t> dx, dy;
  DeviceBuffer<PairJob> djobs;
  DeviceBuffer<long long> dout;
  {
    auto alloc = ctx.phase("alloc");
    dx = DeviceBuffer<std::uint8_t>(std::max<std::size_t>(sym.x.size(), 1), &ctx);
    dy = DeviceBuffer<std::uint8_t>(std::max<std::size_t>(sym.y.size(), 1), &ctx);
    djobs = DeviceBuffer<PairJob>(std::max<std::size_t>(n, 1), &ctx);
    dout = DeviceBuffer<long long>(std::max<std::size_t>(n, 1), &ctx);
  }
  std::size_t at = 0;
  {
    auto h2d = ctx.phase("h2d");
    CUDA_CHECK(
        cudaMemcpyAsync(dx.get(), sym.x.data(), sym.x.size(), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(
        cudaMemcpyAsync(dy.get(), sym.y.data(), sym.y.size(), cudaMemcpyHostToDevice, stream));
    for (auto& c : cls) {
      CUDA_CHECK(cudaMemcpyAsync(djobs.get() + at, c.data(), c.size() * sizeof(PairJob),
                                 cudaMemcpyHostToDevice, stream));
      at += c.size();
    }
    CUDA_CHECK(cudaMemsetAsync(dout.get(), 0, std::max<std::size_t>(n, 1) * 8, stream));
  }
  {
    auto compute = ctx.phase("compute");
    at = 0;
    for (int c = 0; c < kClasses; ++c) {
      if (cls[c].empty()) continue;
      launch(c, djobs.get() + at, int(cls[c].size()), dx.get(), dy.get(), sym.sigma, dout.get(),
             stream, optin, sms);
      ctx.add("kernel_launches", 1);
      at += cls[c].size();
    }
  }
  auto d2h = ctx.phase("d2h");
  std::vector<long long> got(std::max<std::size_t>(n, 1));
  CUDA_CHECK(
      cudaMemcpyAsync(got.data(), dout.get(), got.size() * 8, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  for (std::size_t k = 0; k < n; ++k) out[k] = std::int32_t(got[k]);
  return out;
}

}  // namespace dpgpu::myers
