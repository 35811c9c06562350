#include "results/results_folder.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
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
    if (n <= 0) throw std::runtime_error(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
    done += std::size_t(n);
  }
}

}  // namespace

// Why the recorded plan is not this one, in words ("other repetitions: 5 recorded, 3 now").
std::string plan_difference(const nlohmann::json& old, const nlohmann::json& now) {
  std::vector<std::string> why;
  if (old.value("experiment", "") != now.value("experiment", ""))
    why.push_back(fmt::format("it holds experiment '{}', this is '{}'", old.value("experiment", "?"),
                              now.value("experiment", "?")));
  for (auto key : {"repetitions", "warmup", "max_repetitions", "max_noise", "timeout_s", "cold", "series"})
    if (old.value(key, nlohmann::json()) != now.value(key, nlohmann::json()))
      why.push_back(fmt::format("other {}: {} recorded, {} now", key, old.value(key, nlohmann::json()).dump(),
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
    why.push_back(fmt::format("other cases: {} recorded cases are not in this plan{}, {} cases of this plan are new{}",
                              gone.size(), gone.empty() ? "" : " (e.g. '" + gone.front() + "')", added.size(),
                              added.empty() ? "" : " (e.g. '" + added.front() + "')"));
  if (why.empty() && old != now) why.push_back("the case order differs");
  return fmt::format("{}", fmt::join(why, "; "));
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

ResultsFolder::ResultsFolder(fs::path dir, const RunPlan& plan, const FolderOptions& opt) : dir_(std::move(dir)) {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    throw InputError(fmt::format("output folder {} is a file, not a folder", dir_.string()));
  if (!fs::exists(dir_, ec)) {
    fs::create_directories(dir_, ec);
    if (ec) throw InputError(fmt::format("cannot create output folder {}: {}", dir_.string(), ec.message()));
  }
  if (::access(dir_.c_str(), W_OK) != 0)
    throw InputError(fmt::format("output folder {} is not writable: {}", dir_.string(), std::strerror(errno)));
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
  if (opt.fresh) {
    write_holder();
    if (holds_anything(dir_)) {
      fs::path aside = dir_ / ("previous-" + timestamp());
      for (int i = 2; fs::exists(aside); ++i) aside = dir_ / fmt::format("previous-{}-{}", timestamp(), i);
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
      throw InputError(fmt::format("{} holds results without a plan.json (an older dpgpu, or written by hand); "
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
    if (old != plan.fingerprint)
      throw InputError(fmt::format("{} holds results of another plan: {}; {}", dir_.string(),
                                   plan_difference(old, plan.fingerprint),
                                   opt.resume ? "--resume continues only the same experiment; use another --out, or "
                                                "--fresh to move the old results aside"
                                              : "use another --out, or --fresh to move the old results aside"));
    if (const std::optional<Shard> old_shard = recorded_shard(recorded); old_shard != plan.shard)
      throw InputError(fmt::format("{} holds {} of this experiment, this run is {}; use that folder with the same "
                                   "--shard, another --out, or --fresh to move the old results aside",
                                   dir_.string(), shard_words(old_shard), shard_words(plan.shard)));
    if (!opt.resume && !opt.filtered)
      throw InputError(fmt::format("{} already holds results of this experiment; use --resume to run the cases not yet "
                                   "done, --filter to rerun some cases, or --fresh to move the old results aside",
                                   dir_.string()));
    write_holder();
    load_journal();
  } else {
    write_holder();
  }
  nlohmann::json recorded{{"fingerprint", plan.fingerprint}, {"hash", plan.fingerprint_hash},
                          {"experiment_file", fs::absolute(plan.file).string()}};
  if (plan.shard) recorded["shard"] = shard_json(plan);
  write_file_atomically(dir_ / kPlanFile, recorded.dump(1) + "\n");
  write_file_atomically(dir_ / "experiment.yaml", plan.shared().source_text);
  const fs::path journal = dir_ / kJournalFile;
  journal_fd_ = ::open(journal.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (journal_fd_ < 0) throw std::runtime_error(fmt::format("cannot open {}: {}", journal.string(), std::strerror(errno)));
  if (records_.empty() && ::ftruncate(journal_fd_, 0) != 0)
    throw std::runtime_error(fmt::format("cannot truncate {}: {}", journal.string(), std::strerror(errno)));
  ::fsync(dir_fd_);
}

void ResultsFolder::sync() {
  if (::fdatasync(journal_fd_) != 0)
    throw std::runtime_error(fmt::format("cannot sync {}: {}", (dir_ / kJournalFile).string(), std::strerror(errno)));
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
  if (dir_fd_ < 0) throw InputError(fmt::format("cannot open output folder {}: {}", dir_.string(), std::strerror(errno)));
  // A run killed with kill -9 releases the lock at once, unless a child it had just forked
  // (a shell for `git`, say) still shares the descriptor until it execs: while the recorded
  // holder is no longer running, wait a moment for that child before refusing.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (::flock(dir_fd_, LOCK_EX | LOCK_NB) != 0 && holder_gone() && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (::flock(dir_fd_, LOCK_EX | LOCK_NB) != 0) {
    std::string holder = slurp(dir_ / kHolderFile);
    while (!holder.empty() && holder.back() == '\n') holder.pop_back();
    ::close(dir_fd_);
    dir_fd_ = -1;
    throw InputError(fmt::format("{} is in use by another dpgpu run ({}); wait for it to finish or use another --out",
                                 dir_.string(), holder.empty() ? "holder unknown" : holder));
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

Journal read_journal(const fs::path& path) {
  Journal j;
  const std::string text = slurp(path);
  j.total_bytes = text.size();
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // no newline: the write was cut
    try {
      j.records.push_back(case_record_from_json(nlohmann::json::parse(text.substr(pos, end - pos))));
      j.complete_bytes = end + 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "warning: %s: dropping an unreadable line at byte %zu (%s); its case runs again\n",
                   path.string().c_str(), pos, e.what());
      break;
    }
    pos = end + 1;
  }
  return j;
}

// Keeps the last complete record of each case; a line cut short by a kill is dropped (and
// cut off the file, so the next record starts on a line of its own).
void ResultsFolder::load_journal() {
  const fs::path path = dir_ / kJournalFile;
  Journal journal = read_journal(path);
  for (CaseRecord& rec : journal.records) {
    std::string id = rec.spec.id;
    records_.insert_or_assign(id, std::move(rec));
  }
  if (journal.complete_bytes < journal.total_bytes) {
    // Rewrite the good prefix atomically: the records after a damaged line are dropped too,
    // which costs reruns but never a mixed file.
    write_file_atomically(path, slurp(path).substr(0, journal.complete_bytes));
  }
}

void ResultsFolder::commit(CaseRecord record) {
  // Figures drawn from the data as it was no longer match it.
  if (!figures_checked_) {
    figures_checked_ = true;
    std::error_code ec;
    if (fs::exists(dir_ / "figures", ec)) {
      fs::remove_all(dir_ / "figures", ec);
      removed_figures_ = dir_ / "figures";
    }
  }
  // One write: once it returns, the line survives kill -9 and the OOM killer (it is in the
  // page cache). fdatasync (6 ms here) guards against power loss; it runs at most every
  // kSyncSeconds and at the end, so tiny cases are not slowed by it.
  const std::string line = to_json(record).dump() + "\n";
  write_all(journal_fd_, line, dir_ / kJournalFile);
  if (std::chrono::steady_clock::now() - last_sync_ >= std::chrono::duration<double>(kSyncSeconds)) sync();
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
