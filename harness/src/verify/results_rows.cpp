// results_rows.cpp — reads a committed results folder for `dpgpu verify` (results_rows.hpp).
#include "verify/results_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "records/csv_table.hpp"
#include "verify/claims_pin.hpp"
#include "verify/folder_integrity.hpp"
#include "verify/summary_recheck.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

// A CSV file as rows keyed by the header; no file: no rows.
std::vector<ClaimRow> read_csv(const fs::path& file) {
  std::vector<ClaimRow> out;
  if (!fs::exists(file)) return out;
  std::vector<std::vector<std::string>> cells;
  try {
    cells = csv_parse(read_whole_file(file));
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: not a CSV file: {}", file.string(), e.what()));
  }
  if (cells.empty()) return out;
  const auto& header = cells.front();
  for (std::size_t i = 1; i < cells.size(); ++i) {
    if (cells[i].size() == 1 && cells[i][0].empty()) continue;
    if (cells[i].size() != header.size())
      throw InputError(fmt::format("{}: row {} has {} fields, the header {}", file.string(), i + 1,
                                   cells[i].size(), header.size()));
    ClaimRow row;
    for (std::size_t k = 0; k < header.size(); ++k) row[header[k]] = cells[i][k];
    out.push_back(std::move(row));
  }
  return out;
}

// Per case: known_optimum from runs.csv; per case and metric: min and max over kernels.
void join_runs_and_metrics(const fs::path& dir, std::vector<ClaimRow>& rows) {
  std::map<std::string, ClaimRow> extra;
  for (const ClaimRow& r : read_csv(dir / "runs.csv"))
    if (auto it = r.find("known_optimum"); it != r.end() && !it->second.empty())
      extra[r.at("case_id")]["known_optimum"] = it->second;
  for (const ClaimRow& m : read_csv(dir / "metrics.csv")) {
    if (m.count("status") && m.at("status") != "ok") continue;
    ClaimRow& e = extra[m.at("case_id")];
    const std::string base = "m." + m.at("metric");
    auto fold = [&](const std::string& column, const std::string& from, bool lower) {
      auto v = cell_number(m.count(from) ? m.at(from) : "");
      if (!v) return;
      auto old = cell_number(e[column]);
      if (!old || (lower ? *v < *old : *v > *old)) e[column] = fmt::format("{}", *v);
    };
    fold(base + ".min", "min", true);
    fold(base + ".max", "max", false);
    fold("profile_cost_x", "profile_cost_x", false);
    fold("profile_cost_case_x", "profile_cost_case_x", false);
  }
  for (ClaimRow& r : rows)
    if (auto it = extra.find(r["case_id"]); it != extra.end())
      for (auto& [k, v] : it->second)
        if (r[k].empty()) r[k] = v;
}

// The folder's context.json (an empty object where there is none).
nlohmann::json read_context(const fs::path& dir) {
  const fs::path file = dir / "context.json";
  if (!fs::exists(file)) return nlohmann::json::object();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_whole_file(file));
  } catch (const nlohmann::json::exception&) {
  }
  if (!j.is_object()) throw InputError(file.string() + ": not a JSON file");
  return j;
}

// context[key] (or context[key][sub]) when it is a string, else "".
std::string context_text(const nlohmann::json& context, const char* key,
                         const char* sub = nullptr) {
  const nlohmann::json j = sub ? context.value(key, nlohmann::json::object()) : context;
  const char* k = sub ? sub : key;
  return j.is_object() && j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}

// context.json's host core count (0: not recorded).
int context_cores(const nlohmann::json& context) {
  const auto host = context.value("host", nlohmann::json::object());
  const auto cores = host.is_object() ? host.value("cores", nlohmann::json()) : nlohmann::json();
  return cores.is_number_integer() ? cores.get<int>() : 0;
}

}  // namespace

fs::path committed_experiment(const fs::path& dir, const std::string& name) {
  for (fs::path p = fs::absolute(dir); !p.empty(); p = p.parent_path()) {
    const fs::path candidate = p / "experiments" / (name + ".yaml");
    if (fs::exists(candidate)) return candidate;
    if (p == p.parent_path()) break;
  }
  return {};
}

std::vector<ClaimRow> read_result_rows(const fs::path& dir) {
  std::vector<ClaimRow> rows = read_csv(dir / "summary.csv");
  join_runs_and_metrics(dir, rows);
  return rows;
}

FolderClaims read_folder_claims(const fs::path& dir, const fs::path& experiment_file) {
  if (!fs::is_directory(dir)) throw InputError(dir.string() + ": no such results folder");
  FolderClaims f;
  f.dir = dir;
  const nlohmann::json context = read_context(dir);
  f.experiment = context_text(context, "experiment");
  const fs::path pinned = dir / "experiment.yaml", pins = dir / kClaimsFile;
  if (f.experiment.empty() && fs::exists(pinned))
    f.experiment = read_claims_file(pinned.string()).name;
  f.device = context_text(context, "gpu", "name");
  if (f.device.empty()) f.device = context_text(context, "host", "cpu");
  f.cores = context_cores(context);
  f.claims_file = experiment_file;
  if (f.claims_file.empty() && fs::exists(pins)) f.claims_file = pins;
  if (f.claims_file.empty() && fs::exists(pinned)) f.claims_file = pinned;
  if (!f.claims_file.empty()) f.claims = read_claims_file(f.claims_file.string()).claims;
  if (f.claims_file == pins) f.not_checked = not_checked(pins);
  if (!f.experiment.empty()) f.committed = committed_experiment(dir, f.experiment);
  if (!f.committed.empty() && experiment_file.empty() && !f.claims_file.empty())
    f.drift = claims_drift(f.committed, f.claims_file);
  if (!fs::exists(dir / "summary.csv")) {
    if (!f.claims.empty())
      throw InputError(fmt::format("{}: has claims ({}) but no summary.csv to check them on",
                                   dir.string(), f.claims_file.string()));
    return f;
  }
  f.rows = read_result_rows(dir);
  f.runs = read_csv(dir / "runs.csv");
  f.problems = folder_problems(dir, f.rows, f.runs);
  if (auto bad = recheck_summary(dir, f.rows, f.runs); !bad.empty())
    f.problems.push_back(fmt::format(
        "{} summary.csv value(s) disagree with runs.csv (a claim on one fails there), e.g. {}",
        bad.size(), bad.front()));
  return f;
}

}  // namespace dpgpu
