#include "scale/merge.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "report/reporter.hpp"
#include "results/counter_declarations.hpp"
#include "results/folder_lock.hpp"
#include "results/results_folder.hpp"
#include "plan/shard.hpp"
#include "results/tally.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

// At most this many case ids are named in a message; the rest are counted.
constexpr std::size_t kNamed = 5;

std::string named(const std::vector<std::string>& ids) {
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < ids.size() && i < kNamed; ++i) shown.push_back("'" + ids[i] + "'");
  return fmt::format("{}{}", fmt::join(shown, ", "),
                     ids.size() > kNamed ? fmt::format(" and {} more", ids.size() - kNamed) : "");
}

nlohmann::json read_json(const fs::path& path) {
  try {
    return nlohmann::json::parse(read_whole_file(path));
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: unreadable ({})", path.string(), e.what()));
  }
}

// One input folder, locked against a run writing into it while it is read.
struct Input {
  fs::path dir;
  nlohmann::json plan, context;               // plan.json; context.json or null
  std::optional<Shard> shard;                 // plan.json's "shard", when the folder holds one
  std::map<std::string, CaseRecord> records;  // the latest record of each case id
  int lock_fd = -1;

  explicit Input(fs::path d) : dir(std::move(d)) {
    if (!fs::is_directory(dir))
      throw InputError(fmt::format("merge: {} is not a folder", dir.string()));
    if (!fs::exists(dir / kPlanFile))
      throw InputError(fmt::format("merge: {} is not a results folder of dpgpu run (it has no {})",
                                   dir.string(), kPlanFile));
    lock_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
      if (lock_fd >= 0) ::close(lock_fd);
      std::string holder;
      if (fs::exists(dir / kHolderFile)) holder = read_whole_file(dir / kHolderFile);
      while (!holder.empty() && holder.back() == '\n') holder.pop_back();
      // The lock's true holder (folder_lock.hpp): a run, or a reader such as dpgpu plot.
      const FlockHolder lock = flock_holder(dir);
      const std::string who = holder_kind(holder, lock) == HolderKind::Run
                                  ? "a dpgpu run (" + holder + ")"
                                  : holder_text(lock);
      throw InputError(
          fmt::format("merge: {} is in use by {}; merge once it has finished", dir.string(), who));
    }
    plan = read_json(dir / kPlanFile);
    if (!plan.contains("fingerprint"))
      throw InputError(
          fmt::format("merge: {}: no fingerprint (an older dpgpu?)", (dir / kPlanFile).string()));
    if (plan.contains("shard") && !plan["shard"].is_null())
      shard = Shard{plan["shard"].value("index", -1), plan["shard"].value("count", -1)};
    if (fs::exists(dir / "context.json")) context = read_json(dir / "context.json");
    if (fs::exists(dir / kJournalFile)) {
      Journal journal = read_journal(dir / kJournalFile);
      std::size_t duplicates = 0;
      records = latest_records(journal, &duplicates);
      if (journal.damaged() || duplicates)
        std::cerr << fmt::format(
            "warning: merge: {}: {} left out; its {} readable records are merged\n",
            (dir / kJournalFile).string(), journal_damage_words(journal, duplicates),
            records.size());
    }
  }
  ~Input() {
    if (lock_fd >= 0) ::close(lock_fd);
  }
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  const nlohmann::json& fingerprint() const { return plan.at("fingerprint"); }
  std::string words() const {
    return shard ? fmt::format("{} (shard {})", dir.string(), shard->str()) : dir.string();
  }
  // What contexts/ calls its context.json.
  std::string context_name() const {
    return shard ? shard->folder_name() : fs::absolute(dir).lexically_normal().filename().string();
  }
};

// The missing cases in words: per shard folder, those of its own cases it lacks (and how to
// finish it); shards with no folder; then the rest.
std::string missing_report(const std::vector<std::unique_ptr<Input>>& inputs,
                           const std::vector<std::string>& missing_ids,
                           const std::string& experiment_file) {
  const std::set<std::string> missing(missing_ids.begin(), missing_ids.end());
  std::vector<std::string> lines;
  std::set<std::string> explained;
  std::set<int> counts, given;
  bool all_sharded = true;
  for (auto& in : inputs) {
    if (!in->shard) {
      all_sharded = false;
      continue;
    }
    counts.insert(in->shard->count);
    given.insert(in->shard->index);
    std::vector<std::string> lacks;
    const auto& ids = in->plan["shard"].value("cases", nlohmann::json::array());
    for (auto& id : ids)
      if (missing.count(id.get<std::string>())) lacks.push_back(id), explained.insert(id);
    if (!lacks.empty())
      lines.push_back(
          fmt::format("  {} lacks {} of its {} cases ({}); finish it with: dpgpu run {} --shard {} "
                      "--out {} --resume",
                      in->words(), lacks.size(), ids.size(), named(lacks), experiment_file,
                      in->shard->str(), in->dir.string()));
  }
  std::vector<std::string> rest;
  for (auto& id : missing_ids)
    if (!explained.count(id)) rest.push_back(id);
  if (all_sharded && counts.size() == 1 && !rest.empty()) {
    const int n = *counts.begin();
    std::vector<std::string> absent;
    for (int k = 0; k < n; ++k)
      if (!given.count(k)) absent.push_back(Shard{k, n}.str());
    if (!absent.empty())
      lines.push_back(fmt::format("  no folder was given for shard{} {}: {} cases ({})",
                                  absent.size() > 1 ? "s" : "", fmt::join(absent, ", "),
                                  rest.size(), named(rest)));
    else
      lines.push_back(
          fmt::format("  {} cases are in no shard folder ({})", rest.size(), named(rest)));
  } else if (!rest.empty()) {
    lines.push_back(
        fmt::format("  {} cases are in none of the folders ({})", rest.size(), named(rest)));
  }
  return fmt::format("{}", fmt::join(lines, "\n"));
}

