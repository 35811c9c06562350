// ivm_multi.hpp — gpu.ivm over several logical GPUs (parameter `gpus` > 1; ivm_multi.cu).
#pragma once
#include <cstdint>

#include "backtracking.hpp"

namespace dpgpu::backtracking {

// The search of ivm_search with c.gpus > 1 (n >= 2, 0 < bound: not searched on the host);
// adds the nodes counted on the GPUs to out.nodes and takes the best held tour.
void ivm_multi_search(const tsp::Instance& x, const IvmConfig& c, std::int64_t bound, Context& ctx,
                      SearchOutcome& out);

}  // namespace dpgpu::backtracking
