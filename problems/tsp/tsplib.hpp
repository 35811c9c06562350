// tsplib.hpp — the TSPLIB95 reader for TYPE TSP and ATSP (see README.md for what it
// accepts). Errors are dpgpu::InputError("<where>:<line>: <what>").
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "tsp/tsp.hpp"

namespace tsp {

struct TsplibFile {
  Instance instance;  // name: NAME without a ".tsp"/".atsp" ending ("" when absent)
  std::string type;   // "TSP" or "ATSP"
};

// `where` names the text in messages (the file's path).
TsplibFile parse_tsplib(std::string_view text, const std::string& where);

// Reads and parses one file; a missing or unreadable file is an InputError naming it.
TsplibFile read_tsplib(const std::filesystem::path& path);

}  // namespace tsp