bool holds_anything(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir, ec) && fs::is_directory(dir, ec) && !fs::is_empty(dir, ec);
}

// The merged folder's context.json: the first shard's, spanning every shard's start and end,
// naming every folder merged and where its own context is kept.
nlohmann::json merged_context(const std::vector<std::unique_ptr<Input>>& inputs,
                              const std::vector<std::string>& names) {
  nlohmann::json context = nlohmann::json::object(), from = nlohmann::json::array();
  std::string start, end;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Input& in = *inputs[i];
    if (context.empty() && in.context.is_object()) context = in.context;
    nlohmann::json f{
        {"folder", fs::absolute(in.dir).lexically_normal().string()},
        {"shard", in.shard ? nlohmann::json(in.shard->str()) : nlohmann::json(nullptr)},
        {"cases", in.records.size()}};
    if (in.context.is_object()) {
      f["context"] = "contexts/" + names[i];
      f["host"] = in.context.value("host", nlohmann::json::object()).value("hostname", "");
      if (in.context.contains("gpu") && in.context["gpu"].is_object())
        f["gpu"] = in.context["gpu"].value("name", "");
      const std::string s = in.context.value("start", ""), e = in.context.value("end", "");
      if (!s.empty() && (start.empty() || s < start)) start = s;
      if (!e.empty() && e > end) end = e;
    }
    from.push_back(std::move(f));
  }
  context.erase("shard");
  context.erase("resumed_cases");
  if (!start.empty()) context["start"] = start;
  if (!end.empty()) context["end"] = end;
  context["merged_from"] = from;
  return context;
}

// Each folder once, locked; --into neither among them nor (with --fresh) around one.
std::vector<std::unique_ptr<Input>> open_inputs(const std::vector<fs::path>& dirs,
                                                const MergeOptions& opt) {
  const fs::path into = fs::weakly_canonical(opt.into);
  std::vector<std::unique_ptr<Input>> inputs;
  std::set<fs::path> seen;
  for (auto& d : dirs) {
    const fs::path canonical = fs::weakly_canonical(d);
    if (canonical == into)
      throw InputError(fmt::format("merge: --into {} is one of the folders to merge", d.string()));
    const auto [end, ignored] =
        std::mismatch(into.begin(), into.end(), canonical.begin(), canonical.end());
    if (opt.fresh && end == into.end())
      throw InputError(fmt::format(
          "merge: {} is inside --into {}, which --fresh would move aside: merge into another "
          "folder",
          d.string(), opt.into.string()));
    if (!seen.insert(canonical).second)
      throw InputError(fmt::format("merge: {} is named twice", d.string()));
    inputs.push_back(std::make_unique<Input>(d));
  }
  return inputs;
}

// One plan: every folder's fingerprint is the first's.
void check_one_plan(const std::vector<std::unique_ptr<Input>>& inputs) {
  const Input& first = *inputs.front();
  for (auto& in : inputs)
    if (in->fingerprint() != first.fingerprint())
      throw InputError(fmt::format(
          "merge: {} and {} hold different plans: {}; merge only the shards of one experiment "
          "run with the same settings",
          first.words(), in->words(), plan_difference(first.fingerprint(), in->fingerprint())));
}

// Each case once: the folder that holds it.
std::map<std::string, const Input*> case_owners(const std::vector<std::unique_ptr<Input>>& inputs) {
  std::map<std::string, const Input*> owner;
  std::vector<std::string> duplicated;
  for (auto& in : inputs)
    for (auto& [id, rec] : in->records)
      if (auto [it, fresh] = owner.emplace(id, in.get()); !fresh)
        duplicated.push_back(fmt::format("  '{}' ({} repetitions) is in {} and in {}", id,
                                         rec.result.reps.size(), it->second->words(), in->words()));
  if (!duplicated.empty()) {
    if (duplicated.size() > kNamed) {
      const std::size_t more = duplicated.size() - kNamed;
      duplicated.resize(kNamed);
      duplicated.push_back(fmt::format("  and {} more", more));
    }
    throw InputError(fmt::format(
        "merge: cases recorded in two folders, so the merge cannot choose (were shards of "
        "different N merged, or one folder named under two names?):\n{}",
        fmt::join(duplicated, "\n")));
  }
  return owner;
}

