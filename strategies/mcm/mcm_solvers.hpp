// mcm_solvers.hpp — the GPU matrix-chain solvers as plain functions (mcm_register.cpp makes
// them solvers; the tests call them directly).
#pragma once
#include <cstdint>
#include <string>

#include "dpgpu/context.hpp"
#include "mcm/mcm.hpp"
#include "mcm_policy.hpp"

namespace dpgpu::mcm_gpu {

struct McmConfig {
  std::string policy = "fixed";  // fixed | table | calibrate
  Setting fixed;                 // policy fixed
  std::string table;             // policy table
  std::string cell = "auto";     // auto | 32 | 64: bits of a stored cost
  int samples = 16;              // policy calibrate: diagonals timed
};

struct GpuAnswer {
  std::int64_t cost = 0;
  std::string parenthesization;
};

// The paper's per-diagonal DP: one launch (two for `blocks`) per diagonal l = 2..n.
GpuAnswer solve_mcm(const ::mcm::Instance& x, const McmConfig& cfg, Context& ctx);
std::uint64_t mcm_device_bytes(const ::mcm::Instance& x, const McmConfig& cfg);

// The tiled DP over doubles (exact below 2^53): tiles of 64 × 64 entries, one tile diagonal
// per pair of launches, min-plus-style panel products from shared memory.
struct TiledConfig {
  int split_target = 0;  // blocks per tile diagonal to aim for with split panels; 0: 2 per SM
  bool compare_bits = false;  // compare candidates' bit patterns on the integer pipe instead of as doubles
};
GpuAnswer solve_mcm_tiled(const ::mcm::Instance& x, const TiledConfig& cfg, Context& ctx);
std::uint64_t tiled_device_bytes(const ::mcm::Instance& x);

}  // namespace dpgpu::mcm_gpu
