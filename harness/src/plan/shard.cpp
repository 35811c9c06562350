#include "plan/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <regex>
#include <tuple>

#include "dpgpu/error.hpp"
#include "records/hash_text.hpp"

namespace dpgpu {

// More shards than this is a typo. Far above Slurm's default MaxArraySize (1001), which a
// cluster may raise; `dpgpu slurm` notes arrays above that default.
constexpr int kMaxShards = 1'000'000;

std::string Shard::str() const { return fmt::format("{}/{}", index, count); }
std::string Shard::folder_name() const { return fmt::format("shard-{}-of-{}", index, count); }

Shard parse_shard(const std::string& text) {
  static const std::regex form(R"(\s*(\d{1,9})\s*/\s*(\d{1,9})\s*)");
  std::smatch m;
  if (!std::regex_match(text, m, form))
    throw InputError(
        fmt::format("--shard '{}': expected K/N, e.g. 0/4 (shards are numbered 0 to N-1)", text));
  Shard s{std::stoi(m[1]), std::stoi(m[2])};
  if (s.count < 1 || s.count > kMaxShards)
    throw InputError(fmt::format("--shard '{}': N must be between 1 and {}", text, kMaxShards));
  if (s.index >= s.count)
    throw InputError(fmt::format("--shard '{}': K must be below N (shards are numbered 0 to {})",
                                 text, s.count - 1));
  return s;
}

double estimated_cost(const CaseSpec& c) {
  return std::isfinite(c.work) && c.work > 0 ? c.work : 0;
}

std::vector<int> shard_of_cases(const std::vector<CaseSpec>& cases, int count) {
  if (count > 1)
    for (const CaseSpec& c : cases)
      if (!c.instance_built)
        throw InputError(fmt::format(
            "cannot split the plan into {} shards on this host: case '{}' has an instance that "
            "cannot be built here ({}), so its work, the cost the split balances, is unknown "
            "here; a host with more memory would split the cases otherwise (some would run "
            "twice, some never). Plan the shards where every instance fits, or leave that "
            "instance out (a smaller size, or a max: cap)",
            count, c.id, c.reason));
  // Largest cost first; equal costs (the solvers of one instance) in the order of their ids'
  // hashes, so no shard collects one solver's cases.
  std::vector<std::pair<double, std::string>> key;
  for (auto& c : cases) key.emplace_back(estimated_cost(c), hash_text(c.id));
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (key[a].first != key[b].first) return key[a].first > key[b].first;
    return key[a].second != key[b].second ? key[a].second < key[b].second : a < b;
  });
  // The least loaded shard on top: least cost, then fewest cases, then lowest index.
  using Load = std::tuple<double, std::size_t, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> least;
  for (int k = 0; k < std::max(count, 1); ++k) least.push({0.0, 0, k});
  std::vector<int> shard(cases.size(), 0);
  for (std::size_t i : order) {
    auto [cost, n, k] = least.top();
    least.pop();
    shard[i] = k;
    least.push({cost + estimated_cost(cases[i]), n + 1, k});
  }
  return shard;
}

std::vector<ShardLoad> shard_loads(const std::vector<CaseSpec>& cases,
                                   const std::vector<int>& shard_of, int count) {
  std::vector<ShardLoad> load(static_cast<std::size_t>(count));
  double total = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const double cost = estimated_cost(cases[i]);
    ShardLoad& l = load[std::size_t(shard_of[i])];
    l.cases++;
    l.cost += cost;
    total += cost;
  }
  for (ShardLoad& l : load) l.share = total > 0 ? l.cost / total : 0.0;
  return load;
}

}  // namespace dpgpu
