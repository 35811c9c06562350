// The per-diagonal policy: table syntax and checks, calibration grid and sampling.
#include "mcm_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace dpgpu::mcm_gpu {

const char* to_string(Kernel k) {
  switch (k) {
    case Kernel::thread: return "thread";
    case Kernel::block: return "block";
    case Kernel::blocks: return "blocks";
  }
  return "?";
}

std::optional<Kernel> kernel_from(const std::string& name) {
  if (name == "thread") return Kernel::thread;
  if (name == "block") return Kernel::block;
  if (name == "blocks") return Kernel::blocks;
  return std::nullopt;
}

std::string to_string(const Setting& s) {
  return s.kernel == Kernel::blocks ? fmt::format("blocks:{}:{}", s.threads, s.blocks)
                                    : fmt::format("{}:{}", to_string(s.kernel), s.threads);
}

namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\n");
  const auto e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (true) {
    const auto next = s.find(sep, at);
    out.push_back(trim(s.substr(at, next == std::string::npos ? std::string::npos : next - at)));
    if (next == std::string::npos) return out;
    at = next + 1;
  }
}

std::optional<std::int64_t> number(const std::string& f) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (f.empty() || ec != std::errc() || end != f.data() + f.size()) return std::nullopt;
  return v;
}

}  // namespace

TableParse parse_table(const std::string& text) {
  TableParse r;
  const auto items = split(text, ',');
  std::int64_t expected = 2;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string& item = items[i];
    auto bad = [&](const std::string& why) {
      r.ranges.clear();
      r.error = fmt::format("table range {} '{}': {}", i + 1, item, why);
      return r;
    };
    if (expected < 0) return bad("follows the open range ('*' must be last)");
    const auto f = split(item, ':');
    if (f.size() < 3 || f.size() > 4) return bad("expected FROM-TO:KERNEL:THREADS[:BLOCKS]");
    const auto dash = f[0].find('-');
    if (dash == std::string::npos) return bad("expected FROM-TO (TO may be '*')");
    const auto from = number(trim(f[0].substr(0, dash)));
    const std::string to_text = trim(f[0].substr(dash + 1));
    const auto to = to_text == "*" ? std::optional<std::int64_t>(-1) : number(to_text);
    if (!from || !to) return bad("FROM and TO must be integers (TO may be '*')");
    if (*from != expected)
      return bad(*from < expected
                     ? fmt::format("overlaps the previous range (l = {} expected)", expected)
                     : fmt::format("leaves a gap: l = {}..{} not covered", expected, *from - 1));
    if (*to >= 0 && *to < *from) return bad("TO is below FROM");
    const auto kernel = kernel_from(f[1]);
    if (!kernel)
      return bad(fmt::format("unknown kernel '{}' (one of: thread, block, blocks)", f[1]));
    const auto threads = number(f[2]);
    if (!threads || *threads < 32 || *threads > 1024 || *threads % 32)
      return bad("THREADS must be a multiple of 32 in [32, 1024]");
    Setting s{*kernel, int(*threads), 1};
    if (*kernel == Kernel::blocks) {
      const auto blocks = f.size() == 4 ? number(f[3]) : std::nullopt;
      if (!blocks || *blocks < 2 || *blocks > 1024)
        return bad("the blocks kernel needs BLOCKS in [2, 1024]");
      s.blocks = int(*blocks);
    } else if (f.size() == 4) {
      return bad(fmt::format("BLOCKS is only for the blocks kernel, not '{}'", f[1]));
    }
    r.ranges.push_back({*from, *to, s});
    expected = *to < 0 ? -1 : *to + 1;
  }
  if (expected >= 0) {
    r.ranges.clear();
    r.error = fmt::format("table: the last range must end with '*' (l = {} onwards is not covered)",
                          expected);
  }
  return r;
}

std::string table_text(const std::vector<Range>& ranges) {
  std::string s;
  for (const auto& r : ranges) {
    if (!s.empty()) s += ',';
    s += fmt::format("{}-{}:{}", r.from, r.to < 0 ? std::string("*") : std::to_string(r.to),
                     to_string(r.setting));
  }
  return s;
}

const Setting& setting_for(const std::vector<Range>& ranges, std::int64_t l) {
  for (const auto& r : ranges)
    if (l >= r.from && (r.to < 0 || l <= r.to)) return r.setting;
  return ranges.back().setting;
}

std::vector<Setting> calibration_grid() {
  std::vector<Setting> g;
  for (int t : {32, 64, 128, 256}) g.push_back({Kernel::thread, t, 1});
  for (int t : {32, 64, 128, 256, 512, 1024}) g.push_back({Kernel::block, t, 1});
  for (int t : {32, 64, 128, 256})
    for (int b : {2, 4, 8, 16}) g.push_back({Kernel::blocks, t, b});
  return g;
}

