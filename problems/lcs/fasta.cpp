#include "lcs/fasta.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "lines.hpp"

namespace lcs {

std::string fasta_id(const FastaRecord& r) {
  const auto end = r.header.find_first_of(" \t");
  return r.header.substr(0, end);
}

std::vector<FastaRecord> parse_fasta(std::string_view text, const std::string& source) {
  std::vector<FastaRecord> records;
  const auto lines = split_lines(without_bom(text));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto line = lines[i];
    if (is_blank(line) || line.front() == ';') continue;
    if (line.front() == '>') {
      records.push_back({std::string(line.substr(1)), {}});
      continue;
    }
    if (records.empty())
      throw dpgpu::InputError(
          fmt::format("{}:{}: sequence data before the first '>' header", source, i + 1));
    auto& seq = records.back().sequence;
    for (char c : line)
      if (!std::isspace(static_cast<unsigned char>(c)))
        seq.push_back(c >= 'a' && c <= 'z' ? char(c - 'a' + 'A')
                                           : c);  // ASCII letters only: bytes stay bytes
  }
  return records;
}

bool looks_like_fasta(const std::filesystem::path& path, std::string_view text) {
  auto ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".fa" || ext == ".fasta" || ext == ".fna") return true;
  for (auto line : split_lines(without_bom(text)))
    if (!is_blank(line)) return line.front() == '>';
  return false;
}

}  // namespace lcs
