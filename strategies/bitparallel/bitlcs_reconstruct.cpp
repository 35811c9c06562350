// bitlcs_reconstruct.cpp — length, Hirschberg levels as batches of passes, leaf traceback.
#include "bitlcs_reconstruct.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace dpgpu::bitlcs {

namespace {

// 64 bits of v starting at bit `pos` (may be negative or past n); bits outside [0, n) read 1,
// i.e. "no zero there".
Word bits_at(const Word* v, std::int64_t pos, std::int64_t n) {
  Word r = 0;
  for (int part = 0; part < 2; ++part) {
    const std::int64_t w = (pos >= 0 ? pos / 64 : (pos - 63) / 64) + part;  // floor division
    const std::int64_t shift = pos - w * 64;                                // in (-64, 64)
    Word word = w >= 0 && w < words_of(n) ? v[w] : ~Word{0};
    const std::int64_t valid = n - w * 64;  // bits of this word inside [0, n)
    if (valid < 64) word |= valid <= 0 ? ~Word{0} : ~Word{0} << valid;
    r |= shift >= 0 ? word >> shift : (shift > -64 ? word << -shift : 0);
  }
  return r;
}

Word reverse_bits(Word w) {
  w = ((w >> 1) & 0x5555555555555555ull) | ((w & 0x5555555555555555ull) << 1);
  w = ((w >> 2) & 0x3333333333333333ull) | ((w & 0x3333333333333333ull) << 2);
  w = ((w >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((w & 0x0F0F0F0F0F0F0F0Full) << 4);
  w = ((w >> 8) & 0x00FF00FF00FF00FFull) | ((w & 0x00FF00FF00FF00FFull) << 8);
  w = ((w >> 16) & 0x0000FFFF0000FFFFull) | ((w & 0x0000FFFF0000FFFFull) << 16);
  return (w >> 32) | (w << 32);
}

std::int64_t zeros(const Word* v, std::int64_t n) {
  std::int64_t z = 0;
  for (std::int64_t w = 0; w < words_of(n); ++w) z += std::popcount(~bits_at(v, w * 64, n));
  return z;
}

struct Sub {
  std::int64_t xa, xb, ya, yb;
};

}  // namespace

std::int64_t length(PassRunner& runner, std::int64_t n, std::int64_t m) {
  if (n == 0 || m == 0) return 0;
  std::vector<PassJob> jobs{PassJob{0, n, 0, m}};
  const std::int64_t total = lay_out(jobs);
  std::vector<Word> out;
  runner.run(jobs, total, out);
  return zeros(out.data(), n);
}

std::int64_t best_split(const Word* fwd, const Word* bwd, std::int64_t n) {
  // f(j) = Lf(j) + Lb(n - j); f(j+1) - f(j) = [fwd bit j is 0] - [bwd bit n-1-j is 0].
  std::int64_t f = zeros(bwd, n), best = f, best_j = 0;
  for (std::int64_t w = 0; w * 64 < n; ++w) {
    const std::int64_t j0 = w * 64;
    const Word zf = ~bits_at(fwd, j0, n);                         // bit t: fwd bit j0+t is 0
    const Word zb = ~reverse_bits(bits_at(bwd, n - 64 - j0, n));  // bit t: bwd bit n-1-j0-t is 0
    const int gain = std::popcount(zf);
    if (f + gain <= best) {  // f cannot exceed best inside this word: skip it
      f += gain - std::popcount(zb);
      continue;
    }
    for (int t = 0; t < 64 && j0 + t < n; ++t) {
      f += int((zf >> t) & 1) - int((zb >> t) & 1);
      if (f > best) best = f, best_j = j0 + t + 1;
    }
  }
  return best_j;
}

void trace_leaf(const std::uint8_t* x, const std::uint8_t* y, std::string_view x_bytes,
                std::int64_t n, std::int64_t m, const Word* rows, std::string& lcs) {
  const std::int64_t words = words_of(n);
  std::string rev;
  std::int64_t r = m, j = n;
  while (r > 0 && j > 0) {
    if (x[j - 1] == y[r - 1]) {
      rev.push_back(x_bytes[std::size_t(j - 1)]);
      --r, --j;
    } else if ((rows[(r - 1) * words + (j - 1) / 64] >> ((j - 1) % 64)) & 1) {
      --j;  // LCS(r, j-1) = LCS(r, j)
    } else {
      --r;  // LCS(r-1, j) = LCS(r, j)
    }
  }
  lcs.append(rev.rbegin(), rev.rend());
}

std::string reconstruct(std::string_view x, std::string_view y, const Symbols& sym,
                        PassRunner& runner, std::int64_t leaf_rows, ReconstructStats* stats) {
  if (leaf_rows < 1) throw std::invalid_argument("leaf_rows must be at least 1");
  ReconstructStats st;
  std::vector<Sub> level{Sub{0, std::int64_t(x.size()), 0, std::int64_t(y.size())}}, leaves, next;
  std::vector<Word> out;
  while (!level.empty()) {
    std::vector<PassJob> jobs;
    std::vector<Sub> split;
    for (const Sub& s : level) {
      if (s.xb == s.xa || s.yb == s.ya) continue;  // nothing in common
      if (s.yb - s.ya <= leaf_rows) {
        leaves.push_back(s);
        continue;
      }
      const std::int64_t mid = s.ya + (s.yb - s.ya) / 2;
      jobs.push_back(PassJob{s.xa, s.xb - s.xa, s.ya, mid - s.ya, false});
      jobs.push_back(PassJob{s.xa, s.xb - s.xa, mid, s.yb - mid, true});
      split.push_back(s);
    }
    next.clear();
    if (!jobs.empty()) {
      const std::int64_t total = lay_out(jobs);
      runner.run(jobs, total, out);
      ++st.levels;
      for (std::size_t k = 0; k < split.size(); ++k) {
        const Sub& s = split[k];
        const PassJob &f = jobs[2 * k], &b = jobs[2 * k + 1];
        st.cells += double(f.x_len) * double(f.y_len + b.y_len);
        const std::int64_t j =
            s.xa + best_split(out.data() + f.out_off, out.data() + b.out_off, s.xb - s.xa);
        const std::int64_t mid = f.y_off + f.y_len;
        next.push_back(Sub{s.xa, j, s.ya, mid});
        next.push_back(Sub{j, s.xb, mid, s.yb});
      }
    }
    level.swap(next);
  }
  // Leaves come from different levels; their rows are disjoint and ordered with their columns.
  std::sort(leaves.begin(), leaves.end(), [](const Sub& a, const Sub& b) { return a.ya < b.ya; });
  std::string lcs;
  if (!leaves.empty()) {
    std::vector<PassJob> jobs;
    for (const Sub& s : leaves)
      jobs.push_back(PassJob{s.xa, s.xb - s.xa, s.ya, s.yb - s.ya, false, true});
    const std::int64_t total = lay_out(jobs);
    runner.run(jobs, total, out);
    std::vector<std::string> parts(leaves.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t k = 0; k < std::int64_t(leaves.size()); ++k) {
      const Sub& s = leaves[std::size_t(k)];
      trace_leaf(sym.x.data() + s.xa, sym.y.data() + s.ya, x.substr(std::size_t(s.xa)), s.xb - s.xa,
                 s.yb - s.ya, out.data() + jobs[std::size_t(k)].out_off, parts[std::size_t(k)]);
    }
    for (const auto& p : parts) lcs += p;
    st.leaves = std::int64_t(leaves.size());
    st.leaf_words = total;
    for (const auto& j : jobs) st.cells += double(j.x_len) * double(j.y_len);
  }
  if (stats) *stats = st;
  return lcs;
}

}  // namespace dpgpu::bitlcs
