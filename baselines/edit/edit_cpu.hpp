// edit_cpu.hpp — the CPU solvers of edit distance as plain functions (tests and the GPU
// strategies' checks call them).
#pragma once
#include <cstdint>
#include <string_view>

#include "dpgpu/poller.hpp"
#include "edit/script.hpp"

namespace edit::cpu {

using dpgpu::Poll;

// True when dpgpu was built with libedlib (the functions below throw std::logic_error when not).
bool have_edlib();
// edlibAlign in global (NW) mode with a = query, b = target: the distance, and with `script`
// the path as an edit script. Throws std::invalid_argument for strings of 2^31 bytes or more
// (edlib's lengths are int) and std::runtime_error when edlib reports an error.
std::int64_t edlib_distance(std::string_view a, std::string_view b);
Script edlib_script(std::string_view a, std::string_view b);

}  // namespace edit::cpu
