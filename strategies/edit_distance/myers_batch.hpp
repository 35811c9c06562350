// myers_batch.hpp — gpu.myers over edit_batch: every pair one job of one batch of passes (a
// along the bits, b along the steps), so a pair of up to 2048·W symbols of a is one warp's
// stripe and longer ones are several; pairs with an empty side are answered on the host.
#pragma once
#include <cstdint>
#include <vector>

#include "dpgpu/context.hpp"
#include "edit/batch.hpp"
#include "myers_config.hpp"
#include "myers_pass.hpp"
#include "myers_solve.hpp"

namespace dpgpu::myers {

// Every pair's distance over any runner (the CPU model in tests).
std::vector<std::int32_t> solve_batch_over(const edit::BatchInstance& x, const MakeRunner& make);
// The same over the GPU runner (myers_gpu.cu).
std::vector<std::int32_t> solve_batch(const edit::BatchInstance& x, const MyersConfig& c,
                                      Context& ctx);

}  // namespace dpgpu::myers
