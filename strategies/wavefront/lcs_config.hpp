// lcs_config.hpp — the tuning policy of gpu.wavefront for LCS, apart from the algorithm:
// mode and knobs, and their checks. Plain C++ (no CUDA), so the solver's schema and
// parameter checks work in CPU-only builds too.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "dpgpu/error.hpp"

namespace dpgpu::wavefront {

enum class LcsMode {
  Tile,  // warp per TH×TW tile, launch per anti-diagonal of tiles (tuned for H100)
  Cell,  // thread per cell, launch per anti-diagonal of cells (the paper's model)
};

// How the kernels read the strings (engine/readonly.cuh's ReadPath, named here without CUDA).
enum class LcsReadOnly { Ldg, Plain, Texture };

struct LcsWavefrontConfig {
  LcsMode mode = LcsMode::Tile;
  int block = 64;            // threads per block; multiple of 32 (tile: one warp per tile)
  int rows_per_thread = 16;  // tile: R rows per lane, tile height TH = 32·R; one of 4, 8, 16, 32
  int tile_width = 256;      // tile: TW columns per tile; multiple of 32
  LcsReadOnly readonly = LcsReadOnly::Ldg;  // the strings: __ldg, plain loads, or textures
  // Certificate: one decision bit per cell (H[i][j] > H[i-1][j]), traced back on the host.
  bool reconstruct = false;
  bool offload =
      true;  // reconstruct: stream each diagonal's bits to the host (else keep all on the device)
  int offload_slots = 8;  // reconstruct + offload: pinned host ring size (>= 2)
};

inline const char* to_string(LcsMode m) { return m == LcsMode::Tile ? "tile" : "cell"; }
inline const char* to_string(LcsReadOnly r) {
  return r == LcsReadOnly::Ldg ? "ldg" : r == LcsReadOnly::Plain ? "plain" : "texture";
}
inline LcsReadOnly readonly_from(const std::string& s) {
  if (s == "plain") return LcsReadOnly::Plain;
  if (s == "texture") return LcsReadOnly::Texture;
  if (s == "ldg") return LcsReadOnly::Ldg;
  throw dpgpu::InputError(
      "gpu.wavefront: parameter 'readonly' must be texture, ldg or plain, got '" + s + "'");
}

// Throws dpgpu::InputError naming the offending parameter.
inline void validate(const LcsWavefrontConfig& c) {
  auto fail = [](const std::string& what) { throw dpgpu::InputError("gpu.wavefront: " + what); };
  if (c.block < 32 || c.block > 1024 || c.block % 32 != 0)
    fail("parameter 'block' must be a multiple of 32 in [32, 1024] (one warp is 32 threads), got " +
         std::to_string(c.block));
  if (c.mode == LcsMode::Tile) {
    const int r = c.rows_per_thread;
    if (r != 4 && r != 8 && r != 16 && r != 32)
      fail(
          "parameter 'rows_per_thread' must be one of 4, 8, 16, 32 (compiled tile heights 128, "
          "256, 512, 1024), got " +
          std::to_string(r));
    if (c.tile_width < 32 || c.tile_width > 65536 || c.tile_width % 32 != 0)
      fail("parameter 'tile_width' must be a multiple of 32 in [32, 65536], got " +
           std::to_string(c.tile_width));
  }
  if (c.reconstruct && c.offload && (c.offload_slots < 2 || c.offload_slots > 1024))
    fail(
        "parameter 'offload_slots' must be in [2, 1024] (two device bit buffers alternate, so the "
        "ring needs at least two slots), got " +
        std::to_string(c.offload_slots));
}

}  // namespace dpgpu::wavefront
