// `dpgpu check` on the solvers' check fixtures: experiment files that a solver folder keeps
// beside its rules (strategies/<s>/check_fixtures/, baselines/<p>/check_fixtures/; the
// harness's own are in tests/fixtures/check/, test_check_fixtures.cpp). Each says in its header
// what check must answer:
//
//   # expect error: line 11: solver 'gpu.mcm' cannot run instance ... (rule): 'cell' 32: ...
//   # expect error: above 2^53 (exact doubles)      (more text the same message must hold)
//   # expect ok
//
// An error must exit 2 and name the file and line; every text must appear. Found by glob, so
// a new solver's fixtures need no edit here. Runs on any machine: rules are checked before a
// case is skipped for want of a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace {

namespace fs = std::filesystem;
const std::string kDpgpu = DPGPU_BIN;

struct Expectation {
  bool ok = false;
  int line = 0;                    // of the error
  std::vector<std::string> texts;  // each in the message
};

// The header's expectation, or nullopt for a file that states none.
std::optional<Expectation> expectation_of(const fs::path& file) {
  std::ifstream in(file);
  std::optional<Expectation> e;
  const std::string error_tag = "# expect error: ";
  for (std::string line; std::getline(in, line) && line.rfind("#", 0) == 0;) {
    if (line.rfind("# expect ok", 0) == 0) {
      e = Expectation{true, 0, {}};
    } else if (line.rfind(error_tag, 0) == 0) {
      if (!e) e = Expectation{};
      std::string text = line.substr(error_tag.size());
      if (text.rfind("line ", 0) == 0) {
        const auto colon = text.find(": ");
        e->line = std::stoi(text.substr(5, colon - 5));
        text = text.substr(colon + 2);
      }
      e->texts.push_back(text);
    }
  }
  return e;
}

std::vector<fs::path> fixtures() {
  std::vector<fs::path> out;
  auto add_folder = [&](const fs::path& folder) {
    if (!fs::is_directory(folder)) return;
    for (const auto& f : fs::directory_iterator(folder))
      if (f.path().extension() == ".yaml") out.push_back(f.path());
  };
  for (const char* room : {"strategies", "baselines"})
    for (const auto& d : fs::directory_iterator(room)) add_folder(d.path() / "check_fixtures");
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SolverCheckFixtures, EachIsAnsweredAsItsHeaderSays) {
  std::size_t checked = 0;
  for (const fs::path& file : fixtures()) {
    SCOPED_TRACE(file.string());
    const auto want = expectation_of(file);
    if (!want) {
      ADD_FAILURE() << "no '# expect error:' or '# expect ok' in its header";
      continue;
    }
    const auto r = e2e::run(kDpgpu + " check " + file.string());
    ++checked;
    if (want->ok) {
      EXPECT_EQ(r.code, 0) << r.output;
      continue;
    }
    EXPECT_EQ(r.code, 2) << r.output;
    if (want->line > 0)
      EXPECT_NE(r.output.find(file.filename().string() + ":" + std::to_string(want->line) + ":"),
                std::string::npos)
          << "line " << want->line << " not named:\n"
          << r.output;
    for (const auto& text : want->texts)
      EXPECT_NE(r.output.find(text), std::string::npos) << text << "\n" << r.output;
  }
  // The solver folders' fixtures (mcm, bitparallel, hierarchical, sdp at least) are found.
  EXPECT_GE(checked, 10u);
}

}  // namespace
