// kawanami_gpu.cu — gpu.kawanami's driver: symbol codes and match masks on the host (as the
// CPU algorithm builds them), one launch of one block over all rows, the zeros are the length.
#include "kawanami_gpu.hpp"

#include <cuda_runtime.h>

#include <array>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "kawanami_kernel.cuh"

namespace dpgpu::kawanami {
namespace {

struct Masks {
  std::vector<std::uint32_t> words;  // (sigma + 1) rows of `per_row` words, the last all zeros
  std::vector<std::uint8_t> y_codes;
  int sigma = 0;
};

// Codes of x's symbols in order of appearance; y's symbols absent from x get code sigma.
Masks build_masks(std::string_view x, std::string_view y) {
  std::array<int, 256> code;
  code.fill(-1);
  Masks out;
  for (unsigned char ch : x)
    if (code[ch] < 0) code[ch] = out.sigma++;
  const std::int64_t per_row = words_of(std::int64_t(x.size()));
  out.words.assign(std::size_t(out.sigma + 1) * std::size_t(per_row), 0u);
  for (std::size_t i = 0; i < x.size(); ++i)
    out.words[std::size_t(code[(unsigned char)x[i]]) * std::size_t(per_row) + i / 32] |=
        1u << (i % 32);
  out.y_codes.resize(y.size());
  for (std::size_t r = 0; r < y.size(); ++r) {
    const int c = code[(unsigned char)y[r]];
    out.y_codes[r] = std::uint8_t(c < 0 ? out.sigma : c);
  }
  return out;
}

template <int K>
void launch(int threads, const std::uint32_t* masks, int words, std::int64_t bits,
            const std::uint8_t* y, std::int64_t m, unsigned long long* zeros, cudaStream_t stream) {
  kernel::rows<K><<<1, threads, 0, stream>>>(masks, words, bits, y, m, zeros);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

std::int64_t lcs_length(std::string_view a, std::string_view b, const KawanamiConfig& c,
                        Context& ctx) {
  if (const std::string why = why_invalid(c); !why.empty())
    throw InputError("gpu.kawanami: " + why);
  const std::string_view x = a.size() >= b.size() ? a : b, y = a.size() >= b.size() ? b : a;
  const std::int64_t bits = std::int64_t(x.size()), m = std::int64_t(y.size());
  const int k = words_per_thread(bits, c);
  if (k == 0)
    throw InputError("gpu.kawanami: the longer string has " + std::to_string(bits) +
                     " symbols; one block of " + std::to_string(c.threads) +
                     " threads holds at most " + std::to_string(max_bits(c)));
  ctx.set("kernel_launches", 0);
  if (m == 0) return 0;
  const Masks masks = build_masks(x, y);
  const int words = int(words_of(bits));
  auto stream = static_cast<cudaStream_t>(ctx.stream());
  gpu::DeviceBuffer<std::uint32_t> dmasks;
  gpu::DeviceBuffer<std::uint8_t> dy;
  gpu::DeviceBuffer<unsigned long long> zeros;
  {
    auto alloc = ctx.phase("alloc");
    dmasks = gpu::DeviceBuffer<std::uint32_t>(masks.words.size(), &ctx);
    dy = gpu::DeviceBuffer<std::uint8_t>(masks.y_codes.size(), &ctx);
    zeros = gpu::DeviceBuffer<unsigned long long>(1, &ctx);
  }
  {
    auto h2d = ctx.phase("h2d");
    CUDA_CHECK(cudaMemcpyAsync(dmasks.get(), masks.words.data(), dmasks.bytes(),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(dy.get(), masks.y_codes.data(), dy.bytes(), cudaMemcpyHostToDevice,
                               stream));
  }
  {
    auto compute = ctx.phase("compute");
    CUDA_CHECK(cudaMemsetAsync(zeros.get(), 0, zeros.bytes(), stream));
    auto mark = ctx.profiled_launch();
    const int t = c.threads;
    switch (k) {
      case 1: launch<1>(t, dmasks.get(), words, bits, dy.get(), m, zeros.get(), stream); break;
      case 2: launch<2>(t, dmasks.get(), words, bits, dy.get(), m, zeros.get(), stream); break;
      case 4: launch<4>(t, dmasks.get(), words, bits, dy.get(), m, zeros.get(), stream); break;
      case 8: launch<8>(t, dmasks.get(), words, bits, dy.get(), m, zeros.get(), stream); break;
      case 16: launch<16>(t, dmasks.get(), words, bits, dy.get(), m, zeros.get(), stream); break;
      default: launch<32>(t, dmasks.get(), words, bits, dy.get(), m, zeros.get(), stream); break;
    }
    ctx.set("kernel_launches", 1);
    ctx.set("words_per_thread", k);
    ctx.set("sigma", masks.sigma);
  }
  unsigned long long length = 0;
  {
    auto d2h = ctx.phase("d2h");
    CUDA_CHECK(
        cudaMemcpyAsync(&length, zeros.get(), sizeof(length), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  ctx.set("peak_device_bytes", double(ctx.device_peak()));
  return std::int64_t(length);
}

}  // namespace dpgpu::kawanami
