// generators.hpp — the offset patterns of the issue as plain functions (the registered
// generators call these; tests call them directly). Initial values are drawn from one
// std::mt19937_64(seed) after the offsets. Bad arguments throw dpgpu::InputError.
#pragma once
#include <cstdint>
#include <vector>

#include "sdp/sdp.hpp"

namespace sdp {

// aj = k - j: the paper's worst case for read conflicts (every pipeline stage reads one element).
std::vector<std::int64_t> consecutive_offsets(std::int64_t k);
// aj = (k - j)·stride.
std::vector<std::int64_t> strided_offsets(std::int64_t k, std::int64_t stride);
// k distinct offsets in [1, a0_max - 1], decreasing (Floyd's sampling).
std::vector<std::int64_t> random_offsets(std::int64_t k, std::int64_t a0_max, std::uint64_t seed);

// An instance with these offsets; a0 initial values uniform in [0, init_max) (for add, in
// [0, min(init_max, modulus))).
Instance make_instance(std::int64_t n, Op op, std::uint64_t modulus,
                       std::vector<std::int64_t> offsets, std::uint64_t init_max,
                       std::uint64_t seed);

}  // namespace sdp
