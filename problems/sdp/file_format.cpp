// The S-DP file reader and Problem::load.
#include "sdp/file_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"

namespace sdp {

namespace {

using dpgpu::InputError;

struct Where {
  const std::filesystem::path& path;
  std::size_t line;
  std::string str() const { return fmt::format("{}:{}", path.string(), line); }
};

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool is_number(std::string_view f) {
  return !f.empty() && (std::isdigit(static_cast<unsigned char>(f[0])) || f[0] == '-');
}

std::int64_t integer(std::string_view f, const Where& w, const char* what) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (ec == std::errc::result_out_of_range)
    throw InputError(fmt::format("{}: {} '{}' does not fit a 64-bit integer", w.str(), what, f));
  if (ec != std::errc() || end != f.data() + f.size())
    throw InputError(fmt::format("{}: {} '{}' is not an integer", w.str(), what, f));
  return v;
}

struct Entry {
  std::size_t line = 0;
  std::vector<std::string_view> values;
};

}  // namespace

namespace {

using Entries = std::map<std::string, Entry>;

// The file's keys and their values, each with the line it starts on; a list (offsets, init)
// continues on number-only lines. Throws on an unknown, repeated or missing key.
Entries read_entries(std::string_view text, const std::filesystem::path& path) {
  static const std::vector<std::string> known{"n", "op", "modulus", "offsets", "init"};
  Entries entries;
  std::string last_list;  // "offsets" or "init": number-only lines continue it
  std::size_t number = 0, at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    auto f = fields(line);
    if (f.empty()) continue;
    const Where w{path, number};
    if (is_number(f[0])) {
      if (last_list.empty())
        throw InputError(fmt::format(
            "{}: numbers without a key (expected one of: n, op, modulus, offsets, init)", w.str()));
      auto& v = entries[last_list].values;
      v.insert(v.end(), f.begin(), f.end());
      continue;
    }
    const std::string key(f[0]);
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw InputError(fmt::format(
          "{}: unknown key '{}' (expected one of: n, op, modulus, offsets, init)", w.str(), key));
    if (entries.count(key))
      throw InputError(
          fmt::format("{}: key '{}' repeated (first on line {})", w.str(), key, entries[key].line));
    entries[key] = Entry{number, {f.begin() + 1, f.end()}};
    last_list = (key == "offsets" || key == "init") ? key : "";
    if ((key == "n" || key == "op" || key == "modulus") && f.size() != 2)
      throw InputError(
          fmt::format("{}: key '{}' takes one value, got {}", w.str(), key, f.size() - 1));
  }
  const std::size_t last_line = number;
  for (const char* required : {"n", "op", "offsets", "init"})
    if (!entries.count(required))
      throw InputError(fmt::format("{}:{}: missing key '{}'", path.string(), last_line, required));
  return entries;
}

// The instance the entries spell, each value checked on its own (range, sign, type).
Instance instance_from(Entries& entries, const std::filesystem::path& path) {
  Instance x;
  {
    const Entry& e = entries["n"];
    x.n = integer(e.values[0], {path, e.line}, "n");
  }
  {
    const Entry& e = entries["op"];
    try {
      x.op = op_from(std::string(e.values[0]));
    } catch (const InputError& err) {
      throw InputError(fmt::format("{}:{}: op: {}", path.string(), e.line, err.what()));
    }
  }
  if (entries.count("modulus")) {
    const Entry& e = entries["modulus"];
    const std::int64_t m = integer(e.values[0], {path, e.line}, "modulus");
    if (m < 1 || std::uint64_t(m) > kMaxValue)
      throw InputError(
          fmt::format("{}:{}: modulus must be in [1, 2^62], got {}", path.string(), e.line, m));
    x.modulus = std::uint64_t(m);
  }
  {
    const Entry& e = entries["offsets"];
    for (auto v : e.values) x.offsets.push_back(integer(v, {path, e.line}, "offset"));
    if (x.offsets.empty())
      throw InputError(
          fmt::format("{}:{}: offsets: at least one is needed", path.string(), e.line));
  }
  {
    const Entry& e = entries["init"];
    for (auto v : e.values) {
      const std::int64_t iv = integer(v, {path, e.line}, "initial value");
      if (iv < 0)
        throw InputError(
            fmt::format("{}:{}: initial value {} is negative", path.string(), e.line, iv));
      x.init.push_back(std::uint64_t(iv));
    }
  }
  return x;
}

}  // namespace

dpgpu::Loaded<Instance> parse_instance(std::string_view text, const std::filesystem::path& path) {
  Entries entries = read_entries(text, path);
  Instance x = instance_from(entries, path);
  if (auto why = why_malformed(x); !why.empty()) {
    // Name the line of the key the complaint is about.
    std::size_t line = entries["offsets"].line;
    if (why.find("initial") != std::string::npos)
      line = entries["init"].line;
    else if (why.find("n must") == 0)
      line = entries["n"].line;
    else if (why.find("modulus") == 0 && entries.count("modulus"))
      line = entries["modulus"].line;
    throw InputError(fmt::format("{}:{}: {}", path.string(), line, why));
  }
  return {path.stem().string(), std::move(x), std::nullopt};
}

std::vector<dpgpu::Loaded<Instance>> Problem::load(const dpgpu::FileSource& src) {
  if (src.paths.empty()) throw InputError("sdp: a file source needs at least one path");
  std::vector<dpgpu::Loaded<Instance>> out;
  for (const auto& path : src.paths) {
    out.push_back(parse_instance(dpgpu::read_whole_file(path), path));
  }
  if (!src.select.empty()) {
    for (auto& l : out)
      if (l.name == src.select) return {std::move(l)};
    throw InputError(fmt::format("sdp: select: no instance named '{}'", src.select));
  }
  return out;
}

}  // namespace sdp
