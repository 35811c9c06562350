// bitlcs_pass.cpp — symbol codes, output layout, and the CPU model of the GPU pass.
#include "bitlcs_pass.hpp"

namespace dpgpu::bitlcs {

std::int64_t lay_out(std::vector<PassJob>& jobs) {
  std::int64_t total = 0;
  for (auto& j : jobs) {
    j.out_off = total;
    total += out_words(j);
  }
  return total;
}

void CpuPassRunner::run(const std::vector<PassJob>& jobs, std::int64_t total_words,
                        std::vector<Word>& out) {
  out.assign(std::size_t(total_words), 0);
  for (const PassJob& j : jobs) {
    const std::int64_t words = words_of(j.x_len);
    std::vector<Word> masks(std::size_t(s_.sigma) * words, 0), v(std::size_t(words), ~Word{0});
    for (std::int64_t i = 0; i < j.x_len; ++i) {
      const int c = s_.x[std::size_t(j.reversed ? j.x_off + j.x_len - 1 - i : j.x_off + i)];
      if (c < s_.sigma) masks[std::size_t(c * words + i / 64)] |= Word{1} << (i % 64);
    }
    for (std::int64_t r = 0; r < j.y_len; ++r) {
      const int c = s_.y[std::size_t(j.reversed ? j.y_off + j.y_len - 1 - r : j.y_off + r)];
      const Word* m = masks.data() + std::size_t(c) * words;
      unsigned carry = 0;
      for (std::int64_t w = 0; w < words; ++w) {
        const Word u = v[w] & m[w];
        const unsigned __int128 sum = (unsigned __int128)v[w] + u + carry;
        v[w] = Word(sum) | (v[w] & ~m[w]);
        carry = unsigned(sum >> 64);
      }
      if (j.store_rows)
        for (std::int64_t w = 0; w < words; ++w) out[std::size_t(j.out_off + r * words + w)] = v[w];
    }
    if (!j.store_rows)
      for (std::int64_t w = 0; w < words; ++w) out[std::size_t(j.out_off + w)] = v[w];
  }
}

}  // namespace dpgpu::bitlcs
