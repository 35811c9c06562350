// lcs_cpu.hpp — CPU algorithms for LCS, as plain functions (each <algorithm>_params.cpp makes
// one a solver).
// Each takes a `Poll` that long loops call every few million cell updates; it throws
// (dpgpu::Timeout from the solver's context) to stop them.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "dpgpu/poller.hpp"

namespace lcs::cpu {

using dpgpu::Poll;  // empty: never stops early
using dpgpu::Poller;

// Full (n+1)(m+1) score table, then traceback: one longest common subsequence.
// Cells are 8, 16 or 32 bits, the least that holds min(n, m).
std::string full_table(std::string_view a, std::string_view b, const Poll& poll = {});
// Bytes full_table allocates for these lengths (the table and the result).
std::uint64_t full_table_bytes(std::uint64_t n, std::uint64_t m);

// Two rows over the shorter string: the length only.
std::int64_t linear(std::string_view a, std::string_view b, const Poll& poll = {});

// Hirschberg's divide and conquer: one longest common subsequence in O(n + m) space.
std::string hirschberg(std::string_view a, std::string_view b, const Poll& poll = {});

// OpenMP over anti-diagonals of tile × tile blocks: the length only.
// threads 0: OpenMP's default (OMP_NUM_THREADS, else all cores).
std::int64_t omp_wavefront(std::string_view a, std::string_view b, int threads, int tile,
                           const Poll& poll = {});

// Bit-parallel length (Allison–Dix, Hyyrö): 64 cells per word operation.
std::int64_t bitparallel(std::string_view a, std::string_view b, const Poll& poll = {});
// The same with the words cut into one strip per thread, strips advancing as a wavefront over
// chunks of rows (OpenMP). threads 0: OpenMP's default; 1 (or one word): bitparallel().
std::int64_t bitparallel_threads(std::string_view a, std::string_view b, int threads,
                                 const Poll& poll = {});
// Bytes bitparallel allocates (the bit vector, and one match mask per distinct symbol).
std::uint64_t bitparallel_bytes(std::string_view a, std::string_view b);

}  // namespace lcs::cpu
