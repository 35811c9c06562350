// test_lcs_kernels_on_cpu.cpp — runs the tile and cell kernels' source, unchanged, on the CPU
// (cpu_warp_emulation.hpp: a warp's lanes are fibers that meet at every shuffle), with the
// same geometry, launches and padding as the host driver (lcs_geometry.hpp), and compares
// with a CPU two-row reference. Needs no GPU and no CUDA, so it runs in every build and CI;
// it checks the kernels' logic, not their speed or the GPU's memory model.
//
// Random strings, fresh seed per run (printed on failure); rerun one with
//   DPGPU_TEST_SEED=<seed> ./test_lcs_kernels_on_cpu
#include "cpu_warp_emulation.hpp"  // first: stands in for CUDA
// clang-format off
#include "lcs_cell_kernel.cuh"
#include "lcs_tile_kernel.cuh"
// clang-format on

#include "dpgpu/test_seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lcs_config.hpp"
#include "lcs_geometry.hpp"
#include "lcs_traceback.hpp"
#include "test_lcs_reference.hpp"

namespace {

using namespace dpgpu::wavefront;
using test::lcs_reference;

// The whole DP table of two symbol sequences: (|x| + 1) × (|y| + 1), row-major.
template <class Sym>
struct Table {
  std::size_t cols = 0;
  std::vector<int> h;
  Table(const Sym* x, std::size_t nx, const Sym* y, std::size_t ny)
      : cols(ny + 1), h((nx + 1) * (ny + 1), 0) {
    for (std::size_t i = 1; i <= nx; ++i)
      for (std::size_t j = 1; j <= ny; ++j)
        at(i, j) =
            x[i - 1] == y[j - 1] ? at(i - 1, j - 1) + 1 : std::max(at(i - 1, j), at(i, j - 1));
  }
  int& at(std::size_t i, std::size_t j) { return h[i * cols + j]; }
};

// What an emulated solve returns: the length, and with reconstruct the traced-back string.
struct Emulated {
  std::int64_t length = 0;
  std::string subsequence;
};

constexpr std::uint32_t kPoison =
    0xa5a5a5a5u;  // staging words before a launch: all must be overwritten

// The host driver's tile path (lcs_wavefront.cu), with vectors for device memory. After
// every launch, each tile of the diagonal must have left exactly the table's values in the
// boundaries: its bottom row in h_row, its right column in v_col, the next corner in corner.
// kBits: the diagonal's bits go to a poisoned staging buffer (as on the device), are copied to
// their place in the host array (as the offload does), and at the end every bit of every tile
// is compared with the table before the traceback runs on them.
template <int R, bool kBits = false, ReadPath P = ReadPath::Ldg>
Emulated emulate_tile(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg) {
  const TileGeometry g = tile_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg);
  const std::size_t N = std::size_t(g.padded_rows), M = std::size_t(g.padded_cols);
  const std::size_t TH = std::size_t(g.tile_height), TW = std::size_t(g.tile_width);
  std::vector<std::uint16_t> sa(N), sb(M);
  fill_tile_symbols(g.swapped ? b : a, kRowPad, sa.data(), N);
  fill_tile_symbols(g.swapped ? a : b, kColPad, sb.data(), M);
  Table<std::uint16_t> full(sa.data(), N, sb.data(), M);
  std::vector<int> hrow(M, 0), vcol(N, 0), corner(std::size_t(g.tile_rows), 0);
  const BitsLayout layout = kBits ? tile_bits_layout(g, cfg.block) : BitsLayout{};
  std::vector<std::uint32_t> stage(std::size_t(layout.chunk_words_max)),
      all(std::size_t(layout.total_words()));
  int wrong_tiles = 0;
  for (std::int64_t d = 0; d < g.diagonals(); ++d) {
    const TileLaunch l = tile_launch(g, d, cfg.block);
    EXPECT_GE(l.blocks * (cfg.block / 32), l.tiles);
    std::fill(stage.begin(), stage.end(), kPoison);
    dpgpu_emu::launch(unsigned(l.blocks), unsigned(cfg.block), [&] {
      lcs_tile_diagonal<R, kBits, P>(ReadOnly<std::uint16_t>{sa.data(), 0},
                                     ReadOnly<std::uint16_t>{sb.data(), 0}, hrow.data(),
                                     vcol.data(), corner.data(), kBits ? stage.data() : nullptr,
                                     int(g.tile_rows), int(g.tile_cols), g.tile_width, int(d));
    });
    if (kBits) {
      const auto from = std::size_t(layout.offset[std::size_t(d)]),
                 to = std::size_t(layout.offset[std::size_t(d) + 1]);
      EXPECT_EQ(std::int64_t(to - from), l.tiles * tile_bit_words(g));
      std::copy(stage.begin(), stage.begin() + std::ptrdiff_t(to - from),
                all.begin() + std::ptrdiff_t(from));
    }
    for (std::int64_t t = 0; t < l.tiles && wrong_tiles < 3; ++t) {
      const std::size_t i = std::size_t(l.first + t), j = std::size_t(d) - i;
      std::string what;
      for (std::size_t c = j * TW; c < (j + 1) * TW && what.empty(); ++c)
        if (hrow[c] != full.at((i + 1) * TH, c + 1))
          what = "bottom row at column " + std::to_string(c + 1) + ": " + std::to_string(hrow[c]) +
                 " instead of " + std::to_string(full.at((i + 1) * TH, c + 1));
      for (std::size_t r = i * TH; r < (i + 1) * TH && what.empty(); ++r)
        if (vcol[r] != full.at(r + 1, (j + 1) * TW))
          what = "right column at row " + std::to_string(r + 1) + ": " + std::to_string(vcol[r]) +
                 " instead of " + std::to_string(full.at(r + 1, (j + 1) * TW));
      if (what.empty() && corner[i] != full.at(i * TH, (j + 1) * TW))
        what = "corner " + std::to_string(corner[i]) + " instead of " +
               std::to_string(full.at(i * TH, (j + 1) * TW));
      if (!what.empty()) {
        ADD_FAILURE() << "tile (" << i << ", " << j << ") of diagonal " << d << ": " << what;
        ++wrong_tiles;
      }
    }
  }
  // The GPU test's check of the final boundaries must agree (and so is itself checked here).
  const LcsTileBoundaries final_state{!g.swapped, hrow, vcol};
  const std::string why = test::check_boundaries(final_state, test::reference(a, b), g);
  EXPECT_TRUE(why.empty()) << why;
  Emulated out{hrow[M - 1], {}};
  if (kBits) {
    const TileBitReader bit{&g, &layout, all.data()};
    std::int64_t wrong = 0;
    for (std::size_t r = 0; r < N; ++r)
      for (std::size_t c = 0; c < M; ++c)
        if (bit(std::int64_t(r), std::int64_t(c)) != (full.at(r + 1, c + 1) > full.at(r, c + 1)) &&
            wrong++ < 3)
          ADD_FAILURE() << "decision bit of cell (" << r + 1 << ", " << c + 1 << ") (tile "
                        << r / TH << ", " << c / TW << ") is wrong";
    EXPECT_EQ(wrong, 0) << "wrong decision bits";
    out.subsequence = traceback(g.swapped ? b : a, g.swapped ? a : b, bit);
  }
  return out;
}

