// Symbol codes, the CPU model of the pass, and what a last column tells.
#include "myers_pass.hpp"

#include <bit>

#include "myers_step.hpp"

namespace dpgpu::myers {

std::vector<std::int64_t> column_offsets(const std::vector<PassJob>& jobs) {
  std::vector<std::int64_t> off(jobs.size() + 1, 0);
  for (std::size_t k = 0; k < jobs.size(); ++k) off[k + 1] = off[k] + words_of(jobs[k].x_len);
  return off;
}

void CpuPassRunner::run(const std::vector<PassJob>& jobs, Columns& out, bool) {
  out.offset = column_offsets(jobs);
  out.pv.assign(std::size_t(out.offset.back()), ~Word(0));
  out.mv.assign(std::size_t(out.offset.back()), 0);
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const PassJob& j = jobs[k];
    const std::int64_t words = words_of(j.x_len);
    std::vector<Word> peq(std::size_t(s_.sigma + 1) * std::size_t(words), 0);
    for (std::int64_t i = 0; i < j.x_len; ++i) {
      const int c = s_.x[std::size_t(j.reversed ? j.x_off + j.x_len - 1 - i : j.x_off + i)];
      peq[std::size_t(c) * std::size_t(words) + std::size_t(i / 64)] |= Word(1) << (i % 64);
    }
    Word* pv = out.pv.data() + out.offset[k];
    Word* mv = out.mv.data() + out.offset[k];
    for (std::int64_t r = 0; r < j.y_len; ++r) {
      const int c = s_.y[std::size_t(j.reversed ? j.y_off + j.y_len - 1 - r : j.y_off + r)];
      int h = 1;  // the top boundary: D[0][r+1] - D[0][r] = +1
      for (std::int64_t w = 0; w < words; ++w)
        h = block_step(pv[w], mv[w], peq[std::size_t(c) * std::size_t(words) + std::size_t(w)], h);
    }
  }
  out.distance.resize(jobs.size());
  for (std::size_t k = 0; k < jobs.size(); ++k) out.distance[k] = distance_of(out, k, jobs[k]);
}

std::int64_t distance_of(const Columns& c, std::size_t k, const PassJob& job) {
  std::int64_t d = job.y_len;
  for (std::int64_t w = 0; w < words_of(job.x_len); ++w) {
    const std::int64_t bits = std::min<std::int64_t>(64, job.x_len - 64 * w);
    const Word valid = bits == 64 ? ~Word(0) : (Word(1) << bits) - 1;
    d += std::popcount(c.pv[std::size_t(c.offset[k] + w)] & valid);
    d -= std::popcount(c.mv[std::size_t(c.offset[k] + w)] & valid);
  }
  return d;
}

std::vector<std::int64_t> prefix_distances(const Columns& c, std::size_t k, const PassJob& job) {
  std::vector<std::int64_t> d(std::size_t(job.x_len) + 1);
  d[0] = job.y_len;
  for (std::int64_t i = 0; i < job.x_len; ++i) {
    const Word bit = Word(1) << (i % 64);
    const std::size_t w = std::size_t(c.offset[k] + i / 64);
    d[std::size_t(i) + 1] =
        d[std::size_t(i)] + ((c.pv[w] & bit) ? 1 : 0) - ((c.mv[w] & bit) ? 1 : 0);
  }
  return d;
}

}  // namespace dpgpu::myers
