#include "plan/file_kind.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <string_view>

#include "dpgpu/error.hpp"

namespace dpgpu {

namespace {

constexpr std::size_t kSniffBytes = 4096;

struct Sniffed {
  std::string kind;
  std::string evidence;  // the line or bytes that decided it
};

std::string head_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(kSniffBytes, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(in.gcount()));
  return text;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A TSPLIB specification line: KEYWORD, optional blanks, ':' (or a section name alone).
bool tsplib_line(std::string_view line) {
  static constexpr std::array<std::string_view, 7> keys{
      "NAME", "TYPE", "COMMENT", "DIMENSION", "EDGE_WEIGHT_TYPE", "EDGE_WEIGHT_FORMAT", "CAPACITY"};
  for (auto key : keys)
    if (starts_with(line, key) && trim(line.substr(key.size())).substr(0, 1) == ":") return true;
  return line == "NODE_COORD_SECTION" || line == "EDGE_WEIGHT_SECTION";
}

bool experiment_line(std::string_view line) {
  for (std::string_view key : {"problem:", "instances:", "solvers:", "parts:"})
    if (starts_with(line, key)) return true;
  return false;
}

Sniffed sniff(const std::filesystem::path& path) {
  const std::string head = head_of(path);
  if (head.empty()) return {"empty", ""};
  const auto byte = [&](std::size_t i) {
    return i < head.size() ? static_cast<unsigned char>(head[i]) : 0u;
  };
  if ((byte(0) == 0x1f && byte(1) == 0x8b) || starts_with(head, "PK\x03\x04") ||
      starts_with(head, "BZh") ||
      starts_with(head,
                  "\xfd"
                  "7zXZ") ||
      (byte(0) == 0x28 && byte(1) == 0xb5 && byte(2) == 0x2f && byte(3) == 0xfd))
    return {"compressed", fmt::format("starts with bytes {:02x} {:02x}", byte(0), byte(1))};
  std::size_t odd = 0;
  for (unsigned char c : head) odd += (c == 0 || (c < 32 && !std::isspace(c)));
  if (head.find('\0') != std::string::npos || odd * 100 > head.size())
    return {"binary", fmt::format("{} control bytes in its first {}", odd, head.size())};
  // Judge by the first lines that are not blank.
  std::size_t pos = 0, seen = 0;
  while (pos < head.size() && seen < 8) {
    std::size_t end = head.find('\n', pos);
    if (end == std::string::npos) end = head.size();
    std::string_view line = trim(std::string_view(head).substr(pos, end - pos));
    const std::size_t number =
        std::size_t(std::count(head.begin(), head.begin() + long(pos), '\n')) + 1;
    pos = end + 1;
    if (line.empty()) continue;
    ++seen;
    const std::string quoted = fmt::format("line {}: '{}'", number, line.substr(0, 40));
    if (seen == 1 && line.front() == '>') return {"fasta", quoted};
    if (tsplib_line(line)) return {"tsplib", quoted};
    if (experiment_line(line)) return {"experiment", quoted};
  }
  return {"text", ""};
}

std::string article_name(const std::string& kind) {
  if (kind == "fasta") return "a FASTA file";
  if (kind == "tsplib") return "a TSPLIB file";
  if (kind == "experiment") return "a dpgpu experiment file";
  if (kind == "compressed") return "a compressed file";
  if (kind == "binary") return "a binary file";
  if (kind == "empty") return "an empty file";
  return "a text file";
}

}  // namespace

std::string sniff_file_kind(const std::filesystem::path& path) { return sniff(path).kind; }

std::string describe_file_kind(const std::filesystem::path& path) {
  Sniffed s = sniff(path);
  if (s.kind == "text" || s.kind == "empty") return {};
  return article_name(s.kind) + (s.evidence.empty() ? "" : " (" + s.evidence + ")");
}

void refuse_wrong_file_kind(const ProblemEntry& problem, const std::filesystem::path& path) {
  Sniffed s = sniff(path);
  if (s.kind == "text" || s.kind == "empty") return;  // the reader says what is wrong, if anything
  const auto& kinds = problem.file_kinds;
  const bool universal_refusal =
      s.kind == "compressed" || s.kind == "binary" || s.kind == "experiment";
  if (!universal_refusal &&
      (kinds.empty() || std::find(kinds.begin(), kinds.end(), s.kind) != kinds.end()))
    return;
  std::vector<std::string> reads;
  for (auto& k : kinds) reads.push_back(article_name(k).substr(article_name(k).find(' ') + 1));
  throw InputError(fmt::format("{} looks like {} ({}); problem '{}' reads {}", path.string(),
                               article_name(s.kind), s.evidence, problem.name,
                               reads.empty() ? std::string("its own text format")
                                             : fmt::format("{}", fmt::join(reads, " or "))));
}

}  // namespace dpgpu
