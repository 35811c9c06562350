// folder_integrity.cpp — planned cases against records, journal against derived files
// (folder_integrity.hpp).
#include "verify/folder_integrity.hpp"

#include <fmt/format.h>

#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"

namespace dpgpu {

namespace fs = std::filesystem;

namespace {

using Ids = std::set<std::string>;

Ids case_ids(const std::vector<ClaimRow>& rows) {
  Ids out;
  for (const ClaimRow& r : rows)
    if (auto it = r.find("case_id"); it != r.end()) out.insert(it->second);
  return out;
}

// plan.json's cases: the shard's when it holds one, else the fingerprint's.
std::optional<Ids> planned_ids(const fs::path& dir) {
  const fs::path file = dir / "plan.json";
  if (!fs::exists(file)) return std::nullopt;
  nlohmann::json plan;
  try {
    plan = nlohmann::json::parse(read_whole_file(file));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not a JSON file: {}", file.string(), e.what()));
  }
  const nlohmann::json* cases = nullptr;
  if (plan.contains("shard") && plan["shard"].is_object() && plan["shard"].contains("cases"))
    cases = &plan["shard"]["cases"];
  else if (plan.contains("fingerprint") && plan["fingerprint"].contains("cases"))
    cases = &plan["fingerprint"]["cases"];
  if (!cases || !cases->is_array()) return std::nullopt;
  Ids out;
  for (auto& c : *cases)
    if (c.is_string()) out.insert(c.get<std::string>());
  return out;
}

// The filter of a reproduction's experiment: reproduce runs it in-process (its command line
// is reproduce's), and records each experiment's filter in the reproduction's seeds.json.
std::optional<std::string> reproduction_filter(const fs::path& dir, const std::string& name) {
  const fs::path here = dir.has_filename() ? dir : dir.parent_path();  // "a/b/" is folder b
  const fs::path file = here.parent_path() / "seeds.json";
  if (name.empty() || !fs::exists(file)) return std::nullopt;
  const auto seeds = nlohmann::json::parse(read_whole_file(file), nullptr, false);
  if (!seeds.is_object() || !seeds.contains("experiments")) return std::nullopt;
  const auto& e = seeds["experiments"];
  if (!e.is_object() || !e.contains(name) || !e[name].is_object()) return std::nullopt;
  const auto filter = e[name].value("filter", nlohmann::json());
  if (!filter.is_string() || filter.get<std::string>().empty()) return std::nullopt;
  return filter.get<std::string>();
}

// The --filter of the run that wrote the folder, if any: a filtered run plans every case of
// its experiment but runs only those the filter matches. context.json's "filter" (written by
// runs since it was added), else its command line's --filter, else a reproduction's record.
std::optional<std::string> run_filter(const fs::path& dir) {
  const fs::path file = dir / "context.json";
  if (!fs::exists(file)) return std::nullopt;
  auto context = nlohmann::json::parse(read_whole_file(file), nullptr, false);
  if (!context.is_object()) return std::nullopt;
  if (context.contains("filter") && context["filter"].is_string())
    return context["filter"].get<std::string>();
  if (context.contains("host") && context["host"].is_object()) {
    const auto& line = context["host"].value("command_line", nlohmann::json());
    for (std::size_t i = 0; line.is_array() && i + 1 < line.size(); ++i)
      if (line[i] == "--filter" && line[i + 1].is_string()) return line[i + 1].get<std::string>();
  }
  return reproduction_filter(dir, context.value("experiment", std::string()));
}

// The planned cases the run was asked to run: those its --filter matches (as dpgpu run
// matches them, a regex search in the case id).
Ids expected_ids(const fs::path& dir, Ids planned) {
  const auto filter = run_filter(dir);
  if (!filter) return planned;
  try {
    const std::regex re(*filter);
    for (auto it = planned.begin(); it != planned.end();)
      it = std::regex_search(*it, re) ? std::next(it) : planned.erase(it);
  } catch (const std::regex_error&) {
  }
  return planned;
}

// journal.jsonl's cases (an unreadable line, as the journal's reader, loses only itself).
std::optional<Ids> journal_ids(const fs::path& dir) {
  const fs::path file = dir / "journal.jsonl";
  if (!fs::exists(file)) return std::nullopt;
  std::istringstream in(read_whole_file(file));
  Ids out;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("case_id") && j["case_id"].is_string())
      out.insert(j["case_id"].get<std::string>());
  }
  return out;
}

// "N of M <what>: a, b, c (and K more)".
std::string listed(const Ids& missing, std::size_t of, const std::string& what) {
  std::vector<std::string> some(missing.begin(), missing.end());
  const std::size_t shown = std::min<std::size_t>(3, some.size());
  return fmt::format("{} of {} {}: {}{}", missing.size(), of, what,
                     fmt::join(some.begin(), some.begin() + long(shown), ", "),
                     some.size() > shown ? fmt::format(" (and {} more)", some.size() - shown) : "");
}

Ids minus(const Ids& a, const Ids& b) {
  Ids out;
  for (auto& x : a)
    if (!b.count(x)) out.insert(x);
  return out;
}

}  // namespace

std::vector<std::string> folder_problems(const fs::path& dir, const std::vector<ClaimRow>& summary,
                                         const std::vector<ClaimRow>& runs) {
  std::vector<std::string> out;
  const Ids have = case_ids(summary);
  if (auto planned = planned_ids(dir)) {
    const Ids expected = expected_ids(dir, *planned);
    if (Ids m = minus(expected, have); !m.empty())
      out.push_back(listed(m, expected.size(),
                           "planned cases (plan.json) have no row in summary.csv (a run cut "
                           "short, or rows removed)"));
    if (Ids extra = minus(have, *planned); !extra.empty())
      out.push_back(listed(extra, have.size(), "summary.csv cases are not in plan.json"));
  }
  if (auto journal = journal_ids(dir)) {
    if (Ids m = minus(*journal, have); !m.empty())
      out.push_back(listed(m, journal->size(),
                           "cases of journal.jsonl are missing from summary.csv (stale: rebuild "
                           "it with dpgpu report)"));
    if (Ids extra = minus(have, *journal); !extra.empty())
      out.push_back(listed(extra, have.size(), "summary.csv cases are not in journal.jsonl"));
  }
  if (fs::exists(dir / "runs.csv")) {
    const Ids ran = case_ids(runs);
    if (Ids m = minus(ran, have); !m.empty())
      out.push_back(listed(m, ran.size(), "cases of runs.csv are missing from summary.csv"));
    if (Ids extra = minus(have, ran); !extra.empty())
      out.push_back(listed(extra, have.size(), "summary.csv cases have no row in runs.csv"));
  }
  return out;
}

}  // namespace dpgpu
