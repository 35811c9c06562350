#include "results/results_folder.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "records/csv_table.hpp"
#include "results/folder_lock.hpp"
#include "results/journal_line.hpp"
#include "results/journal_repair.hpp"
#include "dpgpu/error.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// This process's command line, for the holder file.
std::string own_command() {
  std::string raw = slurp("/proc/self/cmdline"), out;
  for (char c : raw) out += c == '\0' ? ' ' : c;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// previous-<yyyymmdd>-<hhmmss>[-k]: a folder dpgpu moved old results into.
bool moved_aside_by_dpgpu(const std::string& name) {
  static const std::regex form(R"(previous-\d{8}-\d{6}(-\d+)?)");
  return std::regex_match(name, form);
}

// Files that say a folder holds results of some run (journal-less ones from older dpgpu too).
bool holds_results(const fs::path& dir) {
  std::error_code ec;
  if (fs::file_size(dir / kJournalFile, ec) > 0 && !ec) return true;
  for (auto f : {"runs.csv", "summary.csv", "benchmark.json"})
    if (fs::exists(dir / f)) return true;
  return false;
}

// Anything but the holder file and the previous-<time>/ folders dpgpu itself moved aside
// (a user's previous-drafts/ is the user's).
bool holds_anything(const fs::path& dir) {
  std::error_code ec;
  for (auto& entry : fs::directory_iterator(dir, ec)) {
    auto name = entry.path().filename().string();
    if (name != kHolderFile && !moved_aside_by_dpgpu(name)) return true;
  }
  return false;
}

// A folder dpgpu made: its marker, or (older dpgpu) a plan.json holding a plan's fingerprint.
// A user's own plan.json, or a journal.jsonl alone, is not dpgpu's.
bool made_by_dpgpu(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / kMarkerFile, ec)) return true;
  if (!fs::is_regular_file(dir / kPlanFile, ec)) return false;
  try {
    const nlohmann::json plan = nlohmann::json::parse(slurp(dir / kPlanFile));
    return plan.is_object() && plan.contains("fingerprint") && plan["fingerprint"].is_object() &&
           plan["fingerprint"].contains("cases");
  } catch (const std::exception&) {
    return false;
  }
}

// benchmark.json as the only record of a folder's cases (the journal and the CSVs deleted):
// rebuilding would replace it with nothing, so the run is refused.
void refuse_last_copy(const fs::path& dir) {
  std::error_code ec;
  const auto journal_bytes = fs::file_size(dir / kJournalFile, ec);
  if ((!ec && journal_bytes > 0) || fs::exists(dir / "runs.csv") || fs::exists(dir / "summary.csv"))
    return;
  const std::set<std::string> ids = benchmark_case_ids(dir);
  if (ids.empty()) return;
  throw InputError(fmt::format(
      "{}: benchmark.json holds {} cases (e.g. '{}') and is their only record ({}, runs.csv and "
      "summary.csv are gone); a run here would rebuild it from the journal and lose them: copy "
      "it away first, or use --fresh to move it aside into previous-<time>/",
      dir.string(), ids.size(), *ids.begin(), kJournalFile));
}

// The measuring conditions the folder's cases were measured under (plan.json) are this run's,
// or the run is refused, saying which changed: one case id, one way of measuring it. Folders
// from before conditions were recorded are continued as they are.
void refuse_other_conditions(const fs::path& dir, const nlohmann::json& recorded,
                             const nlohmann::json& now) {
  const nlohmann::json then = recorded.value(kConditions, nlohmann::json());
  if (!then.is_object() || !now.is_object() || then == now) return;
  std::vector<std::string> changed;
  for (auto& [key, value] : now.items())
    if (then.value(key, nlohmann::json()) != value)
      changed.push_back(fmt::format("{}: {} recorded, {} now", key,
                                    then.value(key, nlohmann::json()).dump(), value.dump()));
  for (auto& [key, value] : then.items())
    if (!now.contains(key))
      changed.push_back(fmt::format("{}: {} recorded, unset now", key, value.dump()));
  throw InputError(fmt::format(
      "{} was measured under other conditions than this run's ({}): its cases and this run's "
      "would be measured differently under the same case ids; continue with the recorded "
      "settings (the experiment file's isolate:, the same --gpus and --cpu-workers, the same "
      "OMP_NUM_THREADS), or start fresh with --fresh (moves the old results to "
      "previous-<time>/) or another --out",
      dir.string(), fmt::join(changed, "; ")));
}

