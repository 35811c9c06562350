// kloetzli_gpu.hpp — gpu.kloetzli: the LCS length by Kloetzli et al.'s two GPU levels.
#pragma once
#include <cstdint>
#include <string_view>

#include "dpgpu/context.hpp"
#include "kloetzli_config.hpp"

namespace dpgpu::kloetzli {

// a runs down the rows, b along the columns. Throws dpgpu::InputError for a configuration
// out of range or strings longer than 2^31 - 1.
std::int64_t lcs_length(std::string_view a, std::string_view b, const KloetzliConfig& c,
                        Context& ctx);

}  // namespace dpgpu::kloetzli
