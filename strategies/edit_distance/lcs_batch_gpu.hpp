// lcs_batch_gpu.hpp — gpu.bitparallel over lcs_batch: every pair's LCS length, one pair per
// thread (lcs_thread_kernel.cuh); a is at most kLcsBatchMaxSymbols long (16 words), which
// the registration checks. Declared without CUDA (defined in lcs_batch_gpu.cu).
#pragma once
#include <cstdint>
#include <vector>

#include "dpgpu/context.hpp"
#include "edit/batch.hpp"

namespace dpgpu::myers {

constexpr std::int64_t kLcsBatchMaxSymbols = 16 * 64;

std::vector<std::int32_t> solve_lcs_batch(const edit::BatchInstance& x, Context& ctx);

}  // namespace dpgpu::myers
