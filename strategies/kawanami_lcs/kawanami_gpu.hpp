// kawanami_gpu.hpp — gpu.kawanami: the LCS length by Kawanami and Fujimoto's GPU
// bit-parallel algorithm (one block, a carry-lookahead sum over the row's words).
#pragma once
#include <cstdint>
#include <string_view>

#include "dpgpu/context.hpp"
#include "kawanami_config.hpp"

namespace dpgpu::kawanami {

// The bit vector runs along the longer string. Throws dpgpu::InputError for a configuration
// out of range or a longer string than max_bits(c).
std::int64_t lcs_length(std::string_view a, std::string_view b, const KawanamiConfig& c,
                        Context& ctx);

}  // namespace dpgpu::kawanami