// The host driver's cell path. After every launch, the diagonal's buffer must hold the
// table's values at every interior cell and zero at both boundary cells.
// kBits: every diagonal's ballot words go straight to their place (offload = false's layout,
// which is also where the offload puts them); every interior cell's bit is checked.
template <bool kBits = false, ReadPath P = ReadPath::Ldg>
Emulated emulate_cell(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg) {
  const CellGeometry g = cell_geometry(std::int64_t(a.size()), std::int64_t(b.size()), cfg);
  std::vector<std::uint8_t> sa(std::size_t(g.a_length)), sb(std::size_t(g.b_length));
  fill_cell_symbols(a, 0, sa.data(), sa.size());
  fill_cell_symbols(b, std::size_t(cfg.block), sb.data(), sb.size());
  Table<char> full(a.data(), a.size(), b.data(), b.size());
  std::vector<int> diag[3];
  for (auto& d : diag) d.assign(std::size_t(g.diagonal_length), 0);
  const std::int64_t n = g.rows, m = g.cols;
  const BitsLayout layout = kBits ? cell_bits_layout(g) : BitsLayout{};
  std::vector<std::uint32_t> all(std::size_t(layout.total_words()), kPoison);
  // Texture: the view covers the whole array and the kernel adds the guards' count.
  const ReadOnly<std::uint8_t> rb{P == ReadPath::Texture ? sb.data() : sb.data() + cfg.block, 0};
  int wrong = 0;
  for (std::int64_t k = 2; k <= n + m; ++k) {
    const CellLaunch l = cell_launch(g, k);
    // Every thread of the launch stays inside the buffers.
    const std::int64_t last_row = l.first_row + l.blocks * cfg.block - 1;
    const std::int64_t lo = std::max<std::int64_t>(1, k - m), hi = std::min<std::int64_t>(n, k - 1);
    EXPECT_TRUE(l.first_row >= 1 && l.first_row <= lo && last_row >= hi &&
                last_row < g.diagonal_length && last_row - 1 < g.a_length &&
                k - last_row - 1 + cfg.block >= 0 && k - l.first_row - 1 + cfg.block < g.b_length)
        << "launch of diagonal " << k << " covers rows " << l.first_row << ".." << last_row;
    dpgpu_emu::launch(unsigned(l.blocks), unsigned(cfg.block), [&] {
      lcs_cell_diagonal<P, kBits>(ReadOnly<std::uint8_t>{sa.data(), 0}, rb, cfg.block,
                                  diag[(k - 2) % 3].data(), diag[(k - 1) % 3].data(),
                                  diag[k % 3].data(),
                                  kBits ? all.data() + layout.offset[std::size_t(k - 2)] : nullptr,
                                  int(k), int(l.first_row));
    });
    const auto& dk = diag[k % 3];
    for (std::int64_t i = lo; i <= hi && wrong < 3; ++i)
      if (dk[std::size_t(i)] != full.at(std::size_t(i), std::size_t(k - i)))
        ADD_FAILURE() << "cell (" << i << ", " << k - i << "): " << dk[std::size_t(i)]
                      << " instead of " << full.at(std::size_t(i), std::size_t(k - i)),
            ++wrong;
    if (dk[0] != 0 || (k <= n && dk[std::size_t(k)] != 0))
      ADD_FAILURE() << "boundary cell of diagonal " << k << " is not zero", ++wrong;
  }
  Emulated out{diag[(n + m) % 3][std::size_t(n)], {}};
  if (kBits) {
    const CellBitReader bit{&g, &layout, all.data()};
    for (std::int64_t i = 1; i <= n && wrong < 3; ++i)
      for (std::int64_t j = 1; j <= m && wrong < 3; ++j)
        if (bit(i - 1, j - 1) !=
            (full.at(std::size_t(i), std::size_t(j)) > full.at(std::size_t(i - 1), std::size_t(j))))
          ADD_FAILURE() << "decision bit of cell (" << i << ", " << j << ") is wrong", ++wrong;
    out.subsequence = traceback(a, b, bit);
  }
  return out;
}

