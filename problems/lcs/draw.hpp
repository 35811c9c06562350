// draw.hpp — the generators' bounded random draws, defined once in dpgpu/draw.hpp.
#pragma once
#include "dpgpu/draw.hpp"

namespace lcs {
using dpgpu::draw_below;
using dpgpu::draw_between;
}  // namespace lcs
