// The certificate check, the sizes, and the problem's registration.
#include "lcs/lcs.hpp"

#include <fmt/format.h>

#include "dpgpu/registry.hpp"

namespace lcs {

namespace {

std::string describe_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u <= 0x7e) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", u);
}

// Why `s` is not a subsequence of `text` (named `text_name`), or "" when it is.
std::string why_not_subsequence(const std::string& s, const std::string& text,
                                const char* text_name) {
  std::size_t pos = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto found = text.find(s[k], pos);
    if (found == std::string::npos)
      return fmt::format(
          "certificate (length {}) is not a subsequence of {} (length {}): its symbol #{} ({}) "
          "has no match in {} after position {}",
          s.size(), text_name, text.size(), k + 1, describe_byte(s[k]), text_name, pos);
    pos = found + 1;
  }
  return {};
}

}  // namespace

dpgpu::Verdict Problem::check(const Instance& x, const Solution& s) {
  for (auto [text, name] : {std::pair{&x.a, "a"}, std::pair{&x.b, "b"}}) {
    auto why = why_not_subsequence(s.subsequence, *text, name);
    if (!why.empty()) return dpgpu::Verdict::invalid(std::move(why));
  }
  return dpgpu::Verdict::valid(static_cast<dpgpu::Objective>(s.subsequence.size()));
}

dpgpu::ValueMap Problem::dims(const Instance& x) {
  return {{"n", static_cast<std::int64_t>(x.a.size())},
          {"m", static_cast<std::int64_t>(x.b.size())}};
}

}  // namespace lcs

DPGPU_REGISTER_PROBLEM(lcs::Problem);