template <bool kBits, ReadPath P>
Emulated emulate_with(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg) {
  if (a.empty() || b.empty()) return {};
  if (cfg.mode == LcsMode::Cell) return emulate_cell<kBits, P>(a, b, cfg);
  switch (cfg.rows_per_thread) {
    case 4: return emulate_tile<4, kBits, P>(a, b, cfg);
    case 8: return emulate_tile<8, kBits, P>(a, b, cfg);
    case 16: return emulate_tile<16, kBits, P>(a, b, cfg);
    default: return emulate_tile<32, kBits, P>(a, b, cfg);
  }
}
template <bool kBits>
Emulated emulate_bits(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg) {
  switch (cfg.readonly) {
    case LcsReadOnly::Plain: return emulate_with<kBits, ReadPath::Plain>(a, b, cfg);
    case LcsReadOnly::Texture: return emulate_with<kBits, ReadPath::Texture>(a, b, cfg);
    default: return emulate_with<kBits, ReadPath::Ldg>(a, b, cfg);
  }
}
Emulated emulate(const std::string& a, const std::string& b, const LcsWavefrontConfig& cfg) {
  return cfg.reconstruct ? emulate_bits<true>(a, b, cfg) : emulate_bits<false>(a, b, cfg);
}

// Empty when `s` is a subsequence of both strings, else why not.
std::string not_common_subsequence(const std::string& s, const std::string& a,
                                   const std::string& b) {
  for (const std::string* t : {&a, &b}) {
    std::size_t pos = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      pos = t->find(s[k], pos);
      if (pos == std::string::npos)
        return "symbol #" + std::to_string(k + 1) + " of the certificate has no match in " +
               (t == &a ? "a" : "b");
      ++pos;
    }
  }
  return {};
}

