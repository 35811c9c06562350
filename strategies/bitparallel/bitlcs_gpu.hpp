// bitlcs_gpu.hpp — gpu.bitparallel: the LCS length, and optionally one LCS string.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "bitlcs_config.hpp"
#include "bitlcs_pass.hpp"
#include "dpgpu/context.hpp"

namespace dpgpu::bitlcs {

struct BitLcsResult {
  std::int64_t length = 0;
  std::optional<std::string> subsequence;  // with reconstruct
};

// The longer string goes along the bits (more words: more parallel stripes). Throws
// dpgpu::InputError naming the parameter for a configuration out of range.
BitLcsResult solve(std::string_view a, std::string_view b, const BitLcsConfig& c, Context& ctx);

// The GPU pass runner alone (the tests hold it to CpuPassRunner word for word). `s` must
// outlive it; x and y are copied to the device here.
std::unique_ptr<PassRunner> make_gpu_runner(const Symbols& s, const BitLcsConfig& c, Context& ctx);

}  // namespace dpgpu::bitlcs
