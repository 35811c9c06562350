// file_format.hpp — the S-DP instance file (README.md): one key per line, `#` starts a
// comment, the lists `offsets` and `init` may continue on lines that hold numbers only.
//   n 1000000
//   op add
//   modulus 1000000007      # optional, add only (default 1,000,000,007)
//   offsets 6 3 1
//   init 5 0 7 1 2 9        # exactly a0 values
#pragma once
#include <filesystem>
#include <string_view>

#include "sdp/sdp.hpp"

namespace sdp {

// Errors: dpgpu::InputError "PATH:LINE: ..." (unknown or repeated key, bad number, missing
// key, invalid instance). Named by the file's stem.
dpgpu::Loaded<Instance> parse_instance(std::string_view text, const std::filesystem::path& path);

}  // namespace sdp