using dpgpu::base_seed;  // $DPGPU_TEST_SEED or fresh (dpgpu/test_seed.hpp)

std::string random_string(std::mt19937_64& rng, std::int64_t len, const std::string& symbols) {
  std::uniform_int_distribution<std::size_t> pick(0, symbols.size() - 1);
  std::string s(std::size_t(len), '\0');
  for (auto& c : s) c = symbols[pick(rng)];
  return s;
}

std::string describe(const LcsWavefrontConfig& c) {
  std::ostringstream os;
  os << "mode=" << to_string(c.mode) << " block=" << c.block;
  if (c.mode == LcsMode::Tile)
    os << " rows_per_thread=" << c.rows_per_thread << " tile_width=" << c.tile_width;
  os << " readonly=" << to_string(c.readonly) << (c.reconstruct ? " reconstruct" : "");
  return os.str();
}

void check(const LcsWavefrontConfig& cfg, std::int64_t n, std::int64_t m,
           const std::string& symbols, std::uint64_t salt) {
  std::mt19937_64 rng(base_seed() * 0x9e3779b97f4a7c15ull + salt);
  const std::string a = random_string(rng, n, symbols);
  // Half the cases: b shares a long stretch with a, so matches run along diagonals.
  std::string b = random_string(rng, m, symbols);
  if (salt % 2 && !a.empty() && !b.empty()) {
    const std::size_t len = std::min(a.size(), b.size()) * 3 / 4;
    std::copy(a.begin(), a.begin() + std::ptrdiff_t(len),
              b.begin() + std::ptrdiff_t((b.size() - len) / 2));
  }
  const std::int64_t expected = lcs_reference(a, b);
  const Emulated got = emulate(a, b, cfg);
  EXPECT_EQ(got.length, expected) << describe(cfg) << " |a|=" << n << " |b|=" << m
                                  << " alphabet size " << symbols.size()
                                  << " (DPGPU_TEST_SEED=" << base_seed() << " salt=" << salt << ")";
  if (cfg.reconstruct) {
    EXPECT_EQ(std::int64_t(got.subsequence.size()), expected)
        << "certificate length; " << describe(cfg) << " |a|=" << n << " |b|=" << m
        << " salt=" << salt;
    const std::string why = not_common_subsequence(got.subsequence, a, b);
    EXPECT_TRUE(why.empty()) << why << "; " << describe(cfg) << " |a|=" << n << " |b|=" << m
                             << " salt=" << salt;
  }
}

std::string all_bytes() {
  std::string s;
  for (int c = 0; c < 256; ++c) s.push_back(char(c));
  return s;
}

LcsWavefrontConfig tile(int r, int tw, int block) {
  LcsWavefrontConfig c;
  c.rows_per_thread = r;
  c.tile_width = tw;
  c.block = block;
  return c;
}

TEST(LcsKernelsOnCpu, TileEveryRowsPerThread) {
  const std::vector<std::string> alphabets = {std::string(1, '\0'), std::string("\x00\xff", 2),
                                              "ACGT", all_bytes()};
  std::uint64_t salt = 0;
  for (int r : {4, 8, 16, 32}) {
    const std::int64_t th = 32 * r;
    for (int tw : {32, 64, 96}) {
      for (int block : {32, 64}) {
        const auto cfg = tile(r, tw, block);
        for (auto [n, m] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1},
                                                                              {1, 40},
                                                                              {40, 1},
                                                                              {31, 33},
                                                                              {th - 1, tw + 1},
                                                                              {tw + 1, th + 1},
                                                                              {th + 1, 2 * tw + 7},
                                                                              {5, 300},
                                                                              {300, 5}}) {
          check(cfg, n, m, alphabets[salt % alphabets.size()], salt);
          ++salt;
        }
      }
    }
  }
}

