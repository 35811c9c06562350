#include "profile/profiler_cupti.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <map>

#include "profile/profiler.hpp"

#if DPGPU_WITH_CUPTI
#include "device/cache_flush.hpp"
#include <cuda.h>  // types only: the driver is reached through the runtime (no libcuda link)
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <cstdio>
#include <stdexcept>
#include <thread>
#endif

namespace dpgpu {

std::string ncu_unit(const std::string& unit) {
  if (unit == "percent") return "%";
  std::string u = unit;
  for (auto [from, to] : {std::pair<const char*, const char*>{"instruction", "inst"},
                          {"gpc_cycle", "cycle"},
                          {"sm_cycle", "cycle"},
                          {"smsp_cycle", "cycle"}}) {
    for (auto at = u.find(from); at != std::string::npos;
         at = u.find(from, at + std::string(to).size()))
      u.replace(at, std::string(from).size(), to);
  }
  return u;
}

#if !DPGPU_WITH_CUPTI

bool cupti_built() { return false; }

std::vector<std::string> cupti_unknown_metrics(const std::vector<std::string>&,
                                               const std::string&) {
  return {};
}

void cupti_preload_start() {}
double cupti_preload_wait() { return 0; }

ProfileRecord profile_with_cupti(const ProfileRequest&, double, double, const ProfiledSolve&) {
  ProfileRecord p;
  p.backend = "cupti";
  p.unavailable = true;
  p.message = "dpgpu was built without CUPTI";
  return p;
}

#else

bool cupti_built() { return true; }

namespace {

// A failed CUPTI call, with the call's name and CUPTI's own word for the result.
struct CuptiError : std::runtime_error {
  CUptiResult code;
  CuptiError(const char* call, CUptiResult r) : std::runtime_error(describe(call, r)), code(r) {}
  CuptiError(const std::string& what, CUptiResult r) : std::runtime_error(what), code(r) {}
  static std::string describe(const char* call, CUptiResult r) {
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    return fmt::format("{}: {}", call, text ? text : std::to_string(int(r)));
  }
};

#define DPGPU_CUPTI(call)                                 \
  do {                                                    \
    CUptiResult r_ = (call);                              \
    if (r_ != CUPTI_SUCCESS) throw CuptiError(#call, r_); \
  } while (0)

// The profiler host object for one chip: metric names → config image, counter data → values.
class ProfilerHost {
 public:
  ProfilerHost(const std::string& chip, const std::vector<std::uint8_t>* availability) {
    CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = availability ? availability->data() : nullptr;
    DPGPU_CUPTI(cuptiProfilerHostInitialize(&p));
    host_ = p.pHostObject;
  }
  ~ProfilerHost() {
    CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&p);
  }
  ProfilerHost(const ProfilerHost&) = delete;
  ProfilerHost& operator=(const ProfilerHost&) = delete;

  // What CUPTI says of `metric` on this chip: `why` is empty when the chip knows it, else
  // CUPTI's reason; `unit` as ncu writes it.
  struct MetricProperties {
    std::string why, unit;
  };
  MetricProperties properties(const std::string& metric) const {
    CUpti_Profiler_Host_GetMetricProperties_Params p{
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    p.pHostObject = host_;
    p.pMetricName = metric.c_str();
    if (CUptiResult r = cuptiProfilerHostGetMetricProperties(&p); r != CUPTI_SUCCESS)
      return {CuptiError::describe("cuptiProfilerHostGetMetricProperties", r), ""};
    return {"", p.pDimUnit ? ncu_unit(p.pDimUnit) : ""};
  }

  std::vector<std::uint8_t> config_image(std::vector<const char*> metrics, std::size_t* passes) {
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host_;
    add.ppMetricNames = metrics.data();
    add.numMetrics = metrics.size();
    DPGPU_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));
    CUpti_Profiler_Host_GetConfigImageSize_Params size{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host_;
    DPGPU_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    std::vector<std::uint8_t> image(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params get{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    get.pHostObject = host_;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    DPGPU_CUPTI(cuptiProfilerHostGetConfigImage(&get));
    CUpti_Profiler_Host_GetNumOfPasses_Params n{
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    n.configImageSize = image.size();
    n.pConfigImage = image.data();
    DPGPU_CUPTI(cuptiProfilerHostGetNumOfPasses(&n));
    *passes = n.numOfPasses;
    return image;
  }

  void evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                std::vector<const char*> metrics, double* values) const {
    CUpti_Profiler_Host_EvaluateToGpuValues_Params p{
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    p.pHostObject = host_;
    p.pCounterDataImage = counter_data.data();
    p.counterDataImageSize = counter_data.size();
    p.rangeIndex = range;
    p.ppMetricNames = metrics.data();
    p.numMetrics = metrics.size();
    p.pMetricValues = values;
    DPGPU_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&p));
  }

 private:
  CUpti_Profiler_Host_Object* host_ = nullptr;
};

// The runtime's current context through the driver's entry point, so dpgpu needs no libcuda
// at link time (it runs on machines without a GPU driver).
CUcontext current_context() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaFree(nullptr) != cudaSuccess ||  // makes the runtime's context current
      cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      !fn)
    throw std::runtime_error("cannot reach cuCtxGetCurrent through the CUDA runtime");
  CUcontext ctx = nullptr;
  if (reinterpret_cast<CUresult (*)(CUcontext*)>(fn)(&ctx) != CUDA_SUCCESS || !ctx)
    throw std::runtime_error("no current CUDA context to profile");
  return ctx;
}

std::string demangled(const char* symbol) {
  if (!symbol) return "?";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(symbol, nullptr, nullptr, &status),
                                           std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(symbol);
}

// Stage times on stderr when DPGPU_CUPTI_TRACE is set (where the profiler's cost goes).
class Trace {
 public:
  Trace()
      : on_(std::getenv("DPGPU_CUPTI_TRACE") != nullptr), last_(std::chrono::steady_clock::now()) {}
  void operator()(const std::string& stage) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "cupti: %-28s %8.2f ms\n", stage.c_str(),
                 std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point last_;
};

// The range profiler on the current context, as a sink for sampled marks. Two ways:
// - Marks (Mode::Marks): user ranges and user replay. The solve runs once per counter pass;
//   each sampled mark is one range (Push before the launch, Pop after it, the device idle
//   around both), with the L2 and instruction caches emptied first when `flush`
//   (CacheFlush, as ncu's --cache-control all does before every pass). No memory is saved
//   or restored: each pass is a fresh solve, as in ncu's application replay.
// - Whole solve (Mode::WholeSolve, solvers that mark nothing): auto ranges, kernel replay,
//   each kernel of the solve one range.
// Kernel names come from CUPTI's launch callbacks. begin()/end() never throw (they run in a
// destructor inside the solver): the first error is kept and stops profiling.
class RangeSession : public LaunchMarkSink {
 public:
  enum class Mode { Marks, WholeSolve };

