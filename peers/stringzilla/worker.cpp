// The Python worker's process and its line protocol (sz_worker.py's docstring).
#include "worker.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>

#ifndef DPGPU_PEER_PYTHON
#define DPGPU_PEER_PYTHON "python3"
#endif
#ifndef DPGPU_SZ_WORKER
#define DPGPU_SZ_WORKER "sz_worker.py"
#endif

namespace peers::stringzilla {

namespace {

void hash_bytes(std::uint64_t& h, const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
}

void hash_strings(std::uint64_t& h, const edit::Strings& s) {
  const std::uint64_t sizes[2] = {s.size(), s.text.size()};
  hash_bytes(h, sizes, sizeof sizes);
  const std::size_t n = s.text.size(), edge = std::min<std::size_t>(n, 4096);
  hash_bytes(h, s.text.data(), edge);
  hash_bytes(h, s.text.data() + (n - edge), edge);
  for (std::size_t k = 1; k <= 64 && n > 0; ++k) hash_bytes(h, &s.text[k * (n - 1) / 64], 1);
  hash_bytes(h, s.offset.data() + s.offset.size() / 2, sizeof(std::int64_t));
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

std::uint64_t batch_key(const edit::BatchInstance& x) {
  std::uint64_t h = 1469598103934665603ull;
  const void* address = &x;
  hash_bytes(h, &address, sizeof address);
  hash_bytes(h, &x.cross, sizeof x.cross);
  hash_strings(h, x.a);
  hash_strings(h, x.b);
  return h;
}

Worker::Worker(const std::string& python, const std::string& script)
    : python_(python), script_(script) {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error(fail("pipe failed"));
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error(fail("fork failed"));
  if (pid_ == 0) {  // the worker: dies with dpgpu's process (a killed case leaves none behind)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    execlp(python.c_str(), python.c_str(), "-u", script.c_str(), static_cast<char*>(nullptr));
    std::printf("error cannot execute %s: %s\n", python.c_str(), std::strerror(errno));
    std::fflush(stdout);
    _exit(127);
  }
  close(in[0]), close(out[1]);
  to_ = fdopen(in[1], "wb");
  from_ = fdopen(out[0], "rb");
  const std::string line = read_line();
  if (line.rfind("ready ", 0) != 0) throw std::runtime_error(fail(line));
  ready_ = line.substr(6);
}

Worker::~Worker() {
  if (to_) {
    std::fputs("quit\n", to_);
    std::fclose(to_);
  }
  if (from_) std::fclose(from_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

std::string Worker::fail(const std::string& what) const {
  return fmt::format("peer.stringzilla: worker '{} {}': {}", python_, script_, what);
}

std::string Worker::read_line() {
  std::string line;
  for (int c; (c = std::fgetc(from_)) != EOF && c != '\n';) line.push_back(char(c));
  if (line.empty()) throw std::runtime_error(fail("the worker ended without answering"));
  if (line.rfind("error ", 0) == 0) throw std::runtime_error(fail(line.substr(6)));
  return line;
}

void Worker::write(const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, to_) != bytes)
    throw std::runtime_error(fail("writing to the worker failed (it ended?)"));
}

void Worker::send(const edit::BatchInstance& x, RunResult& out) {
  loaded_key_ = 0;
  const std::string head = fmt::format("load {} {} {} {} {}\n", int(x.cross), x.a.size(),
                                       x.b.size(), x.a.text.size(), x.b.text.size());
  write(head.data(), head.size());
  for (const edit::Strings* s : {&x.a, &x.b}) {
    write(s->offset.data(), s->offset.size() * sizeof(std::int64_t));
    write(s->text.data(), s->text.size());
  }
  std::fflush(to_);
  std::istringstream words(read_line());
  std::string tag;
  words >> tag >> out.load_s;
  if (tag != "loaded") throw std::runtime_error(fail("expected 'loaded', got '" + tag + "'"));
  out.sent = true;
  loaded_key_ = batch_key(x);
}

RunResult Worker::run(const edit::BatchInstance& x, const RunRequest& r) {
  RunResult out;
  if (batch_key(x) != loaded_key_) send(x, out);
  const std::string head = fmt::format("run {} {} {}\n", r.gpu ? "gpu" : "cpu", r.where, r.block);
  write(head.data(), head.size());
  std::fflush(to_);
  std::istringstream words(read_line());
  std::string tag;
  std::size_t pairs = 0;
  words >> tag >> out.library_s >> out.calls >> out.cells >> pairs;
  if (tag != "done" || !words) throw std::runtime_error(fail("bad answer to run"));
  if (pairs != x.pairs())
    throw std::runtime_error(fail(fmt::format("{} distances for {} pairs", pairs, x.pairs())));
  out.distances.resize(pairs);
  if (std::fread(out.distances.data(), sizeof(std::int32_t), pairs, from_) != pairs)
    throw std::runtime_error(fail("the worker's distances ended early"));
  return out;
}

namespace {
std::unique_ptr<Worker>& the_worker() {
  static std::unique_ptr<Worker> w;
  return w;
}
}  // namespace

Worker& shared_worker() {
  auto& w = the_worker();
  if (!w) {
    signal(SIGPIPE, SIG_IGN);  // a worker that died is an error on write, not the end of dpgpu
    w = std::make_unique<Worker>(env_or("DPGPU_PEER_PYTHON", DPGPU_PEER_PYTHON),
                                 env_or("DPGPU_SZ_WORKER", DPGPU_SZ_WORKER));
  }
  return *w;
}

void reset_shared_worker() { the_worker().reset(); }

}  // namespace peers::stringzilla
