// bitlcs_reconstruct.hpp — LCS length and one LCS string on top of bit-parallel passes.
//
// The string in linear space by Hirschberg's divide and conquer: for a subproblem
// (x[xa, xb), y[ya, yb)) one forward pass over the top half of its rows and one reversed pass
// over the bottom half give, at the middle row, LCS of x's prefix and of x's suffix for every
// split column; the best sum picks the column, and the two quarters recurse. All subproblems
// of one level are one batch (one kernel launch). A subproblem of at most `leaf_rows` rows is
// a leaf: one pass stores V after each of its rows, and the traceback walks them on the host,
// needing only one bit per step: at (r, j), a match goes diagonally; else bit j-1 of V_r set
// means LCS(r, j-1) = LCS(r, j) (go left), clear means go up.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bitlcs_pass.hpp"

namespace dpgpu::bitlcs {

// LCS(x, y) from one pass over all of x and y.
std::int64_t length(PassRunner& runner, std::int64_t n, std::int64_t m);

struct ReconstructStats {
  int levels = 0;               // batches of split passes
  std::int64_t leaves = 0;      // subproblems traced back from stored rows
  std::int64_t leaf_words = 0;  // words of V rows stored for them
  double cells = 0;             // cell updates of all passes (forward, backward, leaves)
};

// One longest common subsequence of x and y (x along the bits). `sym` encodes x and y.
std::string reconstruct(std::string_view x, std::string_view y, const Symbols& sym,
                        PassRunner& runner, std::int64_t leaf_rows,
                        ReconstructStats* stats = nullptr);

// The split column of Hirschberg's step: j in [0, n] maximising
// zeros(fwd[0, j)) + zeros(bwd[0, n - j)); fwd is V after the top rows over x, bwd after the
// bottom rows (reversed) over x reversed. Exposed for the tests.
std::int64_t best_split(const Word* fwd, const Word* bwd, std::int64_t n);

// A leaf's LCS from V after each of its rows (rows[r * words] is V after y[0..r]); x and y
// are the leaf's segments (codes), `bytes` x's original bytes. Appends in order to `lcs`.
void trace_leaf(const std::uint8_t* x, const std::uint8_t* y, std::string_view x_bytes,
                std::int64_t n, std::int64_t m, const Word* rows, std::string& lcs);

}  // namespace dpgpu::bitlcs