  RangeSession(const ProfileRequest& request, std::size_t max_ranges, Mode mode, Trace& trace)
      : request_(request), mode_(mode), trace_(trace) {
    try {
      start(max_ranges);
    } catch (...) {
      stop();  // the destructor of a half-built object does not run
      throw;
    }
  }
  ~RangeSession() override { stop(); }
  RangeSession(const RangeSession&) = delete;
  RangeSession& operator=(const RangeSession&) = delete;

  // One counter pass (Mode::Marks): true once CUPTI has every pass it needs.
  void begin_pass() {
    if (!error_.empty()) return;
    try {
      mark_ = 0;
      CUpti_RangeProfiler_Start_Params p{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = profiler_;
      DPGPU_CUPTI(cuptiRangeProfilerStart(&p));
      in_pass_ = true;
    } catch (const std::exception& e) {
      keep(e);
    }
  }
  bool end_pass() {
    if (!in_pass_) return true;
    in_pass_ = false;
    try {
      CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      stop.pRangeProfilerObject = profiler_;
      DPGPU_CUPTI(cuptiRangeProfilerStop(&stop));
      ++passes_run_;
      return stop.isAllPassSubmitted != 0;
    } catch (const std::exception& e) {
      keep(e);
      return true;
    }
  }

  void begin() override {
    if (!error_.empty() || active_) return;
    try {
      kernels_.clear();
      if (mode_ == Mode::WholeSolve) {
        begin_pass();
      } else {
        if (!in_pass_) return;
        idle();
        if (flush_) {
          flush_->run();
          idle();
        }
        CUpti_RangeProfiler_PushRange_Params p{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = profiler_;
        const std::string name = std::to_string(mark_);
        p.pRangeName = name.c_str();
        DPGPU_CUPTI(cuptiRangeProfilerPushRange(&p));
      }
      active_ = true;
    } catch (const std::exception& e) {
      keep(e);
    }
  }

  void end() override {
    if (!active_) return;
    active_ = false;
    try {
      if (mode_ == Mode::WholeSolve) {
        end_pass();
        collect(kernels_);
        return;
      }
      idle();
      CUpti_RangeProfiler_PopRange_Params p{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = profiler_;
      DPGPU_CUPTI(cuptiRangeProfilerPopRange(&p));
      // The first pass names the ranges: the mark's first kernel.
      if (passes_run_ == 0) mark_kernels_.push_back(kernels_.empty() ? "?" : kernels_.front());
      if (kernels_.size() > 1) ++multi_kernel_marks_;
      ++mark_;
    } catch (const std::exception& e) {
      keep(e);
    }
  }

  // Decodes the counters and adds every range to the per-kernel statistics (Mode::Marks).
  void finish() {
    if (!error_.empty()) return;
    try {
      collect(mark_kernels_);
    } catch (const std::exception& e) {
      keep(e);
    }
  }

  const std::string& error() const { return error_; }
  CUptiResult error_code() const { return error_code_; }
  std::size_t passes() const { return passes_; }
  std::size_t passes_run() const { return passes_run_; }
  std::size_t dropped() const { return dropped_; }
  std::size_t name_mismatches() const { return name_mismatches_; }
  std::size_t multi_kernel_marks() const { return multi_kernel_marks_; }

  std::vector<MetricRecord> stats() const {
    std::vector<MetricRecord> out;
    for (auto& [_, st] : stats_) {
      MetricRecord m = st;
      m.mean /= double(m.count);
      out.push_back(m);
    }
    return out;
  }

 private:
  // The host object for `chip`, the metrics' units and the config image (and pass count).
  void describe_metrics(const std::string& chip, const std::vector<std::uint8_t>* availability) {
    host_ = std::make_unique<ProfilerHost>(chip, availability);
    units_.clear();
    for (auto& m : request_.metrics) {
      auto props = host_->properties(m);
      if (!props.why.empty())
        throw CuptiError(fmt::format("{} does not know metric {} ({})", chip, m, props.why),
                         CUPTI_ERROR_INVALID_METRIC_NAME);
      units_.push_back(props.unit);
    }
    config_ = host_->config_image(metrics_, &passes_);
  }

  void start(std::size_t max_ranges) {
    for (auto& m : request_.metrics) metrics_.push_back(m.c_str());
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    DPGPU_CUPTI(cuptiProfilerInitialize(&init));
    const CUcontext ctx = current_context();
    int device = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    trace_("profiler initialized");

    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = std::size_t(device);
    DPGPU_CUPTI(cuptiDeviceGetChipName(&chip));
    make_config(chip.pChipName, ctx);
    trace_(fmt::format("config image, {} passes", passes_));
    enable_ranges(ctx, max_ranges);
    trace_("range profiler enabled");
    subscribe_to_launches();
    if (request_.flush_caches && mode_ == Mode::Marks) flush_ = std::make_unique<CacheFlush>();
    trace_("callbacks, flush buffer");
  }

  // The host object, the metrics' units and the config image for the chip.
  void make_config(const std::string& chip_name, CUcontext ctx) {
    // The counter-availability image costs ~85 ms a case on an H100 (its query ~140 ms, of
    // which some work moves into Enable and the first pass without it). CUPTI needs it for
    // chips newer than its release and to leave out counters that a MIG or vGPU slice lacks:
    // ask for it only when the host object or the config cannot be made without it.
    try {
      describe_metrics(chip_name, nullptr);
    } catch (const CuptiError& first) {
      if (first.code == CUPTI_ERROR_INVALID_METRIC_NAME) throw;
      try {
        CUpti_Profiler_GetCounterAvailability_Params avail{
            CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
        avail.ctx = ctx;
        DPGPU_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
        availability_.resize(avail.counterAvailabilityImageSize);
        avail.pCounterAvailabilityImage = availability_.data();
        DPGPU_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
        describe_metrics(chip_name, &availability_);
      } catch (const CuptiError& second) {
        throw CuptiError(fmt::format("{} (and without the counter-availability image: {})",
                                     second.what(), first.what()),
                         second.code);
      }
    }
  }

  // The range profiler on `ctx`, its counter data sized for max_ranges, the config set:
  // user ranges (the solver's marks) or one range per kernel.
  void enable_ranges(CUcontext ctx, std::size_t max_ranges) {
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    DPGPU_CUPTI(cuptiRangeProfilerEnable(&enable));
    profiler_ = enable.pRangeProfilerObject;

    CUpti_RangeProfiler_GetCounterDataSize_Params size{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = profiler_;
    size.pMetricNames = metrics_.data();
    size.numMetrics = metrics_.size();
    size.maxNumOfRanges = max_ranges;
    size.maxNumRangeTreeNodes = std::uint32_t(max_ranges);
    DPGPU_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
    counter_data_.resize(size.counterDataSize);
    reset_counter_data();

    CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = profiler_;
    set.configSize = config_.size();
    set.pConfig = config_.data();
    set.counterDataImageSize = counter_data_.size();
    set.pCounterDataImage = counter_data_.data();
    set.range = mode_ == Mode::Marks ? CUPTI_UserRange : CUPTI_AutoRange;
    set.replayMode = mode_ == Mode::Marks ? CUPTI_UserReplay : CUPTI_KernelReplay;
    set.maxRangesPerPass = max_ranges;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    DPGPU_CUPTI(cuptiRangeProfilerSetConfig(&set));
  }

  // on_api sees every kernel and graph launch, through the runtime and the driver API.
  void subscribe_to_launches() {
    DPGPU_CUPTI(cuptiSubscribe(&subscriber_, &RangeSession::on_api, this));
    for (CUpti_CallbackId id : {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
                                CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
                                CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
                                CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
                                CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000})
      DPGPU_CUPTI(cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API, id));
    for (CUpti_CallbackId id :
         {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
          CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
          CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
          CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
          CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
      DPGPU_CUPTI(cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id));
  }

  void stop() {
    if (subscriber_) cuptiUnsubscribe(subscriber_);
    subscriber_ = nullptr;
    if (profiler_) {
      CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = profiler_;
      cuptiRangeProfilerDisable(&p);
    }
    profiler_ = nullptr;
    flush_.reset();
  }

  static void check_cuda(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
      throw std::runtime_error(fmt::format("{}: {}", what, cudaGetErrorString(e)));
  }
  // Ranges are context-wide: nothing of the solver may run across a range's edge.
  static void idle() { check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

  // Launch callbacks: the kernel's name, once per launch (a runtime launch enters the driver
  // too; only the outermost call counts). A graph launch is named as one: its kernels make
  // one range.
  static void CUPTIAPI on_api(void* self_ptr, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                              const void* data) {
    auto* self = static_cast<RangeSession*>(self_ptr);
    auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (!self->active_) return;
    const bool graph = id == (domain == CUPTI_CB_DOMAIN_RUNTIME_API
                                  ? CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000
                                  : CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch) ||
                       id == (domain == CUPTI_CB_DOMAIN_RUNTIME_API
                                  ? CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000
                                  : CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz);
    auto name = [&] {
      return graph ? std::string("(CUDA graph launch)") : demangled(info->symbolName);
    };
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      if (info->callbackSite == CUPTI_API_ENTER) {
        if (self->runtime_depth_++ == 0) self->kernels_.push_back(name());
      } else {
        --self->runtime_depth_;
      }
    } else if (info->callbackSite == CUPTI_API_ENTER && self->runtime_depth_ == 0) {
      self->kernels_.push_back(name());
    }
  }

  // Decodes the counter data, evaluates every range (named by `names`, in order) and resets it.
  void collect(const std::vector<std::string>& names) {
    CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = profiler_;
    DPGPU_CUPTI(cuptiRangeProfilerDecodeData(&decode));
    dropped_ += decode.numOfRangeDropped;
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = counter_data_.data();
    info.counterDataImageSize = counter_data_.size();
    DPGPU_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
    std::vector<double> values(metrics_.size());
    for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
      host_->evaluate(counter_data_, r, metrics_, values.data());
      add(r < names.size() ? names[r] : "?", values);
    }
    if (info.numTotalRanges != names.size()) ++name_mismatches_;
    reset_counter_data();
    trace_(fmt::format("decoded {} ranges", info.numTotalRanges));
  }

  void reset_counter_data() {
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params p{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = profiler_;
    p.counterDataSize = counter_data_.size();
    p.pCounterData = counter_data_.data();
    DPGPU_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&p));
  }

  void add(const std::string& kernel, const std::vector<double>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double v = values[i];
      if (std::isnan(v)) continue;
      auto& st = stats_[{kernel, request_.names[i]}];
      if (st.count == 0)
        st = {kernel, request_.names[i], request_.metrics[i], units_[i], v, 0, v, 0};
      st.min = std::min(st.min, v);
      st.max = std::max(st.max, v);
      st.mean += v;
      ++st.count;
    }
  }

  void keep(const std::exception& e) {
    if (!error_.empty()) return;
    error_ = e.what();
    if (auto* c = dynamic_cast<const CuptiError*>(&e)) error_code_ = c->code;
  }

  const ProfileRequest& request_;
  Mode mode_;
  Trace& trace_;
  std::vector<const char*> metrics_;
  std::vector<std::string> units_;
  std::vector<std::uint8_t> availability_, config_, counter_data_;
  std::unique_ptr<ProfilerHost> host_;
  std::size_t passes_ = 0, passes_run_ = 0;
  CUpti_RangeProfiler_Object* profiler_ = nullptr;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::unique_ptr<CacheFlush> flush_;
  bool in_pass_ = false, active_ = false;
  int runtime_depth_ = 0;
  std::size_t mark_ = 0;                   // sampled marks so far in this pass
  std::vector<std::string> kernels_;       // launched in the current mark, in order
  std::vector<std::string> mark_kernels_;  // each sampled mark's kernel (first pass)
  std::map<std::pair<std::string, std::string>, MetricRecord> stats_;  // (kernel, metric)
  std::size_t dropped_ = 0, name_mismatches_ = 0, multi_kernel_marks_ = 0;
  std::string error_;
  CUptiResult error_code_ = CUPTI_SUCCESS;
};

// Whole-solve sessions (a solver that marks no launch) need room for all its kernels.
constexpr std::size_t kMaxRangesWholeSolve = 2000;
// More passes than any metric list here needs: a solver whose marks change between passes
// could otherwise loop.
constexpr std::size_t kMaxPasses = 64;

// Loads and initializes CUPTI's host library (libnvperf_host, about 0.2 s) on a thread of
// its own while the worker builds its instance, so the profile does not wait for it.
// Joined at exit too: a worker whose case never reaches its timed solves (a failed warm-up,
// an instance too large) must not end with the thread running (std::terminate).
struct PreloadThread {
  std::thread thread;
  ~PreloadThread() {
    if (thread.joinable()) thread.join();
  }
} preload;

// Room in the counter data: with marks, one range per sampled mark (and a few more, should a
// pass mark more); without, one per launch of the solve's first ones, as many as ncu's
// --launch-count takes (plan_profile), `sampling` saying so when that is not all of them.
std::size_t ranges_needed(const ProfilePlan& plan, double kernel_launches, double marked_launches,
                          std::string* sampling) {
  if (marked_launches > 0) {
    const auto stride = std::max<std::int64_t>(plan.stride, 1);
    return std::size_t((std::int64_t(marked_launches) + stride - 1) / stride) + 8;
  }
  const double first = plan.launch_count > 0
                           ? std::min<double>(double(plan.launch_count), kMaxRangesWholeSolve)
                           : double(kMaxRangesWholeSolve);
  if (kernel_launches > first)
    *sampling = fmt::format("first {} of {}", std::int64_t(first), std::int64_t(kernel_launches));
  return std::size_t(std::min<double>(std::max<double>(kernel_launches, 1), first));
}

}  // namespace

void cupti_preload_start() {
  if (preload.thread.joinable()) return;
  preload.thread = std::thread([] {
    try {
      ProfilerHost host("GH100", nullptr);
    } catch (const std::exception&) {
      // Loading failed: the profile will say why when it tries for real.
    }
  });
}

double cupti_preload_wait() {
  if (!preload.thread.joinable()) return 0;
  const auto t0 = std::chrono::steady_clock::now();
  preload.thread.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> cupti_unknown_metrics(const std::vector<std::string>& metrics,
                                               const std::string& chip) {
  std::vector<std::string> out;
  try {
    ProfilerHost host(chip, nullptr);
    for (auto& m : metrics)
      if (auto why = host.properties(m).why; !why.empty())
        out.push_back(fmt::format("{} ({})", m, why));
  } catch (const std::exception&) {
    // No host object for this chip: nothing can be said before the run.
  }
  return out;
}

ProfileRecord profile_with_cupti(const ProfileRequest& request, double kernel_launches,
                                 double marked_launches, const ProfiledSolve& solve) {
  ProfileRecord p;
  p.backend = "cupti";
  p.launches_total = kernel_launches > 0 ? kernel_launches : marked_launches;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Trace trace;
  // CUPTI's failure in the message: no permission to read counters comes with its fix.
  auto failure = [](const std::string& what, CUptiResult code) {
    const std::string cause = "CUPTI: " + what;
    return code == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? counter_permission_help(cause) : cause;
  };
  const ProfilePlan plan = plan_profile(request.max_launches, kernel_launches, marked_launches);
  const bool marks = marked_launches > 0;
  const std::uint64_t stride = std::uint64_t(std::max<std::int64_t>(plan.stride, 1));
  p.sampling = plan.sampling;
  const std::size_t max_ranges = ranges_needed(plan, kernel_launches, marked_launches, &p.sampling);
  try {
    RangeSession session(request, max_ranges,
                         marks ? RangeSession::Mode::Marks : RangeSession::Mode::WholeSolve, trace);
    std::string why;
    if (marks) {
      for (bool done = false; !done && why.empty() && session.error().empty();) {
        if (session.passes_run() >= kMaxPasses) {
          why = fmt::format("CUPTI asked for more than {} passes", kMaxPasses);
          break;
        }
        session.begin_pass();
        why = solve(&session, stride);
        done = session.end_pass();
        trace(fmt::format("pass {} (a solve)", session.passes_run()));
      }
      if (why.empty()) session.finish();
    } else {
      session.begin();
      why = solve(nullptr, 0);
      session.end();
    }
    p.wall_s = elapsed();
    if (!session.error().empty()) {
      p.unavailable = session.error_code() != CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
      p.message = failure(session.error(), session.error_code());
      return p;
    }
    if (!why.empty()) {
      p.message = "profiled solve: " + why;
      return p;
    }
    p.stats = session.stats();
    p.ok = !p.stats.empty();
    std::vector<std::string> notes;
    if (p.stats.empty()) notes.push_back("CUPTI profiled no kernel");
    // Without marks, the launches past the first max_ranges are dropped on purpose (sampling).
    const double beyond = marks ? 0 : std::max(0.0, kernel_launches - double(max_ranges));
    if (double(session.dropped()) > beyond)
      notes.push_back(fmt::format("{} ranges dropped", session.dropped()));
    if (session.name_mismatches() > 0) notes.push_back("the ranges did not match the marks");
    if (session.multi_kernel_marks() > 0)
      notes.push_back(fmt::format("{} marks launched several kernels (named by the first)",
                                  session.multi_kernel_marks()));
    p.message = fmt::format("{}", fmt::join(notes, "; "));
    trace(fmt::format("done: {} passes, {:.1f} ms in all", session.passes_run(), 1e3 * p.wall_s));
  } catch (const std::exception& e) {
    p.wall_s = elapsed();
    auto* c = dynamic_cast<const CuptiError*>(&e);
    const CUptiResult code = c ? c->code : CUPTI_SUCCESS;
    p.unavailable =
        code != CUPTI_ERROR_INSUFFICIENT_PRIVILEGES && code != CUPTI_ERROR_INVALID_METRIC_NAME;
    p.message = failure(e.what(), code);
  }
  return p;
}

#endif

}  // namespace dpgpu
