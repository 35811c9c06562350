// The batch solvers: pairs in chunks, each chunk over the OpenMP threads.
#include "batch_cpu.hpp"

#include <omp.h>

#include <algorithm>

#include "edit/edit_cpu.hpp"
#include "edit/reference.hpp"
#include "lcs/lcs_cpu.hpp"

namespace edit::cpu {

template <class One>
std::vector<std::int32_t> each_pair(const BatchInstance& x, int threads, const dpgpu::Poll& poll,
                                    const One& one) {
  const std::int64_t n = std::int64_t(x.pairs());
  std::vector<std::int32_t> out(static_cast<std::size_t>(n));
  const int t = threads > 0 ? threads : omp_get_max_threads();
  const std::int64_t chunk = std::max<std::int64_t>(1024, 64 * t);
  for (std::int64_t lo = 0; lo < n; lo += chunk) {
    const std::int64_t hi = std::min(n, lo + chunk);
#pragma omp parallel for num_threads(t) schedule(dynamic, 16)
    for (std::int64_t k = lo; k < hi; ++k)
      out[std::size_t(k)] =
          std::int32_t(one(x.a[x.a_of(std::size_t(k))], x.b[x.b_of(std::size_t(k))]));
    if (poll) poll();
  }
  return out;
}

std::vector<std::int32_t> edlib_batch(const BatchInstance& x, int threads,
                                      const dpgpu::Poll& poll) {
  return each_pair(x, threads, poll,
                   [](std::string_view a, std::string_view b) { return edlib_distance(a, b); });
}

std::vector<std::int32_t> dp_batch(const BatchInstance& x, int threads, const dpgpu::Poll& poll) {
  return each_pair(x, threads, poll,
                   [](std::string_view a, std::string_view b) { return reference_distance(a, b); });
}

std::vector<std::int32_t> lcs_bitparallel_batch(const BatchInstance& x, int threads,
                                                const dpgpu::Poll& poll) {
  return each_pair(x, threads, poll, [](std::string_view a, std::string_view b) {
    return lcs::cpu::bitparallel(a, b);
  });
}

}  // namespace edit::cpu
