// Bit-parallel LCS length (Allison & Dix 1986; Hyyrö 2004, "Bit-parallel LCS-length
// computation revisited"). Bit i of V stands for column i of the longer string x; for each
// symbol c of the other string y:
//     V <- (V + (V & M[c])) | (V & ~M[c])       M[c]: bit i set where x[i] == c
// with the addition carried across 64-bit words. The LCS is the number of zero bits of V.
//
// Threads: the words of V are cut into one contiguous strip per thread; strip k sweeps the
// rows in chunks and may start a chunk once strip k-1 has finished it, taking its carry-out
// per row: a diagonal wavefront over (strip, chunk) with one flag per strip.
//
// Speed: the words of V are processed in strips that stay in L1 with their masks; within a
// strip all of y is swept, with the carry out of each row's strip kept for the next strip.
#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include "lcs/lcs_cpu.hpp"

namespace lcs::cpu {

namespace {

using Word = std::uint64_t;
constexpr std::size_t kStripWords = 512;  // 4 KiB of V per strip

// Match masks over x for the symbols that occur in y, and y as indices into them.
struct Masks {
  std::size_t words = 0;
  std::vector<Word> bits;             // symbols × words
  std::vector<std::uint8_t> row_sym;  // y[r] as a mask index

  Masks(std::string_view x, std::string_view y) : words((x.size() + 63) / 64) {
    std::array<int, 256> index;
    index.fill(-1);
    int count = 0;
    for (unsigned char c : y)
      if (index[c] < 0) index[c] = count++;
    bits.assign(std::size_t(count) * words, 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const int k = index[static_cast<unsigned char>(x[i])];
      if (k >= 0) bits[k * words + i / 64] |= Word{1} << (i % 64);
    }
    row_sym.resize(y.size());
    for (std::size_t r = 0; r < y.size(); ++r)
      row_sym[r] = std::uint8_t(index[static_cast<unsigned char>(y[r])]);
  }
  const Word* mask(std::size_t r) const { return bits.data() + row_sym[r] * words; }
};

// One row over words [lo, hi): V <- (V + U) | (V & ~M), U = V & M; returns the carry out.
inline Word row_step(Word* __restrict v, const Word* __restrict m, std::size_t lo, std::size_t hi,
                     Word carry) {
  for (std::size_t w = lo; w < hi; ++w) {
    const Word vw = v[w], mw = m[w];
    const unsigned __int128 sum = (unsigned __int128)vw + (vw & mw) + carry;
    v[w] = Word(sum) | (vw & ~mw);
    carry = Word(sum >> 64);
  }
  return carry;
}

}  // namespace

std::uint64_t bitparallel_bytes(std::string_view a, std::string_view b) {
  const auto& x = a.size() >= b.size() ? a : b;
  const auto& y = a.size() >= b.size() ? b : a;
  std::array<bool, 256> seen{};
  std::uint64_t symbols = 0;
  for (unsigned char c : y) symbols += !seen[c], seen[c] = true;
  const std::uint64_t words = (x.size() + 63) / 64;
  return (symbols + 1) * words * sizeof(Word) + y.size() * 2;
}

std::int64_t bitparallel(std::string_view a, std::string_view b, const Poll& poll) {
  const auto x = a.size() >= b.size() ? a : b;  // bits over the longer string
  const auto y = a.size() >= b.size() ? b : a;
  if (y.empty()) return 0;
  const Masks masks(x, y);
  const std::size_t words = masks.words;
  std::vector<Word> v(words, ~Word{0});
  std::vector<std::uint8_t> carry(y.size(), 0);  // per row, from one strip into the next
  Poller poller(poll, std::uint64_t{1} << 16);   // word operations between polls

  for (std::size_t lo = 0; lo < words; lo += kStripWords) {
    const std::size_t hi = std::min(words, lo + kStripWords);
    for (std::size_t r = 0; r < y.size(); ++r) {
      carry[r] = std::uint8_t(row_step(v.data(), masks.mask(r), lo, hi, carry[r]));
      poller.tick(hi - lo);
    }
  }

  // Padding bits above x's length stay 1 (their masks are 0), so zeros count only real bits.
  std::int64_t zeros = 0;
  for (Word w : v) zeros += std::popcount(~w);
  return zeros;
}

std::int64_t bitparallel_threads(std::string_view a, std::string_view b, int threads,
                                 const Poll& poll) {
  const auto x = a.size() >= b.size() ? a : b;
  const auto y = a.size() >= b.size() ? b : a;
  if (y.empty()) return 0;
  const std::size_t words = (x.size() + 63) / 64, m = y.size();
  const int strips = int(std::min<std::size_t>(
      threads > 0 ? std::size_t(threads) : std::size_t(omp_get_max_threads()), words));
  if (strips <= 1) return bitparallel(a, b, poll);
  const Masks masks(x, y);
  std::vector<Word> v(words, ~Word{0});
  std::vector<std::uint8_t> carry(std::size_t(strips - 1) * m);  // out of strip k into k+1, per row
  std::vector<std::atomic<std::size_t>> done(
      static_cast<std::size_t>(strips));  // rows finished per strip
  for (auto& d : done) d.store(0);
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  constexpr std::size_t kChunk =
      256;  // rows per hand-over: the wavefront fills in strips × kChunk rows

#pragma omp parallel num_threads(strips)
  {
    const int team = omp_get_num_threads(), me = omp_get_thread_num();
    std::vector<std::uint8_t> c(kChunk);
    Poller poller(poll, std::uint64_t{1} << 16);
    // A thread owning several strips (fewer threads than asked) finishes the lower one first:
    // strips depend only on lower ones, so this cannot deadlock.
    for (int k = me; k < strips && !stop.load(std::memory_order_relaxed); k += team) {
      const std::size_t lo = words * std::size_t(k) / std::size_t(strips);
      const std::size_t hi = words * std::size_t(k + 1) / std::size_t(strips);
      for (std::size_t r0 = 0; r0 < m && !stop.load(std::memory_order_relaxed); r0 += kChunk) {
        const std::size_t r1 = std::min(m, r0 + kChunk);
        if (k > 0) {
          for (int spins = 0; done[std::size_t(k - 1)].load(std::memory_order_acquire) < r1;
               ++spins) {
            if (stop.load(std::memory_order_relaxed)) break;
            if (spins > 64) std::this_thread::yield();
          }
          for (std::size_t r = r0; r < r1; ++r) c[r - r0] = carry[std::size_t(k - 1) * m + r];
        } else {
          std::fill(c.begin(), c.end(), 0);
        }
        for (std::size_t slo = lo; slo < hi; slo += kStripWords) {  // L1-sized pieces of the strip
          const std::size_t shi = std::min(hi, slo + kStripWords);
          for (std::size_t r = r0; r < r1; ++r)
            c[r - r0] = std::uint8_t(row_step(v.data(), masks.mask(r), slo, shi, c[r - r0]));
        }
        if (k + 1 < strips)
          for (std::size_t r = r0; r < r1; ++r) carry[std::size_t(k) * m + r] = c[r - r0];
        done[std::size_t(k)].store(r1, std::memory_order_release);
        if (me == 0) {
          try {
            poller.tick((hi - lo) * (r1 - r0));
          } catch (...) {
#pragma omp critical
            if (!error) error = std::current_exception();
            stop.store(true);
          }
        }
      }
    }
  }
  if (error) std::rethrow_exception(error);
  std::int64_t zeros = 0;
  for (Word w : v) zeros += std::popcount(~w);
  return zeros;
}

}  // namespace lcs::cpu
