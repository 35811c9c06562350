// fasta.hpp — FASTA records and how a file is recognised as FASTA.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace lcs {

struct FastaRecord {
  std::string header;  // the line after '>', as written
  std::string
      sequence;  // all its lines joined, whitespace removed, letters upper-cased, other bytes kept
};

// The record's id: its header up to the first whitespace.
std::string fasta_id(const FastaRecord& r);

// Records in file order. A leading UTF-8 byte-order mark is skipped; so are blank lines and
// ';' comment lines. Letters are read in upper case: lower case in FASTA marks soft-masked
// (repeat) regions of the same bases, so `acgt` and `ACGT` compare equal. Throws
// dpgpu::InputError "SOURCE:LINE: ..." for sequence data before the first header.
std::vector<FastaRecord> parse_fasta(std::string_view text, const std::string& source);

// FASTA by extension (.fa, .fasta, .fna, any case) or by content (first non-blank line
// starts with '>').
bool looks_like_fasta(const std::filesystem::path& path, std::string_view text);

}  // namespace lcs
