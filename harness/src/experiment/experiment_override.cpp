#include "experiment/experiment_override.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <utility>
#include <sstream>

#include "dpgpu/error.hpp"

namespace dpgpu {

namespace {

std::vector<std::string> split_dots(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto dot = path.find('.', start);
    out.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

// A list item's name: a bare scalar, else its name, generator or file, or a part's problem.
std::string item_name(const YAML::Node& item) {
  if (item.IsScalar()) return item.Scalar();
  if (item.IsMap())
    for (const char* key : {"name", "generator", "file", "problem"})
      if (item[key] && item[key].IsScalar()) return item[key].Scalar();
  return "";
}

std::string line_of(const YAML::Node& item) {
  const YAML::Mark m = item.Mark();
  return m.is_null() ? std::string("?") : std::to_string(m.line + 1);
}

// The item of `list` that parts[i..] names, and how many parts its name spans: the longest
// name that matches (`gpu.wavefront` spans two), else an index (`instances.1`). `fail` is
// called when none matches or when two items share the name.
std::pair<std::size_t, std::size_t> find_item(const YAML::Node& list,
                                              const std::vector<std::string>& parts, std::size_t i,
                                              const std::function<void(const std::string&)>& fail) {
  std::size_t best = 0;
  std::vector<std::size_t> matches;
  std::vector<std::string> names;
  for (std::size_t k = 0; k < list.size(); ++k) {
    std::string name = item_name(list[k]), joined;
    names.push_back(name.empty() ? std::to_string(k) : name);
    for (std::size_t j = i; j < parts.size(); ++j) {
      joined += (j > i ? "." : "") + parts[j];
      if (joined != name || j + 1 - i < best) continue;
      if (j + 1 - i > best) matches.clear();
      best = j + 1 - i, matches.push_back(k);
    }
  }
  const std::string where =
      fmt::format("{}", fmt::join(parts.begin(), parts.begin() + long(i), "."));
  if (matches.size() > 1) {
    std::vector<std::string> found;
    for (std::size_t k : matches)
      found.push_back(fmt::format("item {} (line {})", k, line_of(list[k])));
    fail(fmt::format(
        "'{}' is ambiguous: {} items of the list at '{}' are named so ({}); name one by its "
        "index ({}.{}...) or give them distinct names (name: ...)",
        parts[i], matches.size(), where, fmt::join(found, ", "), where, matches.front()));
  }
  if (best > 0) return {matches.front(), best};
  const std::string& part = parts[i];
  if (!part.empty() && part.size() < 9 &&
      part.find_first_not_of("0123456789") == std::string::npos && std::stoul(part) < list.size())
    return {std::stoul(part), 1};
  fail(fmt::format("no item named '{}' in the list at '{}' (items: {}; or an index 0 to {})", part,
                   where, fmt::join(names, ", "), list.size() - 1));
  return {0, 0};
}

// `text` as a double-quoted YAML scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// YAML text loaded at line `line`, column `column`: blank lines and spaces before it, so that
// its marks say where it came from (AppliedOverride; the file's own place for a solver name).
YAML::Node load_at(const std::string& text, int line, int column) {
  return YAML::Load(std::string(std::size_t(line), '\n') + std::string(std::size_t(column), ' ') +
                    text);
}

YAML::Node marked_key(const std::string& key, int first_line) {
  return load_at(quoted(key), first_line, 0);
}

// `- cpu.x` as `- {name: cpu.x}`, at the name's place in the file (messages point there).
YAML::Node named_map(const YAML::Node& bare) {
  const YAML::Mark m = bare.Mark();
  return load_at("{name: " + quoted(bare.Scalar()) + "}", m.is_null() ? 0 : m.line,
                 m.is_null() ? 0 : m.column);
}

// The value's nodes, marked as if on lines `first_line` and on (see AppliedOverride).
YAML::Node parse_value(const Override& o, int first_line) {
  try {
    return YAML::Load(std::string(std::size_t(first_line), '\n') + o.value);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("--set {}={}: the value is not YAML: {}", o.path, o.value, e.msg));
  }
}

void apply(YAML::Node root, const Override& o, const std::string& file, int first_line) {
  const auto parts = split_dots(o.path);
  YAML::Node node;
  node.reset(root);
  std::size_t i = 0;
  auto fail = [&](const std::string& why) {
    throw InputError(fmt::format("--set {}={}: {}: {}", o.path, o.value, file, why));
  };
  while (i < parts.size()) {
    if (node.IsSequence()) {
      const auto [index, best] = find_item(node, parts, i, fail);
      i += best;
      if (node[index].IsScalar())
        node[index] = named_map(node[index]);  // a bare solver name: a map to hold the change
      if (i == parts.size()) fail("names a list item; name one of its keys (e.g. params.NAME)");
      node.reset(node[index]);  // rebind: operator= would overwrite the node's value
      continue;
    }
    if (!node.IsMap() && !node.IsNull())
      fail(fmt::format("'{}' is a value, not a map",
                       fmt::join(parts.begin(), parts.begin() + long(i), ".")));
    const std::string& key = parts[i];
    const bool last = i + 1 == parts.size();
    // Looked up through a const view: a non-const operator[] inserts an empty entry.
    if (std::as_const(node)[key]) {
      if (last) {
        node[key] = parse_value(o, first_line);
        return;
      }
    } else {
      if (i == 0 && !last) fail(fmt::format("the file has no top-level key '{}'", key));
      // A new key (params: {} for a solver without one, or the parameter itself), marked
      // as the flag's, so a message about it ("unknown parameter") names the flag.
      node.force_insert(marked_key(key, first_line),
                        last ? parse_value(o, first_line) : YAML::Node(YAML::NodeType::Map));
      if (last) return;
    }
    node.reset(node[key]);
    ++i;
  }
}

}  // namespace

Override parse_override(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw InputError(fmt::format(
        "--set '{}': expected PATH=VALUE, e.g. solvers.gpu.wavefront.params.tile_width=[256,512]",
        text));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::vector<Override> parse_overrides(const std::vector<std::string>& texts) {
  std::vector<Override> out;
  for (const auto& t : texts) out.push_back(parse_override(t));
  return out;
}

std::vector<AppliedOverride> apply_overrides(YAML::Node root,
                                             const std::vector<Override>& overrides,
                                             const std::string& file, int file_lines) {
  std::vector<AppliedOverride> applied;
  int next = file_lines + 1;
  for (const auto& o : overrides) {
    const int lines = int(std::count(o.value.begin(), o.value.end(), '\n'));
    apply(root, o, file, next);
    applied.push_back({next, next + lines, o.flag()});
    next += lines + 1;
  }
  return applied;
}

std::string overridden_text(const YAML::Node& root, const std::vector<Override>& overrides,
                            const std::string& file) {
  std::ostringstream out;
  out << "# " << file << ", run with:\n";
  for (const auto& o : overrides) out << "#   " << o.flag() << "\n";
  YAML::Emitter emitter;
  emitter << root;
  out << emitter.c_str() << "\n";
  return out.str();
}

std::string apply_overrides(const std::string& yaml_text, const std::vector<Override>& overrides,
                            const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: not YAML: {}", file, e.msg));
  }
  apply_overrides(root, overrides, file,
                  int(std::count(yaml_text.begin(), yaml_text.end(), '\n')) + 1);
  return overridden_text(root, overrides, file);
}

}  // namespace dpgpu
