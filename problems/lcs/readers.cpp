// Problem::load: a pair of strings from FASTA or plain-text files.
//   one path:  FASTA -> its first two records (or the two named by `select: ID1,ID2`);
//              text  -> its first two non-blank lines.
//   two paths: FASTA -> the first record of each; text -> the first non-blank line of each.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "lcs/fasta.hpp"
#include "lcs/lcs.hpp"
#include "lines.hpp"

namespace lcs {

namespace {

namespace fs = std::filesystem;
using dpgpu::InputError;

const char* plural(std::size_t k, const char* one, const char* many) { return k == 1 ? one : many; }

// A pair of strings read from one file or two, before it becomes an instance.
struct Pair {
  std::string a, b;
};

// True when `token` names the record: its whole id, or one '|'-separated field of it
// ("P02232.2" names ">gi|122087146|sp|P02232.2|LGB1_VICFA ...").
bool names_record(const std::string& token, const FastaRecord& r) {
  const std::string id = fasta_id(r);
  if (id == token) return true;
  std::string_view rest = id;
  while (true) {
    const auto bar = rest.find('|');
    if (rest.substr(0, bar) == token) return true;
    if (bar == std::string_view::npos) return false;
    rest.remove_prefix(bar + 1);
  }
}

std::string selected_sequence(const std::vector<FastaRecord>& records, const std::string& token,
                              const fs::path& path) {
  for (auto& r : records)
    if (names_record(token, r)) return r.sequence;
  throw InputError(fmt::format("{}: select: no record named '{}' among its {} records",
                               path.string(), token, records.size()));
}

Pair pair_from_fasta(const fs::path& path, std::string_view text, const std::string& select) {
  const auto records = parse_fasta(text, path.string());
  if (!select.empty()) {
    const auto comma = select.find(',');
    if (comma == std::string::npos)
      throw InputError(
          fmt::format("{}: select '{}' must name two records: ID1,ID2", path.string(), select));
    return {selected_sequence(records, select.substr(0, comma), path),
            selected_sequence(records, select.substr(comma + 1), path)};
  }
  if (records.size() < 2)
    throw InputError(
        fmt::format("{}: FASTA has {} {}; a single file must hold two (a and b), or give two files",
                    path.string(), records.size(), plural(records.size(), "record", "records")));
  return {records[0].sequence, records[1].sequence};
}

std::vector<std::string> nonblank_lines(std::string_view text, std::size_t at_most) {
  std::vector<std::string> out;
  for (auto line : split_lines(without_bom(text))) {
    if (out.size() == at_most) break;
    if (!is_blank(line)) out.emplace_back(line);
  }
  return out;
}

Pair pair_from_text(const fs::path& path, std::string_view text) {
  auto lines = nonblank_lines(text, 2);
  if (lines.size() < 2)
    throw InputError(
        fmt::format("{}: plain text has {} non-empty {}; a single file must hold two (a and b), or "
                    "give two files",
                    path.string(), lines.size(), plural(lines.size(), "line", "lines")));
  return {std::move(lines[0]), std::move(lines[1])};
}

std::string first_string(const fs::path& path) {
  const std::string text = read_whole_file(path);
  if (looks_like_fasta(path, text)) {
    auto records = parse_fasta(text, path.string());
    if (records.empty()) throw InputError(fmt::format("{}: FASTA has no records", path.string()));
    return std::move(records.front().sequence);
  }
  auto lines = nonblank_lines(text, 1);
  if (lines.empty())
    throw InputError(fmt::format("{}: plain text has no non-empty line", path.string()));
  return std::move(lines.front());
}

}  // namespace

std::vector<dpgpu::Loaded<Instance>> Problem::load(const dpgpu::FileSource& src) {
  const auto& paths = src.paths;
  if (paths.empty()) throw InputError("lcs: a file source needs one or two paths, got none");
  if (paths.size() > 2) {
    std::vector<std::string> names;
    for (auto& p : paths) names.push_back(p.string());
    throw InputError(fmt::format("lcs: a file source takes one or two paths, got {}: {}",
                                 paths.size(), fmt::join(names, ", ")));
  }

  dpgpu::Loaded<Instance> loaded;
  if (paths.size() == 1) {
    const auto& path = paths[0];
    const std::string text = read_whole_file(path);
    const bool fasta = looks_like_fasta(path, text);
    if (!src.select.empty() && !fasta)
      throw InputError(
          fmt::format("{}: select is only for a FASTA file with several records", path.string()));
    Pair pair = fasta ? pair_from_fasta(path, text, src.select) : pair_from_text(path, text);
    loaded.instance = {std::move(pair.a), std::move(pair.b)};
    loaded.name = path.stem().string();
    if (!src.select.empty()) {
      auto names = src.select;
      names[names.find(',')] = '+';
      loaded.name += ":" + names;
    }
  } else {
    if (!src.select.empty())
      throw InputError(fmt::format(
          "{}: select is only for a single FASTA file with several records", paths[0].string()));
    loaded.instance = {first_string(paths[0]), first_string(paths[1])};
    loaded.name = paths[0].stem().string() + "+" + paths[1].stem().string();
  }
  return {std::move(loaded)};
}

}  // namespace lcs
