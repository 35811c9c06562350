// mcm_solvers.hpp — the GPU matrix-chain solvers as plain functions (mcm_params.cpp makes
// them solvers; the tests call them directly). CUDA-free: the registration includes it.
#pragma once
#include <cstdint>
#include <string>

#include "dpgpu/context.hpp"
#include "mcm/mcm.hpp"
#include "mcm_config.hpp"

namespace dpgpu::mcm_gpu {

struct GpuAnswer {
  std::int64_t cost = 0;
  std::string parenthesization;
};

// The paper's per-diagonal DP: one launch (two for `blocks`) per diagonal l = 2..n. Throws
// InputError with why_not(x, cfg) or for a bad table. Allocates mcm_device_bytes(x, cfg).
GpuAnswer solve_mcm(const ::mcm::Instance& x, const McmConfig& cfg, Context& ctx);

// The tiled DP over doubles (exact below 2^53): tiles of 64 × 64 entries, one tile diagonal
// per pair of launches, min-plus-style panel products from shared memory. Throws InputError
// with why_not_tiled(x). Allocates tiled_device_bytes(x).
GpuAnswer solve_mcm_tiled(const ::mcm::Instance& x, const TiledConfig& cfg, Context& ctx);

}  // namespace dpgpu::mcm_gpu
