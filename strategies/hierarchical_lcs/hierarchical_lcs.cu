// gpu.hierarchical: the recursion of cpu.chowdhury, with regions up to gpu_cutoff on the GPU.
#include "hierarchical_lcs.hpp"

#include "dpgpu/error.hpp"
#include "gpu_leaf.cuh"

namespace dpgpu::hierarchical {

std::string why_not_on_this_gpu(const HierarchicalConfig& c) {
  int dev = 0, optin = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  const std::size_t need = diagonal_shared_bytes(c.grid);
  if (need <= std::size_t(optin)) return {};
  return "'grid' " + std::to_string(c.grid) + " needs " + std::to_string(need) +
         " bytes of shared memory per block, this GPU gives " + std::to_string(optin) +
         " (grid <= " + std::to_string((optin / 4 - 2) / 5) + ")";
}

HierarchicalResult hierarchical_lcs(std::string_view a, std::string_view b,
                                    const HierarchicalConfig& c, Context& ctx) {
  if (auto why = validate(c); !why.empty()) throw InputError("gpu.hierarchical: " + why);
  if (auto why = why_not_on_this_gpu(c); !why.empty()) throw InputError("gpu.hierarchical: " + why);
  HierarchicalResult out;
  if (a.empty() || b.empty()) return out;
  // Dynamic shared memory above 48 KiB needs an opt-in per kernel.
  const auto shared = int(diagonal_shared_bytes(int(c.grid)));
  CUDA_CHECK(cudaFuncSetAttribute(diagonal_blocks<2>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  shared));
  CUDA_CHECK(cudaFuncSetAttribute(diagonal_blocks<4>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  shared));
  CUDA_CHECK(cudaFuncSetAttribute(diagonal_blocks<8>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  shared));
  CUDA_CHECK(cudaFuncSetAttribute(diagonal_blocks<16>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  shared));
  GpuLeaf leaf(a, b, c, ctx, out.counters);
  lcs::chowdhury::Options o;
  o.cutoff = std::size_t(c.cutoff);
  o.threads = 1;
  lcs::chowdhury::Result r;
  {
    auto compute = ctx.phase("compute");
    r = lcs::chowdhury::solve(a, b, o, leaf, [&ctx] { ctx.check_deadline(); });
  }
  out.subsequence = std::move(r.subsequence);
  out.counters.cpu_cells = r.cpu_cells;
  out.counters.peak_host_bytes =
      r.peak_scratch_bytes +
      2 * std::min<std::size_t>(c.gpu_cutoff, std::max(a.size(), b.size())) * 4;
  return out;
}

}  // namespace dpgpu::hierarchical
