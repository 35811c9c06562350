// mcm_gpu.cu — gpu.mcm: upload, the per-diagonal launches chosen by the policy (fixed,
// table, calibrate), the walk of the split tree, download. Kernels in mcm_kernels.cuh.
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "dpgpu/error.hpp"
#include "mcm_kernels.cuh"
#include "mcm_solvers.hpp"
#include "mcm_walk.cuh"

namespace dpgpu::mcm_gpu {
namespace {

using gpu::DeviceBuffer;
using gpu::PinnedBuffer;

constexpr std::int64_t kLaunchesPerCheck = 512;

int max_parts(const McmConfig& cfg, const std::vector<Range>& ranges) {
  int parts = 1;
  if (cfg.policy == Policy::calibrate)
    for (const auto& s : calibration_grid()) parts = std::max(parts, s.blocks);
  for (const auto& r : ranges) parts = std::max(parts, r.setting.blocks);
  return std::min(parts, kMaxParts);
}

template <class T>
struct Solve {
  const ::mcm::Instance& x;
  Context& ctx;
  cudaStream_t stream;
  ll n, w;
  DeviceBuffer<T> diag, sym, p;
  DeviceBuffer<std::int32_t> split;
  DeviceBuffer<u64> part_v, wide, escaped;
  DeviceBuffer<int> part_c;
  int parts_cap;
  Table<T> tab;
  std::int64_t launches = 0, calibration_launches = 0;

  Solve(const ::mcm::Instance& inst, int parts, bool escape, Context& c)
      : x(inst),
        ctx(c),
        stream(static_cast<cudaStream_t>(c.stream())),
        n(inst.n()),
        w(inst.n() + 1),
        parts_cap(parts) {
    const std::size_t cells = std::size_t(diag_offset(w, w));
    PinnedBuffer<T> h_p{std::size_t(w)};
    {
      auto ph = ctx.phase("alloc");
      diag = DeviceBuffer<T>(cells, &ctx);
      sym = DeviceBuffer<T>(std::size_t(w * w), &ctx);
      split = DeviceBuffer<std::int32_t>(cells, &ctx);
      p = DeviceBuffer<T>(std::size_t(w), &ctx);
      part_v = DeviceBuffer<u64>(std::size_t(w) * std::size_t(parts), &ctx);
      part_c = DeviceBuffer<int>(std::size_t(w) * std::size_t(parts), &ctx);
      if (escape) {
        wide = DeviceBuffer<u64>(std::size_t(w * w), &ctx);  // read only where written
        escaped = DeviceBuffer<u64>(1, &ctx);
      }
    }
    // Every kernel a policy may launch, loaded now (lazy module loading would otherwise put
    // the load into the first timed launch of each).
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, one_thread_per_entry<T>));
    CUDA_CHECK(cudaFuncGetAttributes(&attr, one_block_per_entry<T>));
    CUDA_CHECK(cudaFuncGetAttributes(&attr, blocks_per_entry_partial<T>));
    CUDA_CHECK(cudaFuncGetAttributes(&attr, blocks_per_entry_final<T>));
    auto ph = ctx.phase("h2d");
    for (ll t = 0; t < w; ++t) h_p[std::size_t(t)] = T(x.p[std::size_t(t)]);
    CUDA_CHECK(cudaMemcpyAsync(p.get(), h_p.get(), p.bytes(), cudaMemcpyHostToDevice, stream));
    // Diagonals 0 and 1 are zero (M[a][a+1] = 0); the rest is written before it is read.
    CUDA_CHECK(cudaMemsetAsync(diag.get(), 0, diag.bytes(), stream));
    CUDA_CHECK(cudaMemsetAsync(sym.get(), 0, sym.bytes(), stream));
    if (escape) CUDA_CHECK(cudaMemsetAsync(escaped.get(), 0, escaped.bytes(), stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));  // h_p is freed on return
    tab = Table<T>{diag.get(), sym.get(), split.get(), p.get(), w, wide.get(), escaped.get()};
  }

