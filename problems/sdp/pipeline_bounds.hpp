// pipeline_bounds.hpp — the p-fold and 2-by-2 pipelines' formulas over an S-DP's offsets: the
// largest valid fold, the step counts, the 2-by-2 condition (strategies/pipeline/README.md
// derives them). What the offsets allow is the problem's knowledge, so it lives here: the GPU
// solvers (strategies/pipeline), their tests and the CPU lock-step simulation (baselines/sdp,
// cpu.pipeline_sim) share it without one linking the other.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpgpu::pipeline {

// The largest fold p the p-fold pipeline may use on these offsets: the correctness condition
// a_t >= (k - t)·p for every stage t, so p_max = min over t of floor(a_t / (k - t)). At least
// 1 for any valid offsets.
std::int64_t max_fold(const std::vector<std::int64_t>& offsets);

// Steps of the p-fold pipeline over n elements: ceil((n - a0) / p) + k - 1 (0 when n <= a0).
// The paper's loop bound gives floor((n - a0) / p) + k - 1; the two agree when p divides
// n - a0 (otherwise the paper's loop leaves the last n - a0 mod p elements unfinished).
std::int64_t pipeline_steps(std::int64_t n, std::int64_t a0, std::int64_t k, std::int64_t p);
std::int64_t paper_step_formula(std::int64_t n, std::int64_t a0, std::int64_t k, std::int64_t p);

// The 2-by-2 pipeline: ceil(k/2) threads, thread q applies stages 2q and 2q+1 to its element
// in two sub-steps. Valid when a_j + floor(j/2) >= ceil(k/2) for every j (always true for
// consecutive offsets). Returns why not, or "".
std::string why_not_2x2(const std::vector<std::int64_t>& offsets);
// Its steps: n - a0 + ceil(k/2) - 1 (0 when n <= a0), each of two sub-steps.
std::int64_t pipeline2x2_steps(std::int64_t n, std::int64_t a0, std::int64_t k);

}  // namespace dpgpu::pipeline
