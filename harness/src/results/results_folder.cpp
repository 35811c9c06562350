#include "results/results_folder.hpp"

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
#include <set>
#include <sstream>
#include <thread>

#include "records/csv_table.hpp"
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

// Files that say a folder holds results of some run (journal-less ones from older dpgpu too).
bool holds_results(const fs::path& dir) {
  std::error_code ec;
  if (fs::file_size(dir / kJournalFile, ec) > 0 && !ec) return true;
  for (auto f : {"runs.csv", "summary.csv", "benchmark.json"})
    if (fs::exists(dir / f)) return true;
  return false;
}

bool holds_anything(const fs::path& dir) {
  std::error_code ec;
  for (auto& entry : fs::directory_iterator(dir, ec)) {
    auto name = entry.path().filename().string();
    if (name != kHolderFile && name.rfind("previous-", 0) != 0) return true;
  }
  return false;
}

// A folder dpgpu made: its marker, or (older dpgpu) a plan.json or a journal.
bool made_by_dpgpu(const fs::path& dir) {
  std::error_code ec;
  for (auto f : {kMarkerFile, kPlanFile, kJournalFile})
    if (fs::exists(dir / f, ec)) return true;
  return false;
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

std::string timestamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
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
    ::close(dir_fd_);  // a refusal leaves the folder as it was
    dir_fd_ = -1;
    throw;
  }
}