  // The launch(es) of diagonal l with setting s.
  void launch(const Setting& s, ll l) {
    const ll entries = w - l;
    auto mark = ctx.profiled_launch();
    switch (s.kernel) {
      case Kernel::thread:
        one_thread_per_entry<T>
            <<<unsigned((entries + s.threads - 1) / s.threads), unsigned(s.threads), 0, stream>>>(
                tab, l);
        break;
      case Kernel::block:
        one_block_per_entry<T><<<unsigned(entries), unsigned(s.threads), 0, stream>>>(tab, l);
        break;
      case Kernel::blocks: {
        const int parts = std::min(s.blocks, parts_cap);
        blocks_per_entry_partial<T>
            <<<dim3(unsigned(entries), unsigned(parts)), unsigned(s.threads), 0, stream>>>(
                tab, l, parts, part_v.get(), part_c.get());
        CUDA_CHECK_LAUNCH();
        ++launches;
        constexpr int kWarps = 8;  // entries per block of the final launch
        blocks_per_entry_final<T>
            <<<unsigned((entries + kWarps - 1) / kWarps), 32 * kWarps, 0, stream>>>(
                tab, l, parts, part_v.get(), part_c.get());
        break;
      }
    }
    CUDA_CHECK_LAUNCH();
    ++launches;
  }

  // Policy calibrate: the candidates each compute diagonal l (the same values), timed by
  // events; `ahead` next diagonals are queued with the old choice before the host waits, so
  // the GPU stays busy while the host reads the times and chooses.
  void sample(Calibrator& cal, ll l, ll ahead, std::vector<cudaEvent_t>& ev) {
    const auto& cands = cal.candidates();
    while (ev.size() < cands.size() + 1) {
      ev.emplace_back();
      CUDA_CHECK(cudaEventCreate(&ev.back()));
    }
    CUDA_CHECK(cudaEventRecord(ev[0], stream));
    for (std::size_t i = 0; i < cands.size(); ++i) {
      launch(cands[i], l);
      CUDA_CHECK(cudaEventRecord(ev[i + 1], stream));
    }
    calibration_launches += ll(cands.size());
    for (ll k = 1; k <= ahead; ++k) {
      launch(cal.current(), l + k);
      cal.pass();
    }
    CUDA_CHECK(cudaEventSynchronize(ev[cands.size()]));
    std::vector<double> secs(cands.size());
    for (std::size_t i = 0; i < cands.size(); ++i) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, ev[i], ev[i + 1]));
      secs[i] = double(ms) * 1e-3;
      // Table I per diagonal: each candidate's time at this l (series runs only).
      ctx.series("calibrate_s:" + to_string(cands[i]), std::size_t(l), secs[i]);
    }
    cal.record(l, secs, l + 1 + ahead);
  }

  // Diagonals 2..n: with `cal`, its choice (and its samples), else the ranges' settings.
  void run(const std::vector<Range>& ranges, Calibrator* cal) {
    auto ph = ctx.phase("compute");
    const bool series = ctx.series_wanted();
    constexpr int kBatch = 1024;
    std::vector<cudaEvent_t> ev, cal_ev;
    std::vector<Setting> used;  // per diagonal of the batch (series)
    if (series) {
      ev.resize(kBatch + 1);
      for (auto& e : ev) CUDA_CHECK(cudaEventCreate(&e));
    }
    ll batch_first = 2, next_check = kLaunchesPerCheck;
    auto flush = [&](ll last) {  // diagonals batch_first..last were timed into ev[0..]
      CUDA_CHECK(cudaEventSynchronize(ev[std::size_t(last - batch_first + 1)]));
      for (ll l = batch_first; l <= last; ++l) {
        float ms = 0;
        const auto i = std::size_t(l - batch_first);
        CUDA_CHECK(cudaEventElapsedTime(&ms, ev[i], ev[i + 1]));
        ctx.series("diagonal_time_s", std::size_t(l), double(ms) * 1e-3);
        ctx.series("kernel", std::size_t(l), double(int(used[i].kernel)));
        ctx.series("threads", std::size_t(l), double(used[i].threads));
      }
      used.clear();
    };
    for (ll l = 2; l <= n; ++l) {
      const auto i = std::size_t(l - batch_first);
      if (series && i == 0) CUDA_CHECK(cudaEventRecord(ev[0], stream));
      if (cal && cal->sample(l)) {
        // Series runs time every diagonal alone, so they wait without the look-ahead.
        const ll ahead = series ? 0 : std::min<ll>(cal->ahead(), n - l);
        sample(*cal, l, ahead, cal_ev);
        l += ahead;  // sample() launched them
      } else {
        launch(cal ? cal->current() : setting_for(ranges, l), l);
      }
      if (series) {
        used.push_back(cal ? cal->current() : setting_for(ranges, l));
        CUDA_CHECK(cudaEventRecord(ev[i + 1], stream));
        if (i + 1 == kBatch || l == n) {
          flush(l);
          batch_first = l + 1;
        }
      }
      if (l >= next_check) {
        next_check += kLaunchesPerCheck;
        CUDA_CHECK(cudaStreamSynchronize(stream));
        ctx.check_deadline();
      }
    }
    for (auto& e : ev) cudaEventDestroy(e);
    for (auto& e : cal_ev) cudaEventDestroy(e);
  }

  // The optimum is M[0][n]: its cell, or its 64-bit copy when it escaped.
  GpuAnswer finish() {
    const DiagSplit splits{split.get(), w};
    if (!wide.get())
      return walk_answer(splits, n, diag.get() + diag_offset(w, n), ctx, stream, launches);
    u64 count = 0;
    T top = 0;
    CUDA_CHECK(
        cudaMemcpyAsync(&count, escaped.get(), sizeof count, cudaMemcpyDeviceToHost, stream));
    if (n >= 1)
      CUDA_CHECK(cudaMemcpyAsync(&top, diag.get() + diag_offset(w, n), sizeof top,
                                 cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    ctx.set("escaped_cells", double(count));
    if (n >= 2 && top == T(kEscape))
      return walk_answer(splits, n, wide.get() + n, ctx, stream, launches);
    return walk_answer(splits, n, diag.get() + diag_offset(w, n), ctx, stream, launches);
  }
};

// The table used, as counters (calibrate: the one it chose; Table II comes from these) and
// as text in the log (what policy table accepts).
void report_ranges(const std::vector<Range>& ranges, Context& ctx) {
  ctx.set("ranges", double(ranges.size()));
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const std::string r = "range" + std::to_string(i) + "_";
    ctx.set(r + "from", double(ranges[i].from));
    ctx.set(r + "kernel", double(int(ranges[i].setting.kernel)));
    ctx.set(r + "threads", double(ranges[i].setting.threads));
    ctx.set(r + "blocks", double(ranges[i].setting.blocks));
  }
  ctx.log("gpu.mcm table: " + table_text(ranges));
}

