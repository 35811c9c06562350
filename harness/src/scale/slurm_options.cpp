#include "scale/slurm_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <vector>

#include "dpgpu/error.hpp"

namespace dpgpu {

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

// A count of at most 6 digits (no GPU node has a million cards; stoi cannot overflow).
int positive_count(const std::string& option, const std::string& value, const std::string& count) {
  if (!all_digits(count) || count.size() > 6 || std::stoi(count) < 1)
    throw InputError(
        fmt::format("{} '{}': the count '{}' must be a whole number from 1", option, value, count));
  return std::stoi(count);
}

// A gres or GPU type name (a100, h100_80gb, nvidia-h100), never a bare or signed number.
bool is_type(const std::string& s) {
  static const std::regex type("[A-Za-z][A-Za-z0-9_.\\-]*");
  return std::regex_match(s, type);
}

// One --gres item, name[:type][:count] (count 1 when left out); returns its count when the
// name is gpu, else 0.
int gres_item_gpus(const std::string& gres, const std::string& item) {
  static const std::regex name("[A-Za-z][A-Za-z0-9_]*");
  const auto fields = split(item, ':');
  const std::string form =
      "expected name[:type][:count] items separated by commas, e.g. gpu:1 or gpu:a100:2";
  if (fields.size() > 3 || !std::regex_match(fields[0], name))
    throw InputError(fmt::format("--gres '{}': '{}' is not a resource; {}", gres, item, form));
  std::string count = "1";  // gpu, gpu:a100
  if (fields.size() == 3) count = fields[2];
  if (fields.size() == 2 && all_digits(fields[1])) count = fields[1];
  if (fields.size() == 3 || (fields.size() == 2 && !all_digits(fields[1])))
    if (!is_type(fields[1]))
      throw InputError(fmt::format("--gres '{}': '{}' is not a resource; {}", gres, item, form));
  const int n = positive_count("--gres", gres, count);
  return fields[0] == "gpu" ? n : 0;
}

}  // namespace

void check_slurm_time(const std::string& time) {
  // sbatch's forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. The leading field of a form without
  // days is unbounded (90 minutes, 48:00:00); the others are bounded, so 1:75 is a typo.
  static const std::regex form("(?:(\\d{1,6})-)?(\\d{1,6})(?::(\\d{1,6}))?(?::(\\d{1,6}))?");
  const std::string expected =
      "expected minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (e.g. 90, 2:00:00, 1-12), or "
      "UNLIMITED";
  std::string lower = time;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (lower == "infinite" || lower == "unlimited") return;
  std::smatch m;
  if (!std::regex_match(time, m, form) || (m[4].matched && !m[3].matched))
    throw InputError(fmt::format("--time '{}': {}", time, expected));
  const bool days = m[1].matched;
  std::vector<long> fields;
  for (int i = 2; i <= 4; ++i)
    if (m[i].matched) fields.push_back(std::stol(m[i].str()));
  static const char* const plain[3][3] = {
      {"minutes"}, {"minutes", "seconds"}, {"hours", "minutes", "seconds"}};
  static const char* const with_days[3][3] = {
      {"hours"}, {"hours", "minutes"}, {"hours", "minutes", "seconds"}};
  const auto& names = days ? with_days[fields.size() - 1] : plain[fields.size() - 1];
  long total = days ? std::stol(m[1].str()) : 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string field = names[i];
    const long limit = field == "hours" ? 24 : 60;
    if ((i > 0 || days) && fields[i] >= limit)
      throw InputError(
          fmt::format("--time '{}': {} must be below {}; {}", time, field, limit, expected));
    total += fields[i];
  }
  if (total == 0)
    throw InputError(
        fmt::format("--time '{}': a limit of zero; give the time one shard may take", time));
}

void check_slurm_name(const std::string& option, const std::string& value) {
  static const std::regex list("[A-Za-z0-9_.\\-]+(,[A-Za-z0-9_.\\-]+)*");
  if (!std::regex_match(value, list))
    throw InputError(fmt::format(
        "{} '{}': expected a name (letters, digits, '_', '.', '-'; a list separated by commas)",
        option, value));
}

int gpus_per_task(const SlurmResources& r) {
  int from_gres = 0;
  if (!r.gres.empty())
    for (const std::string& item : split(r.gres, ',')) from_gres += gres_item_gpus(r.gres, item);
  int from_option = 0;
  if (!r.gpus_per_task.empty()) {
    const auto fields = split(r.gpus_per_task, ':');
    if (fields.size() > 2 || (fields.size() == 2 && !is_type(fields[0])))
      throw InputError(fmt::format("--gpus-per-task '{}': expected [type:]count, e.g. 2 or a100:2",
                                   r.gpus_per_task));
    from_option = positive_count("--gpus-per-task", r.gpus_per_task, fields.back());
  }
  if (from_gres > 0 && from_option > 0)
    throw InputError(
        fmt::format("--gres '{}' and --gpus-per-task '{}' both ask for GPUs; give one of them",
                    r.gres, r.gpus_per_task));
  return from_gres + from_option;
}

int check_slurm_resources(const SlurmResources& r) {
  if (!r.partition.empty()) check_slurm_name("--partition", r.partition);
  if (!r.account.empty()) check_slurm_name("--account", r.account);
  if (!r.time.empty()) check_slurm_time(r.time);
  const int gpus = gpus_per_task(r);
  if (r.cpus_per_task < 0)
    throw InputError(fmt::format("--cpus-per-task {}: must be 1 or more", r.cpus_per_task));
  if (r.max_running < 0)
    throw InputError(fmt::format("--max-running {}: must be 1 or more", r.max_running));
  return gpus;
}

void check_run_gpus(const std::string& spec, int task_gpus) {
  if (spec.empty()) return;
  if (task_gpus == 0)
    throw InputError(fmt::format(
        "--gpus {}: the tasks get no GPU; ask for them with --gres gpu:K (or --gpus-per-task K)",
        spec));
  if (spec == "all") return;
  for (const std::string& index : split(spec, ',')) {
    if (!all_digits(index) || index.size() > 6)
      throw InputError(fmt::format(
          "--gpus '{}': expected all or GPU indices separated by commas, e.g. 0,1", spec));
    if (std::stoi(index) >= task_gpus)
      throw InputError(fmt::format(
          "--gpus '{}': GPU {} is not among a task's {} GPU{} (indices count within the "
          "task's GPUs, from 0)",
          spec, index, task_gpus, task_gpus == 1 ? "" : "s"));
  }
}

std::string parse_sbatch_job_id(const std::string& output) {
  std::string line = output.substr(0, output.find('\n'));
  std::string id = line.substr(0, line.find(';'));
  if (!all_digits(id))
    throw InputError(fmt::format("sbatch --parsable printed '{}', not a job id", output));
  return id;
}

}  // namespace dpgpu
