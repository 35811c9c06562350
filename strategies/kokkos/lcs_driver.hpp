// lcs_driver.hpp — the host side of the Kokkos LCS solvers, written once for any execution
// space: allocation, copies, one dispatch per anti-diagonal, the answer back.
// Included by lcs_host.cpp (OpenMP) and lcs_device.cpp (CUDA) only.
#pragma once
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "kokkos_runtime.hpp"
#include "lcs_cell.hpp"
#include "lcs_kokkos_config.hpp"
#include "lcs_tile.hpp"

namespace dpgpu::kokkos {

inline constexpr int kDeadlineEvery = 256;  // dispatches between deadline checks

template <class Exec, class T>
Kokkos::View<T*, typename Exec::memory_space> uninitialized(const Exec& exec, const char* label,
                                                            std::size_t n) {
  return Kokkos::View<T*, typename Exec::memory_space>(
      Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)), n);
}

template <class Exec, int R, int K>
std::int64_t lcs_tiles(const Exec& exec, const std::string& a, const std::string& b,
                       const TileGeometry& g, Context& ctx) {
  using Functor = LcsTileDiagonal<Exec, R, K>;
  const int team = static_cast<int>(g.tile_height / R);
  CountedBytes counted(ctx, g.device_bytes(), on_device<Exec>);
  Functor f;
  Kokkos::View<std::uint16_t*, typename Exec::memory_space> rows_d, cols_d;
  {
    auto phase = ctx.phase("alloc");
    rows_d = uninitialized<Exec, std::uint16_t>(exec, "lcs rows", g.padded_rows);
    cols_d = uninitialized<Exec, std::uint16_t>(exec, "lcs cols", g.padded_cols);
    f.rows = rows_d;
    f.cols = cols_d;
    f.h_row = uninitialized<Exec, int>(exec, "lcs h_row", g.padded_cols);
    f.v_col = uninitialized<Exec, int>(exec, "lcs v_col", g.padded_rows);
    f.corner = uninitialized<Exec, int>(exec, "lcs corner", g.tile_rows);
  }
  {
    auto phase = ctx.phase("h2d");
    const std::string& row_s = g.swapped ? b : a;
    const std::string& col_s = g.swapped ? a : b;
    auto rows_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, rows_d);
    auto cols_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, cols_d);
    for (std::int64_t i = 0; i < g.padded_rows; ++i)
      rows_h(i) = i < g.rows ? std::uint16_t(static_cast<unsigned char>(row_s[i])) : kRowPad;
    for (std::int64_t j = 0; j < g.padded_cols; ++j)
      cols_h(j) = j < g.cols ? std::uint16_t(static_cast<unsigned char>(col_s[j])) : kColPad;
    Kokkos::deep_copy(exec, rows_d, rows_h);
    Kokkos::deep_copy(exec, cols_d, cols_h);
    Kokkos::deep_copy(exec, f.h_row, 0);
    Kokkos::deep_copy(exec, f.v_col, 0);
    Kokkos::deep_copy(exec, f.corner, 0);
    exec.fence("lcs h2d");  // the host mirrors go out of scope
  }
  {
    auto phase = ctx.phase("compute");
    f.tile_width = g.tile_width;
    const std::size_t scratch = Functor::scratch_bytes(team, g.tile_width);
    for (std::int64_t d = 0; d < g.diagonals(); ++d) {
      const std::int64_t first = d >= g.tile_cols ? d - g.tile_cols + 1 : 0;
      const std::int64_t last = d < g.tile_rows ? d : g.tile_rows - 1;
      f.diagonal = static_cast<int>(d);
      f.first = static_cast<int>(first);
      Kokkos::TeamPolicy<Exec> policy(exec, static_cast<int>(last - first + 1), team);
      Kokkos::parallel_for("lcs tile diagonal",
                           policy.set_scratch_size(0, Kokkos::PerTeam(scratch)), f);
      if (d % kDeadlineEvery == kDeadlineEvery - 1) ctx.check_deadline();
    }
    ctx.set("kernel_launches", double(g.diagonals()));
    ctx.set("diagonals", double(g.diagonals()));
    ctx.set("tile_height", g.tile_height);
    ctx.set("tile_width", g.tile_width);
    ctx.set("team_size", team);
    ctx.set("columns_per_step", K);
  }
  int length = 0;
  {
    auto phase = ctx.phase("d2h");
    // H of the last padded column at the last real row: the right boundary v_col[rows − 1].
    Kokkos::View<int, Kokkos::HostSpace> host("lcs answer");
    Kokkos::deep_copy(exec, host, Kokkos::subview(f.v_col, g.rows - 1));
    exec.fence("lcs d2h");
    length = host();
  }
  return length;
}