template <class T>
GpuAnswer run_typed(const ::mcm::Instance& x, const McmConfig& cfg, Context& ctx) {
  std::vector<Range> ranges;
  if (cfg.policy == Policy::fixed) {
    ranges.push_back({2, -1, fixed_setting(cfg)});
  } else if (cfg.policy == Policy::table) {
    auto t = parse_table(cfg.table);
    if (!t.error.empty()) throw InputError("gpu.mcm: " + t.error);
    ranges = std::move(t.ranges);
  }
  Solve<T> s(x, max_parts(cfg, ranges), sizeof(T) == 4 && use_escape(x, cfg), ctx);
  std::optional<Calibrator> cal;
  if (cfg.policy == Policy::calibrate) cal.emplace(x.n(), cfg.budget);
  if (ranges.empty()) ranges.push_back({2, -1, Setting{}});
  s.run(ranges, cal ? &*cal : nullptr);
  GpuAnswer a = s.finish();
  ctx.set("cell_bits", 8.0 * sizeof(T));
  ctx.set("kernel_launches", double(s.launches));
  if (cal) {
    // Calibration is inside the solve's time: every timed launch computes a real diagonal.
    ctx.set("calibrated_diagonals", double(cal->samples()));
    ctx.set("calibration_launches", double(s.calibration_launches));
    ctx.set("calibration_timed_s", cal->timed_s());
    ctx.set("calibration_extra_s", cal->extra_s());
    ctx.set("calibration_flat_samples", double(cal->flat_samples()));
    if (!cal->used().empty()) ranges = cal->used();
  }
  report_ranges(ranges, ctx);
  return a;
}

}  // namespace

GpuAnswer solve_mcm(const ::mcm::Instance& x, const McmConfig& cfg, Context& ctx) {
  if (auto why = why_not(x, cfg); !why.empty()) throw InputError("gpu.mcm: refused: " + why);
  static_assert(::mcm::kMaxN < (std::int64_t{1} << 31) - 2, "splits are int32");
  return use_32_bits(cfg) ? run_typed<std::uint32_t>(x, cfg, ctx)
                          : run_typed<std::uint64_t>(x, cfg, ctx);
}

}  // namespace dpgpu::mcm_gpu