// A few of a folder's entries, for a message.
std::string some_entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::size_t count = 0;
  std::error_code ec;
  for (auto& entry : fs::directory_iterator(dir, ec))
    if (++count <= 4) names.push_back(entry.path().filename().string());
  return fmt::format("{}{}", fmt::join(names, ", "),
                     count > names.size() ? fmt::format(" and {} more", count - names.size()) : "");
}

// A folder below `dir` (three levels at most) that a running dpgpu holds (its flock), or empty.
fs::path folder_in_use_below(const fs::path& dir) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->is_symlink(ec) || !it->is_directory(ec)) continue;
    if (it.depth() >= 2) it.disable_recursion_pending();
    if (!fs::exists(it->path() / kHolderFile, ec)) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    const bool busy = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    ::close(fd);
    if (busy) return it->path();
  }
  return {};
}

// Removes the figures `dpgpu plot` drew (named in its manifest, figures/.dpgpu-figures),
// never another file; then the folder if that leaves it empty. True if any was removed.
bool remove_drawn_figures(const fs::path& figures) {
  std::error_code ec;
  if (!fs::exists(figures / kFiguresManifest, ec)) return false;
  bool removed = false;
  std::istringstream names(slurp(figures / kFiguresManifest));
  for (std::string name; std::getline(names, name);)
    if (!name.empty() && name.find('/') == std::string::npos && name != "." && name != "..")
      removed = fs::remove(figures / name, ec) || removed;
  fs::remove(figures / kFiguresManifest, ec);
  if (fs::is_empty(figures, ec)) fs::remove(figures, ec);
  return removed;
}

// Who holds a folder, from its holder file ("pid 12: dpgpu run ...").
std::string holder_of(const fs::path& dir) {
  std::string holder = slurp(dir / kHolderFile);
  while (!holder.empty() && holder.back() == '\n') holder.pop_back();
  return holder.empty() ? "holder unknown" : holder;
}

void write_all(int fd, const std::string& text, const fs::path& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw WriteError(fmt::format("cannot write {} ({} bytes): {}", path.string(), text.size(),
                                   std::strerror(errno)));
    done += std::size_t(n);
  }
}

}  // namespace

std::string timestamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

// Why the recorded plan is not this one, in words ("other repetitions: 5 recorded, 3 now").
std::string plan_difference(const nlohmann::json& old, const nlohmann::json& now) {
  std::vector<std::string> why;
  if (old.value("experiment", "") != now.value("experiment", ""))
    why.push_back(fmt::format("it holds experiment '{}', this is '{}'",
                              old.value("experiment", "?"), now.value("experiment", "?")));
  for (auto key :
       {"repetitions", "warmup", "max_repetitions", "max_noise", "timeout_s", "cold", "series"})
    if (old.value(key, nlohmann::json()) != now.value(key, nlohmann::json()))
      why.push_back(fmt::format("other {}: {} recorded, {} now", key,
                                old.value(key, nlohmann::json()).dump(),
                                now.value(key, nlohmann::json()).dump()));
  auto ids = [](const nlohmann::json& j) {
    std::set<std::string> s;
    for (auto& id : j.value("cases", nlohmann::json::array())) s.insert(id.get<std::string>());
    return s;
  };
  const auto a = ids(old), b = ids(now);
  std::vector<std::string> gone, added;
  for (auto& id : a)
    if (!b.count(id)) gone.push_back(id);
  for (auto& id : b)
    if (!a.count(id)) added.push_back(id);
  if (!gone.empty() || !added.empty())
    why.push_back(fmt::format(
        "other cases: {} recorded cases are not in this plan{}, {} cases of this plan are new{}",
        gone.size(), gone.empty() ? "" : " (e.g. '" + gone.front() + "')", added.size(),
        added.empty() ? "" : " (e.g. '" + added.front() + "')"));
  const nlohmann::json old_files = old.value("files", nlohmann::json::object()),
                       new_files = now.value("files", nlohmann::json::object());
  for (auto& [path, hash] : new_files.items())
    if (old_files.contains(path) && old_files[path] != hash)
      why.push_back(fmt::format(
          "instance file {} changed since its results were recorded (content hash {} then, {} now)",
          path, old_files[path].dump(), hash.dump()));
  for (auto& [path, hash] : new_files.items())
    if (old.contains("files") && !old_files.contains(path))
      why.push_back(
          fmt::format("instance file {} is not one the results were recorded from", path));
  if (!old.contains("files") && !new_files.empty())
    why.push_back(
        "the recorded plan has no content hashes of its instance files (an older dpgpu), so "
        "whether they "
        "changed cannot be told");
  if (why.empty() && old != now) why.push_back("the case order differs");
  return fmt::format("{}", fmt::join(why, "; "));
}

