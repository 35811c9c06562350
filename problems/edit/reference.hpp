// reference.hpp — the plain reference solvers that tests and the baselines hold every other
// solver to: the textbook recurrence, kept easy to trust.
//   D[i][j] = min(D[i-1][j] + 1, D[i][j-1] + 1, D[i-1][j-1] + (a[i-1] != b[j-1])),
//   D[i][0] = i, D[0][j] = j;  distance = D[n][m].
#pragma once
#include <cstdint>
#include <string_view>

#include "dpgpu/poller.hpp"
#include "edit/script.hpp"

namespace edit {

// The distance over two rows: O(n·m) time, O(min(n, m)) space.
std::int64_t reference_distance(std::string_view a, std::string_view b,
                                const dpgpu::Poll& poll = {});

// An optimal script from the whole table traced back: O(n·m) time and space (small pairs).
Script reference_script(std::string_view a, std::string_view b);

// An optimal script in linear space (Hirschberg 1975): the middle row of a splits b where
// the forward and backward distances sum to the least; halves below `leaf_cells` cells go
// to reference_script. About 2·n·m cell updates.
Script hirschberg_script(std::string_view a, std::string_view b, const dpgpu::Poll& poll = {},
                         std::int64_t leaf_cells = std::int64_t{1} << 16);

}  // namespace edit