TEST(LcsKernelsOnCpu, TileSeveralTilesEachWay) {
  // Enough tiles in both directions that corners, in-place boundaries and partial last
  // blocks of a diagonal all matter.
  std::uint64_t salt = 1000;
  for (const auto& cfg : {tile(4, 32, 32), tile(4, 64, 96), tile(8, 96, 64), tile(4, 32, 128)}) {
    for (auto [n, m] : std::vector<std::pair<std::int64_t, std::int64_t>>{
             {700, 450}, {450, 700}, {129, 1000}, {1000, 129}})
      check(cfg, n, m, salt % 2 ? "ACGT" : "AB", salt), ++salt;
  }
  check(tile(16, 512, 128), 1500, 1100, "ACGT", salt++);  // the defaults' tile shape, 3x3 tiles
}

TEST(LcsKernelsOnCpu, CellEveryBlock) {
  std::uint64_t salt = 2000;
  for (int block : {32, 64, 96, 128}) {
    LcsWavefrontConfig cfg;
    cfg.mode = LcsMode::Cell;
    cfg.block = block;
    for (auto [n, m] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1},
                                                                          {1, 77},
                                                                          {77, 1},
                                                                          {31, 33},
                                                                          {block - 1, block + 1},
                                                                          {block + 1, block - 1},
                                                                          {3 * block + 5, 200},
                                                                          {5, 600},
                                                                          {600, 5},
                                                                          {400, 401}}) {
      check(cfg, n, m,
            salt % 3 == 0   ? std::string(1, '\0')
            : salt % 3 == 1 ? "ACGT"
                            : all_bytes(),
            salt);
      ++salt;
    }
  }
}

// Reconstruct: every rows_per_thread (so every group size G = 32/R and the drain's wrapped
// words), tile widths of one and several chunks, several tiles each way, both orientations;
// each bit of the table checked, then the traceback.
TEST(LcsKernelsOnCpu, TileReconstructEveryRowsPerThread) {
  std::uint64_t salt = 3000;
  for (int r : {4, 8, 16, 32}) {
    const std::int64_t th = 32 * r;
    for (int tw : {32, 96}) {
      auto cfg = tile(r, tw, 64);
      cfg.reconstruct = true;
      for (auto [n, m] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1},
                                                                            {1, 40},
                                                                            {40, 1},
                                                                            {31, 33},
                                                                            {th + 1, 2 * tw + 7},
                                                                            {2 * tw + 7, th + 1},
                                                                            {5, 300},
                                                                            {300, 5}}) {
        check(cfg, n, m, salt % 3 == 0 ? "AB" : salt % 3 == 1 ? "ACGT" : all_bytes(), salt);
        ++salt;
      }
    }
  }
  auto cfg = tile(4, 32, 32);
  cfg.reconstruct = true;
  for (auto [n, m] : std::vector<std::pair<std::int64_t, std::int64_t>>{{700, 450}, {450, 700}})
    check(cfg, n, m, "ACGT", salt++);
}

TEST(LcsKernelsOnCpu, CellReconstruct) {
  std::uint64_t salt = 4000;
  for (int block : {32, 96}) {
    LcsWavefrontConfig cfg;
    cfg.mode = LcsMode::Cell;
    cfg.block = block;
    cfg.reconstruct = true;
    for (auto [n, m] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1},
                                                                          {1, 77},
                                                                          {77, 1},
                                                                          {block + 1, block - 1},
                                                                          {3 * block + 5, 200},
                                                                          {5, 300},
                                                                          {300, 5}})
      check(cfg, n, m, salt % 2 ? "ACGT" : "AB", salt), ++salt;
  }
}

// Every read path reads the same symbols (the texture path's per-element row loads, the plain
// path's 8-byte loads), with and without bits.
TEST(LcsKernelsOnCpu, EveryReadPath) {
  std::uint64_t salt = 5000;
  for (LcsReadOnly path : {LcsReadOnly::Ldg, LcsReadOnly::Plain, LcsReadOnly::Texture}) {
    for (bool bits : {false, true}) {
      auto t = tile(8, 64, 64);
      t.readonly = path;
      t.reconstruct = bits;
      check(t, 300, 200, all_bytes(), salt++);
      LcsWavefrontConfig c;
      c.mode = LcsMode::Cell;
      c.block = 64;
      c.readonly = path;
      c.reconstruct = bits;
      check(c, 150, 201, "ACGT", salt++);
    }
  }
}

}  // namespace