nlohmann::json without_case_order(nlohmann::json fingerprint) {
  // Cases are matched by id: solver lines reordered in the file continue the same plan.
  if (fingerprint.is_object() && fingerprint.contains("cases") && fingerprint["cases"].is_array())
    std::sort(fingerprint["cases"].begin(), fingerprint["cases"].end());
  return fingerprint;
}

void keep_earlier_runs(nlohmann::json& context, const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / "context.json", ec)) return;
  nlohmann::json old;
  try {
    old = nlohmann::json::parse(slurp(dir / "context.json"));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warning: %s: unreadable (%s); kept as context.unreadable.json\n",
                 (dir / "context.json").string().c_str(), e.what());
    fs::copy_file(dir / "context.json", dir / "context.unreadable.json",
                  fs::copy_options::overwrite_existing, ec);
    return;
  }
  if (!old.is_object()) return;
  nlohmann::json earlier = old.value("earlier_runs", nlohmann::json::array());
  if (!earlier.is_array()) earlier = nlohmann::json::array();
  old.erase("earlier_runs");
  earlier.push_back(std::move(old));
  context["earlier_runs"] = std::move(earlier);
}

nlohmann::json shard_json(const RunPlan& plan) {
  if (!plan.shard) return nullptr;
  nlohmann::json ids = nlohmann::json::array();
  for (std::size_t i : plan.shard_cases) ids.push_back(plan.cases[i].id);
  return {{"index", plan.shard->index}, {"count", plan.shard->count}, {"cases", ids}};
}

namespace {

// plan.json's "shard" as a Shard; nullopt for an unsharded plan.
std::optional<Shard> recorded_shard(const nlohmann::json& recorded) {
  const nlohmann::json shard = recorded.value("shard", nlohmann::json());
  if (!shard.is_object()) return std::nullopt;
  return Shard{shard.value("index", -1), shard.value("count", -1)};
}

std::string shard_words(const std::optional<Shard>& shard) {
  return shard ? "shard " + shard->str() : std::string("the whole plan (no --shard)");
}

}  // namespace

ResultsFolder::ResultsFolder(fs::path dir, const RunPlan& plan, const FolderOptions& opt)
    : dir_(std::move(dir)) {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    throw InputError(fmt::format("output folder {} is a file, not a folder", dir_.string()));
  if (fs::is_directory(dir_, ec) && holds_anything(dir_) && !made_by_dpgpu(dir_))
    throw InputError(fmt::format(
        "output folder {} holds files dpgpu did not write ({}); dpgpu writes only into a new "
        "or empty folder, or one it made: choose another --out",
        dir_.string(), some_entries(dir_)));
  if (!fs::exists(dir_, ec)) {
    fs::create_directories(dir_, ec);
    if (ec)
      throw InputError(
          fmt::format("cannot create output folder {}: {}", dir_.string(), ec.message()));
  }
  if (::access(dir_.c_str(), W_OK) != 0)
    throw InputError(
        fmt::format("output folder {} is not writable: {}", dir_.string(), std::strerror(errno)));
  lock();  // from here on, this run is the folder's only writer
  try {
    open_for(plan, opt);
  } catch (...) {
    // A refusal leaves the folder as it was; a write that failed (a full disk) leaves no
    // holder file naming this process once it is gone, and no temporary file.
    std::error_code ec;
    if (wrote_holder_) fs::remove(dir_ / kHolderFile, ec);
    remove_temporary_files();
    ::close(dir_fd_);
    dir_fd_ = -1;
    throw;
  }
}