template <class Exec>
std::int64_t lcs_cells(const Exec& exec, const std::string& a, const std::string& b, Context& ctx) {
  using Functor = LcsCellDiagonal<Exec>;
  using Mem = typename Exec::memory_space;
  const std::int64_t n = std::int64_t(a.size()), m = std::int64_t(b.size());
  CountedBytes counted(ctx, cell_device_bytes(n, m), on_device<Exec>);
  Kokkos::View<std::uint8_t*, Mem> a_d, b_d;
  Kokkos::View<int*, Mem> diag[3];
  {
    auto phase = ctx.phase("alloc");
    a_d = uninitialized<Exec, std::uint8_t>(exec, "lcs a", std::size_t(n));
    b_d = uninitialized<Exec, std::uint8_t>(exec, "lcs b", std::size_t(m));
    for (auto& v : diag) v = uninitialized<Exec, int>(exec, "lcs diagonal", std::size_t(n + 1));
  }
  {
    auto phase = ctx.phase("h2d");
    using Unmanaged = Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    Kokkos::deep_copy(exec, a_d,
                      Unmanaged(reinterpret_cast<const std::uint8_t*>(a.data()), a.size()));
    Kokkos::deep_copy(exec, b_d,
                      Unmanaged(reinterpret_cast<const std::uint8_t*>(b.data()), b.size()));
    for (auto& v : diag) Kokkos::deep_copy(exec, v, 0);  // the zero border (lcs_cell.hpp)
  }
  {
    auto phase = ctx.phase("compute");
    Functor f;
    f.a = a_d;
    f.b = b_d;
    for (std::int64_t k = 2; k <= n + m; ++k) {
      f.two_back = diag[(k - 2) % 3];
      f.one_back = diag[(k - 1) % 3];
      f.out = diag[k % 3];
      f.k = static_cast<int>(k);
      const std::int64_t lo = std::max<std::int64_t>(1, k - m),
                         hi = std::min<std::int64_t>(n, k - 1);
      Kokkos::parallel_for("lcs cell diagonal", Kokkos::RangePolicy<Exec>(exec, lo, hi + 1), f);
      if (k % kDeadlineEvery == 0) ctx.check_deadline();
    }
    ctx.set("kernel_launches", double(n + m - 1));
    ctx.set("diagonals", double(n + m - 1));
  }
  int length = 0;
  {
    auto phase = ctx.phase("d2h");
    Kokkos::View<int, Kokkos::HostSpace> host("lcs answer");
    Kokkos::deep_copy(exec, host, Kokkos::subview(diag[(n + m) % 3], n));
    exec.fence("lcs d2h");
    length = host();
  }
  return length;
}

// Calls f(std::integral_constant<int, A[I]>) for the entry of the compiled list A equal to
// `value`; false when none is.
template <const auto& A, class F, std::size_t... I>
bool with_compiled(int value, F&& f, std::index_sequence<I...>) {
  return ((A[I] == value && (f(std::integral_constant<int, A[I]>{}), true)) || ...);
}
template <const auto& A, class F>
bool with_compiled(int value, F&& f) {
  return with_compiled<A>(value, std::forward<F>(f), std::make_index_sequence<A.size()>{});
}

template <Space S, class Exec>
std::int64_t lcs_length_on(const Exec& exec, const std::string& a, const std::string& b,
                           const LcsKokkosConfig<S>& c, Context& ctx) {
  const std::string solver = solver_name(S);
  validate(c, solver);
  if (std::int64_t(a.size()) + std::int64_t(b.size()) > kMaxLength)
    throw dpgpu::InputError(solver + ": |a| + |b| = " + std::to_string(a.size() + b.size()) +
                            " is above the 32-bit limit " + std::to_string(kMaxLength));
  if (a.empty() || b.empty()) return 0;
  if (c.mode == LcsMode::Cell) return lcs_cells(exec, a, b, ctx);
  const TileGeometry g = tile_geometry(std::int64_t(a.size()), std::int64_t(b.size()), c);
  using L = LcsCompiled<S>;
  std::int64_t length = -1;
  // Only the compiled pairs are reachable (validate); each instance is a few kB of code.
  with_compiled<L::rows>(c.rows_per_thread, [&](auto R) {
    with_compiled<L::columns>(c.columns_per_step, [&](auto K) {
      length = lcs_tiles<Exec, decltype(R)::value, decltype(K)::value>(exec, a, b, g, ctx);
    });
  });
  if (length < 0) throw dpgpu::InputError(solver + ": tile shape not compiled");
  return length;
}

}  // namespace dpgpu::kokkos
