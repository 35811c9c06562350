// edit_batch from files: the LCS file formats (lcs/fasta.hpp, text lines) as lists of strings.
//   one path:  pairs; FASTA -> records 1 and 2, 3 and 4, ...; text -> each non-blank line
//              "a<TAB>b".
//   two paths: cross; every string of the first file (FASTA records or non-blank lines)
//              against every string of the second.
#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "edit/batch.hpp"
#include "lcs/fasta.hpp"

namespace edit {

namespace {

namespace fs = std::filesystem;
using dpgpu::InputError;

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

std::vector<std::string> strings_of(const fs::path& path, const std::string& text, bool* fasta) {
  std::vector<std::string> out;
  *fasta = lcs::looks_like_fasta(path, text);
  if (*fasta) {
    for (auto& r : lcs::parse_fasta(text, path.string())) out.push_back(std::move(r.sequence));
  } else {
    for (auto line : dpgpu::split_lines(text))
      if (!blank(line)) out.emplace_back(line);
  }
  if (out.empty())
    throw InputError(fmt::format("{}: no strings (records or non-blank lines)", path.string()));
  return out;
}

BatchInstance pairs_from(const fs::path& path) {
  const std::string text = dpgpu::read_whole_file(path);
  bool fasta = false;
  auto list = strings_of(path, text, &fasta);
  BatchInstance x;
  if (fasta) {
    if (list.size() % 2)
      throw InputError(fmt::format("{}: {} FASTA records; pairs need an even number", path.string(),
                                   list.size()));
    for (std::size_t i = 0; i < list.size(); i += 2) {
      x.a.push_back(list[i]);
      x.b.push_back(list[i + 1]);
    }
    return x;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto tab = list[i].find('\t');
    if (tab == std::string::npos || list[i].find('\t', tab + 1) != std::string::npos)
      throw InputError(fmt::format("{}: non-blank line {} must be two strings separated by one tab",
                                   path.string(), i + 1));
    x.a.push_back(std::string_view(list[i]).substr(0, tab));
    x.b.push_back(std::string_view(list[i]).substr(tab + 1));
  }
  return x;
}

}  // namespace

std::vector<dpgpu::Loaded<BatchInstance>> BatchProblem::load(const dpgpu::FileSource& src) {
  if (src.paths.empty() || src.paths.size() > 2)
    throw InputError(
        fmt::format("edit_batch: a file source takes one path (pairs) or two (every "
                    "pair of the two), got {}",
                    src.paths.size()));
  if (!src.select.empty())
    throw InputError(fmt::format("{}: edit_batch takes no select", src.paths[0].string()));
  dpgpu::Loaded<BatchInstance> l;
  if (src.paths.size() == 1) {
    l.instance = pairs_from(src.paths[0]);
    l.name = src.paths[0].stem().string();
  } else {
    bool fasta = false;
    for (auto& s : strings_of(src.paths[0], dpgpu::read_whole_file(src.paths[0]), &fasta))
      l.instance.a.push_back(s);
    for (auto& s : strings_of(src.paths[1], dpgpu::read_whole_file(src.paths[1]), &fasta))
      l.instance.b.push_back(s);
    l.instance.cross = true;
    l.name = src.paths[0].stem().string() + "x" + src.paths[1].stem().string();
  }
  return {std::move(l)};
}

}  // namespace edit