void ResultsFolder::open_for(const RunPlan& plan, const FolderOptions& opt) {
  // May this run use what the folder holds? Refusals write nothing.
  filtered_ = opt.filtered;
  filter_ = opt.filter;
  if (opt.fresh)
    move_everything_aside();
  else if (holds_results(dir_))
    continue_in(plan, opt);
  else
    write_holder();
  if (filtered_ && token_.empty()) token_ = fmt::format("{}-{}", timestamp(), ::getpid());
  write_state(plan, opt.conditions);
}

void ResultsFolder::move_everything_aside() {
  if (const fs::path busy = folder_in_use_below(dir_); !busy.empty())
    throw InputError(fmt::format(
        "{} holds {}, in use by a running dpgpu ({}); --fresh would move it: wait for it to "
        "finish, or use another --out",
        dir_.string(), busy.string(), holder_of(busy)));
  write_holder();
  if (!holds_anything(dir_)) return;
  const fs::path aside = unused_name(dir_, "previous-", "");
  fs::create_directories(aside);
  for (auto& entry : fs::directory_iterator(dir_)) {
    auto name = entry.path().filename().string();
    if (name == kHolderFile || moved_aside_by_dpgpu(name)) continue;
    fs::rename(entry.path(), aside / name);
  }
  moved_aside_ = aside;
}

// plan.json as recorded; InputError when it is missing or unreadable.
static nlohmann::json recorded_plan(const fs::path& dir) {
  if (!fs::exists(dir / kPlanFile))
    throw InputError(
        fmt::format("{} holds results without a plan.json (an older dpgpu, or written by hand); "
                    "use --fresh to move them aside into previous-<time>/",
                    dir.string()));
  try {
    nlohmann::json recorded = nlohmann::json::parse(slurp(dir / kPlanFile));
    (void)recorded.at("fingerprint");
    return recorded;
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: unreadable ({}); use --fresh to move the old results aside",
                                 (dir / kPlanFile).string(), e.what()));
  }
}

void ResultsFolder::continue_in(const RunPlan& plan, const FolderOptions& opt) {
  const nlohmann::json recorded = recorded_plan(dir_);
  const nlohmann::json& old = recorded["fingerprint"];
  if (without_case_order(old) != without_case_order(plan.fingerprint))
    throw InputError(fmt::format(
        "{} holds results of another plan: {}; {}", dir_.string(),
        plan_difference(old, plan.fingerprint),
        opt.resume ? "--resume continues only the same experiment; use another --out, or "
                     "--fresh to move the old results aside"
                   : "use another --out, or --fresh to move the old results aside"));
  if (const std::optional<Shard> old_shard = recorded_shard(recorded); old_shard != plan.shard)
    throw InputError(
        fmt::format("{} holds {} of this experiment, this run is {}; use that folder with the same "
                    "--shard, another --out, or --fresh to move the old results aside",
                    dir_.string(), shard_words(old_shard), shard_words(plan.shard)));
  refuse_other_conditions(dir_, recorded, opt.conditions);
  refuse_last_copy(dir_);
  adopt_unfinished_filter(recorded, opt);
  if (!opt.resume && !opt.filtered)
    throw InputError(fmt::format(
        "{} already holds results of this experiment; use --resume to run the cases not yet "
        "done, --filter to rerun some cases, or --fresh to move the old results aside",
        dir_.string()));
  write_holder();
  load_journal(plan);
  keep_derived_ahead_of_journal();
}