std::vector<Setting> grid_neighbours(const Setting& s) {
  std::vector<Setting> v;
  const int top = s.kernel == Kernel::block ? 1024 : 256;  // the grid's largest block per kernel
  if (s.threads > 32) v.push_back({s.kernel, s.threads / 2, s.blocks});
  if (s.threads < top) v.push_back({s.kernel, s.threads * 2, s.blocks});
  switch (s.kernel) {
    case Kernel::thread: v.push_back({Kernel::block, s.threads, 1}); break;
    case Kernel::block:
      if (s.threads <= 256) v.push_back({Kernel::thread, s.threads, 1});
      v.push_back({Kernel::blocks, std::min(s.threads, 256), 2});
      break;
    case Kernel::blocks:
      v.push_back(s.blocks == 2 ? Setting{Kernel::block, s.threads, 1}
                                : Setting{Kernel::blocks, s.threads, s.blocks / 2});
      if (s.blocks < 16) v.push_back({Kernel::blocks, s.threads, s.blocks * 2});
      break;
  }
  return v;
}

Calibrator::Calibrator(std::int64_t n, double budget)
    : n_(n), first_(std::min<std::int64_t>(n, 64)), budget_(budget) {
  choose(2, {Kernel::block, 128, 1});
  next_candidates(first_, current_, false);
}

bool Calibrator::sample(std::int64_t l) {
  since_s_ += best_s_;  // this diagonal, estimated at the time of the setting the last sample kept
  if (awaiting_ || l < 2 || l > n_) return false;
  const bool due = samples_ == 0 ? l == first_
                                 : (current_.kernel == Kernel::thread && l >= 2 * last_l_) ||
                                       budget_ * since_s_ >= last_extra_s_ * backoff_;
  awaiting_ = due;
  return due;
}

void Calibrator::record(std::int64_t l, const std::vector<double>& seconds, std::int64_t from) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < seconds.size(); ++i)
    if (seconds[i] < seconds[best]) best = i;
  std::size_t second = best;
  double sum = 0, family[3] = {0, 0, 0};
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    sum += seconds[i];
    if (i != best && (second == best || seconds[i] < seconds[second])) second = i;
    double& f = family[int(candidates_[i].kernel)];
    f = f == 0 ? seconds[i] : std::min(f, seconds[i]);
  }
  const double fastest = seconds[best];
  for (int k = 0; k < 3; ++k)
    if (family[k] > 0) ratio_[k] = family[k] / fastest;
  // The current setting (candidates_[0]) stays unless the fastest beats it by more than
  // the event timer's noise: on 5 µs diagonals a single timing cannot tell 20 % apart.
  std::size_t pick = best;
  if (best != 0 && seconds[0] <= fastest + kNoiseS) {
    pick = 0;
    second = best;
  }
  const double tolerance = std::max(kFlat * fastest, kNoiseS);
  const bool flat = std::all_of(seconds.begin(), seconds.end(),
                                [&](double t) { return t <= fastest + tolerance; });
  flat_samples_ += flat;
  backoff_ = flat ? std::min(2 * backoff_, kMaxBackoff) : 1;
  best_s_ = seconds[pick];
  last_extra_s_ = sum - seconds[pick];
  extra_s_ += last_extra_s_;
  timed_s_ += sum;
  since_s_ = 0;
  last_l_ = l;
  ++samples_;
  awaiting_ = false;
  const Setting winner = candidates_[pick], runner_up = candidates_[second];
  choose(from, winner);
  next_candidates(l, runner_up, second != pick && seconds[second] <= 1.1 * fastest);
}

int Calibrator::ahead() const {
  if (best_s_ <= 0) return 1;
  return int(std::clamp(kAheadS / best_s_, 1.0, double(kMaxAhead)));
}

void Calibrator::next_candidates(std::int64_t l, const Setting& runner_up, bool have_runner_up) {
  const bool tail = n_ + 1 - l < l;  // fewer entries than splits: the blocks kernel's ground
  auto timed = [&](const Setting& s) {
    switch (s.kernel) {
      case Kernel::thread: return ratio_[0] <= 1.5;  // its time per entry grows with l
      case Kernel::block: return true;
      case Kernel::blocks: return tail && (ratio_[2] <= 1.5 || ratio_[2] == 0 || l >= n_ - n_ / 16);
    }
    return true;
  };
  candidates_ = {current_};
  auto add = [&](const Setting& s) {
    if (timed(s) && std::find(candidates_.begin(), candidates_.end(), s) == candidates_.end())
      candidates_.push_back(s);
  };
  for (const auto& s : grid_neighbours(current_)) add(s);
  if (have_runner_up) add(runner_up);
}

void Calibrator::choose(std::int64_t from, const Setting& s) {
  if (!used_.empty() && used_.back().setting == s) return;
  if (used_.empty())
    from = 2;
  else
    used_.back().to = from - 1;
  used_.push_back({from, -1, s});
  current_ = s;
}

}  // namespace dpgpu::mcm_gpu