void ResultsFolder::open_for(const RunPlan& plan, const FolderOptions& opt) {
  // May this run use what the folder holds? Refusals write nothing.
  filtered_ = opt.filtered;
  if (opt.fresh) {
    if (const fs::path busy = folder_in_use_below(dir_); !busy.empty())
      throw InputError(fmt::format(
          "{} holds {}, in use by a running dpgpu ({}); --fresh would move it: wait for it to "
          "finish, or use another --out",
          dir_.string(), busy.string(), holder_of(busy)));
    write_holder();
    if (holds_anything(dir_)) {
      fs::path aside = dir_ / ("previous-" + timestamp());
      for (int i = 2; fs::exists(aside); ++i)
        aside = dir_ / fmt::format("previous-{}-{}", timestamp(), i);
      fs::create_directories(aside);
      for (auto& entry : fs::directory_iterator(dir_)) {
        auto name = entry.path().filename().string();
        if (name == kHolderFile || name.rfind("previous-", 0) == 0) continue;
        fs::rename(entry.path(), aside / name);
      }
      moved_aside_ = aside;
    }
  } else if (holds_results(dir_)) {
    if (!fs::exists(dir_ / kPlanFile))
      throw InputError(
          fmt::format("{} holds results without a plan.json (an older dpgpu, or written by hand); "
                      "use --fresh to move them aside into previous-<time>/",
                      dir_.string()));
    nlohmann::json recorded, old;
    try {
      recorded = nlohmann::json::parse(slurp(dir_ / kPlanFile));
      old = recorded.at("fingerprint");
    } catch (const std::exception& e) {
      throw InputError(fmt::format("{}: unreadable ({}); use --fresh to move the old results aside",
                                   (dir_ / kPlanFile).string(), e.what()));
    }
    if (without_case_order(old) != without_case_order(plan.fingerprint))
      throw InputError(fmt::format(
          "{} holds results of another plan: {}; {}", dir_.string(),
          plan_difference(old, plan.fingerprint),
          opt.resume ? "--resume continues only the same experiment; use another --out, or "
                       "--fresh to move the old results aside"
                     : "use another --out, or --fresh to move the old results aside"));
    if (const std::optional<Shard> old_shard = recorded_shard(recorded); old_shard != plan.shard)
      throw InputError(fmt::format(
          "{} holds {} of this experiment, this run is {}; use that folder with the same "
          "--shard, another --out, or --fresh to move the old results aside",
          dir_.string(), shard_words(old_shard), shard_words(plan.shard)));
    if (!opt.resume && !opt.filtered)
      throw InputError(fmt::format(
          "{} already holds results of this experiment; use --resume to run the cases not yet "
          "done, --filter to rerun some cases, or --fresh to move the old results aside",
          dir_.string()));
    write_holder();
    load_journal(plan);
    keep_derived_ahead_of_journal();
  } else {
    write_holder();
  }
  nlohmann::json recorded{{"fingerprint", plan.fingerprint},
                          {"hash", plan.fingerprint_hash},
                          {"experiment_file", fs::absolute(plan.file).string()}};
  if (plan.shard) recorded["shard"] = shard_json(plan);
  if (!plan.sets.empty()) recorded["set"] = plan.sets;  // the --set flags the file ran with
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
  // A run killed with kill -9 releases the lock at once, unless a child it had just forked
  // (a shell for `git`, say) still shares the descriptor until it execs: while the recorded
  // holder is no longer running, wait a moment for that child before refusing.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (::flock(dir_fd_, LOCK_EX | LOCK_NB) != 0 && holder_gone() &&
         std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (::flock(dir_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(dir_fd_);
    dir_fd_ = -1;
    throw InputError(fmt::format(
        "{} is in use by another dpgpu run ({}); wait for it to finish or use another --out",
        dir_.string(), holder_of(dir_)));
  }
}

// True when the holder file names a process that no longer exists.
bool ResultsFolder::holder_gone() const {
  const std::string holder = slurp(dir_ / kHolderFile);
  long pid = 0;
  if (std::sscanf(holder.c_str(), "pid %ld", &pid) != 1 || pid <= 0) return false;
  return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

void ResultsFolder::write_holder() {
  write_file_atomically(dir_ / kHolderFile, fmt::format("pid {}: {}\n", ::getpid(), own_command()));
}

// Keeps every readable record. A line cut short by a kill is cut off the file (it holds no
// record), so the next record starts on a line of its own. Unreadable lines and duplicated
// records: the journal as it was is kept beside (journal.damaged-<time>.jsonl, a hard link:
// never rewritten in place) and the readable records become the journal.
void ResultsFolder::load_journal(const RunPlan& plan) {
  const fs::path path = dir_ / kJournalFile;
  const Journal journal = read_journal(path);
  std::size_t duplicates = 0;
  records_ = latest_records(journal, &duplicates);
  if (!journal.damaged() && duplicates == 0) {
    if (journal.cut) write_file_atomically(path, slurp(path).substr(0, journal.complete_bytes));
    return;
  }
  fs::path aside = dir_ / ("journal.damaged-" + timestamp() + ".jsonl");
  for (int i = 2; fs::exists(aside); ++i)
    aside = dir_ / fmt::format("journal.damaged-{}-{}.jsonl", timestamp(), i);
  if (::link(path.c_str(), aside.c_str()) != 0)
    throw std::runtime_error(fmt::format("cannot keep {} as {}: {}", path.string(), aside.string(),
                                         std::strerror(errno)));
  // One line per case, the one that counts, where its case first appeared.
  std::string text;
  std::set<std::string> written;
  for (const CaseRecord& rec : journal.records)
    if (written.insert(rec.spec.id).second) text += to_json(records_.at(rec.spec.id)).dump() + "\n";
  write_file_atomically(path, text);
  std::size_t again = 0;
  for (auto& c : plan.cases) again += !records_.count(c.id);
  std::fprintf(stderr,
               "warning: %s: %s left out; kept all %zu readable records (the journal as it was is "
               "kept as %s); "
               "%zu cases of the plan have no record and run again\n",
               path.string().c_str(), journal_damage_words(journal, duplicates).c_str(),
               records_.size(), aside.filename().string().c_str(), again);
}

// Derived files holding a case the journal lacks (the journal deleted or damaged) would lose
// it to the rebuild: they are moved aside first, whole.
void ResultsFolder::keep_derived_ahead_of_journal() {
  std::set<std::string> lacking;
  std::string unreadable;
  for (auto name : {"summary.csv", "runs.csv"}) {
    if (!fs::exists(dir_ / name)) continue;
    try {
      for (CsvRow& row : CsvTable(dir_ / name, {}).load())
        if (!records_.count(row["case_id"])) lacking.insert(row["case_id"]);
    } catch (const std::exception& e) {
      unreadable = e.what();
    }
  }
  if (lacking.empty() && unreadable.empty()) return;
  fs::path aside = dir_ / ("previous-" + timestamp());
  for (int i = 2; fs::exists(aside); ++i)
    aside = dir_ / fmt::format("previous-{}-{}", timestamp(), i);
  fs::create_directories(aside);
  std::vector<std::string> moved;
  for (auto name : kDerivedFiles)
    if (fs::exists(dir_ / name)) fs::rename(dir_ / name, aside / name), moved.push_back(name);
  std::fprintf(
      stderr, "warning: %s: %s; so %s were moved to %s before being rebuilt from the journal\n",
      dir_.string().c_str(),
      !lacking.empty() ? fmt::format("its derived files hold {} cases that {} lacks (e.g. '{}')",
                                     lacking.size(), kJournalFile, *lacking.begin())
                             .c_str()
                       : fmt::format("a derived file is unreadable ({})", unreadable).c_str(),
      fmt::format("{}", fmt::join(moved, ", ")).c_str(), aside.string().c_str());
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

void ResultsFolder::remove_temporary_files() const {
  std::error_code ec;
  for (auto& entry : fs::directory_iterator(dir_, ec))
    if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
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
  if (filtered_ || records_.count(record.spec.id)) j[kRerunKey] = true;
  const std::string line = j.dump() + "\n";
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
