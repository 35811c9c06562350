// file_kind.hpp — what an instance file looks like, judged by its content (not its name),
// so a file of the wrong kind is refused with a message saying what it is: a TSPLIB file
// given to `problem: lcs`, a FASTA given to the knapsack reader, a compressed or binary file.
#pragma once
#include <filesystem>
#include <string>

#include "dpgpu/registry.hpp"

namespace dpgpu {

// "fasta", "tsplib", "experiment" (a dpgpu YAML file), "compressed", "binary", "empty", or
// "text" (anything else: the problem's reader judges it).
std::string sniff_file_kind(const std::filesystem::path& path);

// "a TSPLIB file (line 1: 'NAME: br17')": what the file looks like, for messages; empty
// for plain text and unreadable files.
std::string describe_file_kind(const std::filesystem::path& path);

// Throws InputError when the file is compressed or binary, or when it is a recognised kind
// the problem does not read (ProblemEntry::file_kinds; plain text is left to the reader).
void refuse_wrong_file_kind(const ProblemEntry& problem, const std::filesystem::path& path);

}  // namespace dpgpu