// An unfinished --filter rerun (stopped by a signal or a kill) is continued by --resume,
// with its filter, so its cases are never half old and half new; another --filter first
// refuses.
void ResultsFolder::adopt_unfinished_filter(const nlohmann::json& recorded,
                                            const FolderOptions& opt) {
  const nlohmann::json pending = recorded.value(kUnfinishedFilter, nlohmann::json());
  if (!pending.is_object()) return;
  const std::string filter = pending.value("filter", ""), token = pending.value("token", "");
  if (opt.resume && (opt.filter.empty() || opt.filter == filter)) {
    filtered_ = true, filter_ = filter, token_ = token, adopted_filter_ = true;
    return;
  }
  if (opt.filtered && !opt.resume && opt.filter == filter) return;  // the same rerun, anew
  throw InputError(fmt::format(
      "{} holds an unfinished --filter '{}' rerun (stopped before every case it selects was "
      "measured again): continue it first with --resume (it keeps that filter), so no case "
      "is left half old and half new; or use --fresh to move the old results aside",
      dir_.string(), filter));
}

void ResultsFolder::write_state(const RunPlan& plan, const nlohmann::json& conditions) {
  nlohmann::json recorded{{"fingerprint", plan.fingerprint},
                          {"hash", plan.fingerprint_hash},
                          {"experiment_file", fs::absolute(plan.file).string()}};
  if (plan.shard) recorded["shard"] = shard_json(plan);
  if (!plan.sets.empty()) recorded["set"] = plan.sets;  // the --set flags the file ran with
  if (!conditions.is_null()) recorded[kConditions] = conditions;
  if (filtered_) recorded[kUnfinishedFilter] = {{"filter", filter_}, {"token", token_}};
  write_file_atomically(dir_ / kMarkerFile,
                        "a results folder of dpgpu run: dpgpu may write and move what it holds\n");
  write_file_atomically(dir_ / kPlanFile, recorded.dump(1) + "\n");
  write_file_atomically(dir_ / "experiment.yaml", plan.shared().source_text);
  const fs::path journal = dir_ / kJournalFile;
  journal_fd_ = ::open(journal.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (journal_fd_ < 0)
    throw std::runtime_error(
        fmt::format("cannot open {}: {}", journal.string(), std::strerror(errno)));
  if (records_.empty() && ::ftruncate(journal_fd_, 0) != 0)
    throw std::runtime_error(
        fmt::format("cannot truncate {}: {}", journal.string(), std::strerror(errno)));
  ::fsync(dir_fd_);
}

void ResultsFolder::finish_filter() {
  if (!filtered_) return;
  nlohmann::json recorded = nlohmann::json::parse(slurp(dir_ / kPlanFile));
  recorded.erase(kUnfinishedFilter);
  write_file_atomically(dir_ / kPlanFile, recorded.dump(1) + "\n");
}

void ResultsFolder::sync() {
  if (::fdatasync(journal_fd_) != 0)
    throw WriteError(
        fmt::format("cannot sync {}: {}", (dir_ / kJournalFile).string(), std::strerror(errno)));
  last_sync_ = std::chrono::steady_clock::now();
}

ResultsFolder::~ResultsFolder() {
  if (journal_fd_ >= 0) ::fdatasync(journal_fd_), ::close(journal_fd_);
  std::error_code ec;
  if (dir_fd_ >= 0) fs::remove(dir_ / kHolderFile, ec);
  if (dir_fd_ >= 0) ::close(dir_fd_);  // releases the lock
}

void ResultsFolder::lock() {
  dir_fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd_ < 0)
    throw InputError(
        fmt::format("cannot open output folder {}: {}", dir_.string(), std::strerror(errno)));
  // Another run: refused at once. A run killed with kill -9 releases the lock at once,
  // unless a child it had just forked (a shell for `git`, say) still shares the descriptor
  // until it execs: wait a moment for it. A reader (plot, report, compare, merge: no holder
  // file names it) holds the lock while it brings the derived files up to the journal: wait
  // for it rather than call it another run (folder_lock.hpp).
  const auto start = std::chrono::steady_clock::now();
  auto waited = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (::flock(dir_fd_, LOCK_EX | LOCK_NB) != 0) {
    const FlockHolder holder = flock_holder(dir_);
    if (holder.pid == 0 && ::flock(dir_fd_, LOCK_EX | LOCK_NB) == 0) return;  // let go meanwhile
    const std::string holder_file = slurp(dir_ / kHolderFile);
    if (waited() >= wait_for(holder_kind(holder_file, holder))) {
      const std::string message = lock_refusal(dir_, holder_file, holder, waited());
      ::close(dir_fd_);
      dir_fd_ = -1;
      throw InputError(message);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void ResultsFolder::write_holder() {
  wrote_holder_ = true;
  write_file_atomically(dir_ / kHolderFile, fmt::format("pid {}: {}\n", ::getpid(), own_command()));
}

// Keeps every readable record; what cannot be read is set aside (journal_repair.hpp).
void ResultsFolder::load_journal(const RunPlan& plan) {
  LoadedJournal loaded = load_journal_repairing(dir_);
  records_ = std::move(loaded.records);
  rerun_ = std::move(loaded.rerun);
  if (loaded.damaged_copy.empty()) return;
  std::size_t again = 0;
  for (auto& c : plan.cases) again += !records_.count(c.id);
  std::fprintf(stderr,
               "warning: %s: %s left out; kept all %zu readable records (the journal as it was is "
               "kept as %s); "
               "%zu cases of the plan have no record and run again\n",
               (dir_ / kJournalFile).string().c_str(), loaded.left_out.c_str(), records_.size(),
               loaded.damaged_copy.filename().string().c_str(), again);
}

// Derived files holding a case the journal lacks (the journal deleted or damaged) would lose
// it to the rebuild: they are moved aside first, whole.
void ResultsFolder::keep_derived_ahead_of_journal() {
  const std::string moved = keep_derived_ahead_of(dir_, records_);
  if (!moved.empty())
    std::fprintf(stderr, "warning: %s: %s\n", dir_.string().c_str(), moved.c_str());
}

void ResultsFolder::check_in_place() const {
  struct stat here {
  }, held{};
  if (::stat(dir_.c_str(), &here) == 0 && ::fstat(dir_fd_, &held) == 0 &&
      here.st_dev == held.st_dev && here.st_ino == held.st_ino)
    return;
  throw WriteError(fmt::format(
      "the results folder {} was moved or deleted during the run: it is no longer there",
      dir_.string()));
}

// Through the held descriptor, not the path: a folder moved away mid-write keeps its
// temporary file, and only the descriptor still finds it there.
void ResultsFolder::remove_temporary_files() const {
  if (dir_fd_ < 0) return;
  const int fd = ::dup(dir_fd_);
  if (fd < 0) return;
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    ::close(fd);
    return;
  }
  ::rewinddir(d);
  std::vector<std::string> temporary;
  while (const dirent* e = ::readdir(d))
    if (fs::path(e->d_name).extension() == ".tmp") temporary.push_back(e->d_name);
  for (auto& name : temporary) ::unlinkat(dir_fd_, name.c_str(), 0);
  ::closedir(d);  // closes fd
}

void ResultsFolder::commit(CaseRecord record) {
  // Figures drawn from the data as it was no longer match it.
  if (!figures_checked_) {
    figures_checked_ = true;
    if (remove_drawn_figures(dir_ / "figures")) removed_figures_ = dir_ / "figures";
  }
  // One write: once it returns, the line survives kill -9 and the OOM killer (it is in the
  // page cache). fdatasync (6 ms here) guards against power loss; it runs at most every
  // kSyncSeconds and at the end, so tiny cases are not slowed by it.
  nlohmann::json j = to_json(record);
  // A --filter rerun, or --resume rerunning a case whose worker was killed, replaces the
  // case's earlier record (journal.hpp).
  if (filtered_)
    j[kRerunKey] = token_;  // which rerun: --resume continues an unfinished one
  else if (records_.count(record.spec.id))
    j[kRerunKey] = true;
  rerun_[record.spec.id] = filtered_ ? token_ : "";
  const std::string line = journal_line(j);
  write_all(journal_fd_, line, dir_ / kJournalFile);
  if (std::chrono::steady_clock::now() - last_sync_ >= std::chrono::duration<double>(kSyncSeconds))
    sync();
  std::string id = record.spec.id;
  records_.insert_or_assign(id, std::move(record));
}

Records ResultsFolder::in_plan_order(const RunPlan& plan) const {
  Records out;
  for (auto& c : plan.cases)
    if (auto it = records_.find(c.id); it != records_.end()) out.push_back(&it->second);
  return out;
}

}  // namespace dpgpu