// The plan as far as the folder needs it: its ids, fingerprint and experiment file.
RunPlan folder_plan(const Input& first, const std::vector<std::string>& plan_ids,
                    const std::string& experiment_file) {
  const nlohmann::json& fingerprint = first.fingerprint();
  RunPlan plan;
  plan.file = experiment_file;
  Experiment shared;
  shared.name = fingerprint.value("experiment", "");
  if (fs::exists(first.dir / "experiment.yaml"))
    shared.source_text = read_whole_file(first.dir / "experiment.yaml");
  plan.parts.push_back(std::move(shared));
  for (auto& id : plan_ids) plan.cases.emplace_back().id = id;
  plan.fingerprint = fingerprint;
  plan.fingerprint_hash = first.plan.value("hash", "");
  return plan;
}

// Every folder's context.json kept under contexts/ (one name each), and the merged one.
nlohmann::json write_contexts(const std::vector<std::unique_ptr<Input>>& inputs,
                              const fs::path& into) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (auto& in : inputs) {
    std::string name = in->context_name();
    for (int i = 2; !taken.insert(name).second; ++i)
      name = fmt::format("{}-{}", in->context_name(), i);
    names.push_back(name + ".json");
  }
  fs::create_directories(into / "contexts");
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i]->context.is_object())
      write_file_atomically(into / "contexts" / names[i], inputs[i]->context.dump(2) + "\n");
  nlohmann::json context = merged_context(inputs, names);
  write_file_atomically(into / "context.json", context.dump(2) + "\n");
  std::vector<fs::path> dirs;
  for (auto& in : inputs) dirs.push_back(in->dir);
  if (nlohmann::json counters = merged_counter_declarations(dirs); !counters.is_null())
    write_file_atomically(into / kCountersFile, counters.dump(1) + "\n");
  return context;
}

}  // namespace

int merge_results(const std::vector<fs::path>& dirs, const MergeOptions& opt) {
  if (dirs.empty()) throw InputError("merge: name the results folders to merge");
  if (opt.into.empty()) throw InputError("merge: --into DIR is required (a new or empty folder)");
  const std::vector<std::unique_ptr<Input>> inputs = open_inputs(dirs, opt);
  check_one_plan(inputs);
  const Input& first = *inputs.front();
  const nlohmann::json& fingerprint = first.fingerprint();
  std::vector<std::string> plan_ids;
  for (auto& id : fingerprint.at("cases")) plan_ids.push_back(id);
  const std::map<std::string, const Input*> owner = case_owners(inputs);
  std::vector<std::string> missing;  // in plan order
  for (auto& id : plan_ids)
    if (!owner.count(id)) missing.push_back(id);
  const std::string experiment_file = first.plan.value("experiment_file", "FILE");
  if (!missing.empty() && !opt.allow_partial)
    throw InputError(fmt::format(
        "merge: {} of the plan's {} cases are missing, nothing was written:\n{}\n(or merge "
        "what there is with --allow-partial)",
        missing.size(), plan_ids.size(), missing_report(inputs, missing, experiment_file)));
  if (holds_anything(opt.into) && !opt.fresh)
    throw InputError(fmt::format(
        "merge: {} is not empty; merge writes a new folder: choose another --into, or add "
        "--fresh to move what it holds to previous-<time>/ inside it",
        opt.into.string()));

  const RunPlan plan = folder_plan(first, plan_ids, experiment_file);
  ResultsFolder folder(opt.into, plan, {.fresh = opt.fresh});
  if (!folder.moved_aside().empty())
    std::cerr << "old contents moved to " << folder.moved_aside().string() << "\n";
  for (auto& id : plan_ids)
    if (auto it = owner.find(id); it != owner.end()) folder.commit(it->second->records.at(id));
  folder.sync();
  const nlohmann::json context = write_contexts(inputs, opt.into);

  bool metrics = false;
  for (auto& in : inputs) metrics = metrics || fs::exists(in->dir / "metrics.csv");
  const Records records = folder.in_plan_order(plan);
  for (auto& r : output_reporters(opt.into, context, metrics, fingerprint.value("series", false)))
    r->rebuild(records);

  std::cerr << fmt::format("merged {} folders into {}\n", inputs.size(), opt.into.string());
  if (!missing.empty())
    std::cerr << fmt::format(
        "warning: a partial merge: {} of the plan's {} cases are missing:\n{}\nthe merged folder "
        "can be completed with: dpgpu run {} --out {} --resume\n",
        missing.size(), plan_ids.size(), missing_report(inputs, missing, experiment_file),
        experiment_file, opt.into.string());
  return tally(plan.name(), records, plan_ids.size(), "", opt.into.string());
}

}  // namespace dpgpu
