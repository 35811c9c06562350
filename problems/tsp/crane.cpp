// crane (atsp_classes.hpp): stacker-crane jobs in the plane.
#include <fmt/format.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "draw.hpp"
#include "tsp/atsp_classes.hpp"

namespace tsp {

namespace {

struct Job {
  std::int64_t sx, sy, tx, ty;
};

// TSPLIB's nint of a Euclidean length, from integer differences.
std::int64_t length(std::int64_t dx, std::int64_t dy) {
  return static_cast<std::int64_t>(std::sqrt(double(dx * dx + dy * dy)) + 0.5);
}

}  // namespace

Instance crane(int n, const CraneShape& shape, std::uint64_t seed) {
  if (n < 1 || n > kMaxCities)
    throw std::invalid_argument(fmt::format("crane: n {} must be in [1, {}]", n, kMaxCities));
  if (shape.side < 1 || shape.side > 100'000'000)
    throw std::invalid_argument(fmt::format("crane: side {} must be in [1, 10^8]", shape.side));
  if (!(shape.job_scale >= 0 && shape.job_scale <= 10))
    throw std::invalid_argument(
        fmt::format("crane: job_scale {} must be in [0, 10]", shape.job_scale));
  const auto reach = static_cast<std::int64_t>(
      std::llround(shape.job_scale * double(shape.side) / std::sqrt(double(n))));
  std::mt19937_64 rng(seed);
  std::vector<Job> jobs(static_cast<std::size_t>(n));
  for (auto& j : jobs) {
    j.sx = draw_between(rng, 0, shape.side - 1);
    j.sy = draw_between(rng, 0, shape.side - 1);
    j.tx = j.sx + draw_between(rng, -reach, reach);
    j.ty = j.sy + draw_between(rng, -reach, reach);
  }
  std::vector<std::int64_t> dist(std::size_t(n) * std::size_t(n), 0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      if (i == k) continue;
      const Job &a = jobs[std::size_t(i)], &b = jobs[std::size_t(k)];
      dist[std::size_t(i) * n + k] =
          length(a.tx - b.sx, a.ty - b.sy) + (shape.loaded ? length(b.sx - b.tx, b.sy - b.ty) : 0);
    }
  Instance x = make_instance(n, std::move(dist), "crane");
  x.edge_weight_type = "EXPLICIT";
  return x;
}

}  // namespace tsp
