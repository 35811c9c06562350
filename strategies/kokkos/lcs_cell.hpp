// lcs_cell.hpp — cell mode, paper 000's model: one work item per cell of an anti-diagonal,
// one dispatch per anti-diagonal. Diagonal k = i + j (1-based cells) is stored by row i in one
// of three rotating buffers of n + 1 values; entries no cell writes stay 0, which is exactly
// the table's zero border (see lcs_driver.hpp).
#pragma once
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace dpgpu::kokkos {

template <class Exec>
struct LcsCellDiagonal {
  using Mem = typename Exec::memory_space;
  Kokkos::View<const std::uint8_t*, Mem> a, b;
  Kokkos::View<const int*, Mem> two_back, one_back;  // diagonals k − 2 and k − 1
  Kokkos::View<int*, Mem> out;                       // diagonal k
  int k = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const int j = k - i;
    out(i) = a(i - 1) == b(j - 1) ? two_back(i - 1) + 1 : Kokkos::max(one_back(i - 1), one_back(i));
  }
};

}  // namespace dpgpu::kokkos
