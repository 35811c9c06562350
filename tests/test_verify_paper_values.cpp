// Paper values are data (issue 40): docs/paper_values/NNN.yaml holds each number attributed
// to a paper with its figure or table and its line in ../shared/papers; every quote is checked
// against the paper's text, and every "the paper's N" in a claim is a value of its paper (the
// misquoted "paper's 3.4x" of paper 004, whose Table 2 peaks at 1.98, fails here).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = DPGPU_SOURCE_DIR;

std::string squeeze(const std::string& s) {
  std::string out;
  for (char ch : s) {
    const bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : ch;
  }
  return out;
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::istringstream in(e2e::slurp(file));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// paper ("004") → the numbers of its values.
std::map<std::string, std::vector<double>> paper_numbers() {
  std::map<std::string, std::vector<double>> out;
  for (auto& e : fs::directory_iterator(kSource / "docs/paper_values"))
    if (e.path().extension() == ".yaml") {
      YAML::Node t = YAML::LoadFile(e.path().string());
      for (const auto& v : t["values"])
        out[t["paper"].as<std::string>()].push_back(v["number"].as<double>());
    }
  return out;
}

}  // namespace

TEST(PaperValues, EveryQuoteIsInItsPaperAtItsLine) {
  const fs::path papers = kSource / "../shared/papers";
  if (!fs::exists(papers)) GTEST_SKIP() << papers << " not present";
  std::size_t checked = 0;
  for (auto& e : fs::directory_iterator(kSource / "docs/paper_values")) {
    if (e.path().extension() != ".yaml") continue;
    YAML::Node t = YAML::LoadFile(e.path().string());
    const auto text = lines_of(papers / t["file"].as<std::string>());
    ASSERT_FALSE(text.empty()) << t["file"];
    for (const auto& v : t["values"]) {
      const std::string id = v["id"].as<std::string>(),
                        quote = squeeze(v["quote"].as<std::string>());
      const long line = v["line"].as<long>();
      std::string window;
      for (long k = std::max(1L, line - 3); k <= std::min<long>(text.size(), line + 3); ++k)
        window += text[k - 1] + "\n";
      EXPECT_NE(squeeze(window).find(quote), std::string::npos)
          << e.path() << ": " << id << ": quote not found near line " << line;
      EXPECT_NE(quote.find(v["value"].as<std::string>()), std::string::npos)
          << e.path() << ": " << id << ": the value is not in the quote";
      EXPECT_TRUE(v["where"] && !v["where"].as<std::string>().empty()) << id;
      ++checked;
    }
  }
  EXPECT_GE(checked, 10u);
}

TEST(PaperValues, EveryPapersNumberInAClaimIsAPaperValue) {
  const auto numbers = paper_numbers();
  const std::regex cited("the paper's (\\d[\\d,]*(?:\\.\\d+)?)");
  std::size_t checked = 0;
  for (auto& e : fs::directory_iterator(kSource / "experiments")) {
    if (e.path().extension() != ".yaml") continue;
    YAML::Node root = YAML::LoadFile(e.path().string());
    if (!root.IsMap() || !root["claims"]) continue;
    for (const auto& c : root["claims"]) {
      const std::string says = c["says"].as<std::string>(), paper = c["paper"].as<std::string>();
      for (std::sregex_iterator m(says.begin(), says.end(), cited), end; m != end; ++m) {
        std::string n = (*m)[1];
        n.erase(std::remove(n.begin(), n.end(), ','), n.end());
        const double x = std::stod(n);
        auto it = numbers.find(paper.substr(0, 3));
        const bool known =
            it != numbers.end() && std::any_of(it->second.begin(), it->second.end(),
                                               [&](double v) { return std::fabs(v - x) < 1e-9; });
        EXPECT_TRUE(known) << e.path().filename() << ": " << c["id"].as<std::string>()
                           << " cites the paper's " << (*m)[1] << ", which docs/paper_values/"
                           << paper.substr(0, 3) << ".yaml does not hold";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0u);
}
