// hash_text.hpp — the one hash of case ids and plan fingerprints.
#pragma once
#include <string>

namespace dpgpu {

// FNV-1a, 64 bits, as 16 hex digits: stable across builds and machines (std::hash is not).
std::string hash_text(const std::string& text);

}  // namespace dpgpu
