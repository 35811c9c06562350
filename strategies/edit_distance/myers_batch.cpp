// The batch over a pass runner: one job per pair with both sides non-empty.
#include "myers_batch.hpp"

namespace dpgpu::myers {

std::vector<std::int32_t> solve_batch_over(const edit::BatchInstance& x, const MakeRunner& make) {
  const std::size_t n = x.pairs();
  std::vector<std::int32_t> out(n);
  std::vector<PassJob> jobs;
  std::vector<std::size_t> pair_of;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = x.a_of(k), j = x.b_of(k);
    const std::int64_t la = x.a.offset[i + 1] - x.a.offset[i];
    const std::int64_t lb = x.b.offset[j + 1] - x.b.offset[j];
    if (la == 0 || lb == 0) {
      out[k] = std::int32_t(la + lb);
      continue;
    }
    jobs.push_back({x.a.offset[i], la, x.b.offset[j], lb, false});
    pair_of.push_back(k);
  }
  if (jobs.empty()) return out;
  const Symbols sym = encode(x.a.text, x.b.text);
  auto runner = make(sym);
  Columns cols;
  runner->run(jobs, cols, false);
  for (std::size_t t = 0; t < jobs.size(); ++t) out[pair_of[t]] = std::int32_t(cols.distance[t]);
  return out;
}

}  // namespace dpgpu::myers
