// papers.cpp — the experiments behind each paper (papers.hpp).
#include "reproduce/papers.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "dpgpu/error.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

const std::vector<std::string>& known_papers() {
  static const std::vector<std::string> papers{"000", "001", "002", "003", "004"};
  return papers;
}

std::string paper_number(const std::string& written) {
  if (!written.empty() && written.size() <= 3 &&
      written.find_first_not_of("0123456789") == std::string::npos) {
    const std::string padded = std::string(3 - written.size(), '0') + written;
    const auto& known = known_papers();
    if (std::find(known.begin(), known.end(), padded) != known.end()) return padded;
  }
  throw InputError(
      fmt::format("reproduce: '{}' is not a paper (papers: {}; see "
                  "../shared/papers/README.md)",
                  written, fmt::join(known_papers(), ", ")));
}

std::string paper_of(const Claim& c) {
  const std::string first = c.paper.substr(0, c.paper.find(' '));
  const auto& known = known_papers();
  return std::find(known.begin(), known.end(), first) != known.end() ? first : "";
}

std::vector<PaperExperiment> experiments_behind(const fs::path& experiments_dir,
                                                const std::set<std::string>& papers) {
  if (!fs::is_directory(experiments_dir))
    throw InputError(
        fmt::format("reproduce: {}: no such folder of experiments", experiments_dir.string()));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(experiments_dir))
    if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<PaperExperiment> out;
  for (const fs::path& f : files) {
    ClaimsFile cf = read_claims_file(f.string());
    PaperExperiment pe{f, cf.name, {}, std::move(cf.claims), {}};
    for (const Claim& c : pe.claims)
      if (const std::string p = paper_of(c); !p.empty()) pe.papers.insert(p);
    const bool wanted = std::any_of(pe.papers.begin(), pe.papers.end(),
                                    [&](const std::string& p) { return papers.count(p) > 0; });
    if (!wanted) continue;
    pe.tiers = read_tiers_file(f);
    out.push_back(std::move(pe));
  }
  return out;
}

}  // namespace dpgpu
