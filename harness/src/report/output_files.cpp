// The files every results folder holds besides its journal, in one place, so `dpgpu run`
// and `dpgpu merge` write the same ones from the same records.
#include "report/reporter.hpp"

namespace dpgpu {

std::vector<std::unique_ptr<Reporter>> output_reporters(const std::filesystem::path& dir,
                                                        const nlohmann::json& context, bool metrics,
                                                        bool series) {
  std::vector<std::unique_ptr<Reporter>> files;
  files.push_back(csv_reporter(dir));
  files.push_back(summary_reporter(dir));
  const nlohmann::json host = context.value("host", nlohmann::json::object());
  nlohmann::json bench_context{
      {"date", context.value("start", "")},
      {"host_name", host.value("hostname", "")},
      {"executable", std::filesystem::read_symlink("/proc/self/exe").string()},
      {"num_cpus", host.value("cores", 0)},
      {"mhz_per_cpu", 0},
      {"cpu_scaling_enabled", false},
      {"caches", nlohmann::json::array()},
      {"library_build_type", "release"},
      {"dpgpu_experiment", context.value("experiment", "")}};
  files.push_back(benchmark_json_reporter(dir, bench_context));
  if (metrics) files.push_back(metrics_reporter(dir));
  if (series) files.push_back(series_reporter(dir));
  return files;
}

}  // namespace dpgpu
