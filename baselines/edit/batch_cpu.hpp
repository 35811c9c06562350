// batch_cpu.hpp — the CPU solvers of edit_batch as plain functions: one pair per OpenMP thread.
#pragma once
#include <cstdint>
#include <vector>

#include "dpgpu/poller.hpp"
#include "edit/batch.hpp"

namespace edit::cpu {

// Every pair's distance, pairs spread over `threads` OpenMP threads (0: all), polling
// between chunks of pairs: by edlib, or by the reference recurrence.
std::vector<std::int32_t> edlib_batch(const BatchInstance& x, int threads, const dpgpu::Poll& poll);
std::vector<std::int32_t> dp_batch(const BatchInstance& x, int threads, const dpgpu::Poll& poll);
// Every pair's LCS length by the bit-vector LCS of baselines/lcs (lcs::cpu::bitparallel).
std::vector<std::int32_t> lcs_bitparallel_batch(const BatchInstance& x, int threads,
                                                const dpgpu::Poll& poll);

}  // namespace edit::cpu
