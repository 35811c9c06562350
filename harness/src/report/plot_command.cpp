#include "report/plot_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <vector>

#include "dpgpu/error.hpp"
#include "report/stale_outputs.hpp"

#ifndef DPGPU_SOURCE_DIR
#define DPGPU_SOURCE_DIR "."
#endif

namespace dpgpu {

namespace {

bool has_matplotlib(const std::string& python) {
  std::string cmd = "'" + python + "' -c 'import matplotlib' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

// $DPGPU_PYTHON, the repository's .venv, the system Python, then python3 on PATH.
std::string find_python() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("DPGPU_PYTHON")) candidates.push_back(env);
  candidates.push_back(std::string(DPGPU_SOURCE_DIR) + "/.venv/bin/python");
  candidates.push_back("/usr/bin/python3");
  candidates.push_back("python3");
  for (auto& c : candidates)
    if (has_matplotlib(c)) return c;
  return {};
}

}  // namespace

int run_plots_script(const std::string& script, const std::vector<std::string>& script_args) {
  // What the readers read first agrees with the journal (a run killed mid-way may not have
  // rewritten it): every argument that is a results folder.
  for (const auto& arg : script_args) rebuild_if_stale(arg);
  std::string python = find_python();
  if (python.empty())
    throw InputError("no Python with Matplotlib found (tried $DPGPU_PYTHON, " DPGPU_SOURCE_DIR
                     "/.venv/bin/python, /usr/bin/python3, python3); install python3-matplotlib or "
                     "run scripts/setup.sh");
  std::vector<std::string> args{python, std::string(DPGPU_SOURCE_DIR) + "/plots/" + script};
  args.insert(args.end(), script_args.begin(), script_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::perror("exec python");
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int plot_results(const PlotOptions& opt) {
  std::vector<std::string> args;
  for (const auto& dir : opt.results) args.push_back(dir.string());
  if (opt.list) args.push_back("--list");
  if (!opt.figure.empty()) args.insert(args.end(), {"--figure", opt.figure});
  if (!opt.format.empty()) args.insert(args.end(), {"--format", opt.format});
  if (!opt.x.empty()) args.insert(args.end(), {"--x", opt.x});
  if (!opt.series.empty()) args.insert(args.end(), {"--series", opt.series});
  if (opt.adopt_unlisted) args.push_back("--adopt-unlisted");
  return run_plots_script("dpgpu_plot.py", args);
}

}  // namespace dpgpu
