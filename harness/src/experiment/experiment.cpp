// experiment.cpp — reads an experiment file (YAML) and checks it against the registry.
// Every error starts with "FILE:LINE:COLUMN:" and names the key, so a researcher can fix
// the file without reading this code. Sweep expansion lives in experiment_expand.cpp.
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <initializer_list>
#include <set>
#include <optional>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "dpgpu/error.hpp"
#include "experiment/experiment.hpp"
#include "reproduce/tiers.hpp"
#include "experiment/all_gpus.hpp"
#include "experiment/experiment_override.hpp"
#include "experiment/plot_section.hpp"

namespace dpgpu {
namespace {

namespace fs = std::filesystem;

using Keys = std::initializer_list<const char*>;

// The file being read: turns yaml-cpp's 0-based marks into 1-based "FILE:LINE:COLUMN".
class Source {
 public:
  explicit Source(std::string file) : file_(std::move(file)) {}
  void set_overrides(std::vector<AppliedOverride> overrides) { overrides_ = std::move(overrides); }

  // A node without a mark (only an empty document has none) points at the file's start; a
  // node that a --set put there is named by its flag.
  Where at(const YAML::Mark& m) const {
    if (m.is_null()) return {file_, 1, 1};
    for (const AppliedOverride& o : overrides_)
      if (m.line >= o.first_line && m.line <= o.last_line) return {o.flag, 0, 0};
    return {file_, m.line + 1, m.column + 1};
  }
  Where at(const YAML::Node& n) const { return at(n.Mark()); }

  [[noreturn]] void fail(const YAML::Node& n, const std::string& what) const {
    throw InputError(at(n).str() + ": " + what);
  }

 private:
  std::string file_;
  std::vector<AppliedOverride> overrides_;
};

// One `key: value` of a map, with the dotted path messages use ("instances[0].seeds").
struct Entry {
  std::string key, path;
  YAML::Node key_node, value;
  // yaml-cpp marks an empty value on the next line, so point at its key instead.
  const YAML::Node& mark() const { return value.IsNull() ? key_node : value; }
};

[[noreturn]] void fail(const Source& src, const Entry& e, const std::string& what) {
  src.fail(e.mark(), e.path + ": " + what);
}

// How a node reads in a message: "'five'", "a list", "a map", "nothing".
std::string describe(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a map";
  return "nothing";
}

// ---------------------------------------------------------------------------------------
// Scalars. Plain (unquoted) scalars are typed by YAML 1.2's core schema, trimmed to what
// an experiment needs; anything quoted stays text, so `"5"` is the string 5.

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool looks_bool(const std::string& s) {
  for (const char* t : {"true", "True", "TRUE", "false", "False", "FALSE"})
    if (s == t) return true;
  return false;
}

// [-+]?[0-9]+
bool looks_integer(const std::string& s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (!is_digit(s[i])) return false;
  return true;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool looks_real(const std::string& s) {
  std::size_t i = 0;
  auto sign = [&] {
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  };
  auto digits = [&] {
    std::size_t start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    return i - start;
  };
  sign();
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    sign();
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// from_chars takes no leading '+'.
std::string_view without_plus(const std::string& s) {
  std::string_view v = s;
  if (!v.empty() && v[0] == '+') v.remove_prefix(1);
  return v;
}

bool is_quoted(const YAML::Node& n) { return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str"; }

// The typed value of a scalar node: bool, int64 (no '.' or exponent), double, or text.
Value scalar_value(const Source& src, const YAML::Node& n, const std::string& path) {
  const std::string& s = n.Scalar();
  if (is_quoted(n)) return s;
  if (looks_bool(s)) return s[0] == 't' || s[0] == 'T';
  if (looks_integer(s)) {
    std::int64_t i = 0;
    auto text = without_plus(s);
    if (std::from_chars(text.data(), text.data() + text.size(), i).ec != std::errc{})
      src.fail(n, fmt::format("{}: integer '{}' does not fit in 64 bits", path, s));
    return i;
  }
  if (looks_real(s)) {
    double d = 0;
    auto text = without_plus(s);
    if (std::from_chars(text.data(), text.data() + text.size(), d).ec != std::errc{})
      src.fail(n, fmt::format("{}: number '{}' is out of range", path, s));
    return d;
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// Maps and lists.

// The entries of a map in file order; a key given twice is an error (yaml-cpp keeps both).
std::vector<Entry> map_entries(const Source& src, const YAML::Node& node, const std::string& path) {
  const std::string prefix = path.empty() ? "" : path + ".";
  if (!node.IsMap())
    src.fail(node, fmt::format("{}: expected a map of keys, got {}",
                               path.empty() ? "experiment file" : path, describe(node)));
  std::vector<Entry> out;
  std::unordered_map<std::string, std::size_t> first;  // O(n): 10^5 keys checked at once
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar())
      src.fail(key, fmt::format("{}: expected a plain key, got {}", path, describe(key)));
    Entry e{key.Scalar(), prefix + key.Scalar(), key, it->second};
    if (auto [seen, fresh] = first.emplace(e.key, out.size()); !fresh)
      src.fail(key, fmt::format("{}: key given twice (first at line {})", e.path,
                                src.at(out[seen->second].key_node).line));
    out.push_back(std::move(e));
  }
  return out;
}

void reject_unknown_keys(const Source& src, const std::vector<Entry>& entries,
                         const std::string& path, Keys allowed) {
  for (const Entry& e : entries) {
    bool known = false;
    for (const char* k : allowed) known = known || e.key == k;
    if (!known)
      src.fail(e.key_node,
               fmt::format("unknown key '{}'{} (allowed: {})", e.key,
                           path.empty() ? "" : " in " + path, fmt::join(allowed, ", ")));
  }
}

const Entry* find(const std::vector<Entry>& entries, const std::string& key) {
  for (const Entry& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

const Entry& require(const Source& src, const YAML::Node& map, const std::vector<Entry>& entries,
                     const std::string& path, const std::string& key) {
  if (const Entry* e = find(entries, key)) return *e;
  src.fail(map, fmt::format("{}missing required key '{}'", path.empty() ? "" : path + ": ", key));
}

// The scalars of `one` or `[one, two]` (a single scalar is a list of one); `what` says
// what each item must be ("a seed").
std::vector<YAML::Node> one_or_list(const Source& src, const Entry& e, const std::string& what) {
  if (e.value.IsScalar()) return {e.value};
  if (!e.value.IsSequence())
    fail(src, e, fmt::format("expected {} or a list of them, got {}", what, describe(e.value)));
  if (e.value.size() == 0) fail(src, e, "the list is empty");
  std::vector<YAML::Node> items;
  for (const YAML::Node& item : e.value) {
    if (!item.IsScalar())
      src.fail(item, fmt::format("{}: expected {}, got {}", e.path, what, describe(item)));
    items.push_back(item);
  }
  return items;
}

// The entries of a non-empty list that must hold maps (instances, solvers).
std::vector<YAML::Node> list_items(const Source& src, const Entry& e, const std::string& what) {
  if (!e.value.IsSequence())
    fail(src, e, fmt::format("expected a list of {}, got {}", what, describe(e.value)));
  if (e.value.size() == 0)
    fail(src, e, fmt::format("the list is empty; give at least one of the {}", what));
  return {e.value.begin(), e.value.end()};
}

// ---------------------------------------------------------------------------------------
// Typed values.

std::string read_text(const Source& src, const Entry& e) {
  if (!e.value.IsScalar()) fail(src, e, "expected text, got " + describe(e.value));
  return e.value.Scalar();
}

std::int64_t read_count(const Source& src, const Entry& e, std::int64_t at_least,
                        std::int64_t at_most) {
  Value v = e.value.IsScalar() ? scalar_value(src, e.value, e.path) : Value{std::string{}};
  auto i = std::get_if<std::int64_t>(&v);
  if (!i || *i < 0) fail(src, e, "expected a non-negative integer, got " + describe(e.value));
  if (*i < at_least) fail(src, e, fmt::format("must be at least {}, got {}", at_least, *i));
  if (*i > at_most)
    fail(src, e,
         fmt::format("must be at most {} (allowed: {} to {}), got {}", at_most, at_least, at_most,
                     *i));
  return *i;
}

// An int or a real (not a bool, not text).
std::optional<double> number_of(const Value& v) {
  if (std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v))
    return to_number(v);
  return std::nullopt;
}

double read_number(const Source& src, const Entry& e) {
  Value v = e.value.IsScalar() ? scalar_value(src, e.value, e.path) : Value{std::string{}};
  auto x = number_of(v);
  if (!x) fail(src, e, "expected a number, got " + describe(e.value));
  return *x;
}

double read_timeout(const Source& src, const Entry& e) {
  Value v = e.value.IsScalar() ? scalar_value(src, e.value, e.path) : Value{std::string{}};
  auto x = number_of(v);
  if (!x || !(*x > 0) || !(*x <= kMaxTimeoutSeconds))
    fail(src, e,
         fmt::format("expected a positive number of seconds, got {} (allowed: above 0, at most "
                     "{:.0f}, one week)",
                     describe(e.value), kMaxTimeoutSeconds));
  return *x;
}

std::string read_choice(const Source& src, const Entry& e, Keys choices) {
  std::string s = e.value.IsScalar() ? e.value.Scalar() : "";
  for (const char* c : choices)
    if (s == c) return s;
  fail(src, e,
       fmt::format("expected one of {}, got {}", fmt::join(choices, ", "), describe(e.value)));
}

// The name becomes the results folder (results/<name>/), so it must be a plain file name.
std::string read_name(const Source& src, const Entry& e) {
  std::string name = read_text(src, e);
  bool plain = !name.empty() && name[0] != '.';
  for (char c : name)
    plain =
        plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  if (!plain)
    fail(src, e,
         fmt::format("'{}' cannot name the results folder; use letters, digits, '.', '_' and '-'",
                     name));
  return name;
}

// ---------------------------------------------------------------------------------------
// Parameters: each key of `params:` is a sweep axis, each of its values checked now
// against the generator's or solver's schema, so a typo fails before anything runs.

// Schema::check_value writes the message (naming the parameter and what is allowed). Rules
// across parameters wait for whole points (expand), where every partner's value is known.
void check_param(const Source& src, const YAML::Node& at, const Schema& schema,
                 const std::string& owner, const std::string& key, const Value& v) {
  schema.check_value(key, v, src.at(at).str() + ": " + owner);
}

// The values of one axis: a scalar, or a non-empty list of scalars.
std::vector<YAML::Node> axis_items(const Source& src, const Entry& e) {
  if (e.value.IsMap())
    fail(src, e, "nested maps are not allowed in params (a list is a sweep axis)");
  if (e.value.IsNull()) fail(src, e, "expected a value or a list of values, got nothing");
  return one_or_list(src, e, "a single value");
}

Axis read_axis(const Source& src, const Entry& e, const Schema& schema, const std::string& owner) {
  // An unknown name is reported at the key; resolve lists the known ones.
  if (!schema.find(e.key)) check_param(src, e.key_node, schema, owner, e.key, Value{});
  Axis axis{e.key, {}, src.at(e.key_node)};
  std::set<Value> seen;  // O(n log n): a sweep of 10^6 values is checked in a second
  for (const YAML::Node& item : axis_items(src, e)) {
    Value v = scalar_value(src, item, e.path);
    if (!is_all_gpus(e.key, v)) check_param(src, item, schema, owner, e.key, v);  // all: at expand
    if (!seen.insert(v).second)
      src.fail(item, fmt::format("{}: value {} appears twice in the sweep", e.path, to_string(v)));
    axis.values.push_back(std::move(v));
  }
  return axis;
}

std::vector<Axis> read_axes(const Source& src, const Entry& params, const Schema& schema,
                            const std::string& owner) {
  if (params.value.IsNull()) return {};  // `params:` with nothing: all defaults
  std::vector<Axis> axes;
  for (const Entry& e : map_entries(src, params.value, params.path))
    axes.push_back(read_axis(src, e, schema, owner));
  return axes;
}

// ---------------------------------------------------------------------------------------
// Instances.

// A seed is any 64-bit unsigned value, 0 to 2^64-1 (mt19937_64 takes them all).
std::uint64_t read_seed(const Source& src, const YAML::Node& item, const std::string& path) {
  const std::string& s = item.Scalar();
  if (is_quoted(item) || !looks_integer(s) || s[0] == '-')
    src.fail(item,
             fmt::format("{}: expected a non-negative integer, got {}", path, describe(item)));
  std::uint64_t seed = 0;
  auto text = without_plus(s);
  if (std::from_chars(text.data(), text.data() + text.size(), seed).ec != std::errc{})
    src.fail(item, fmt::format("{}: seed {} is above 2^64-1 = 18446744073709551615", path, s));
  return seed;
}

std::vector<std::uint64_t> read_seeds(const Source& src, const Entry& e) {
  std::vector<std::uint64_t> seeds;
  std::unordered_set<std::uint64_t> seen;  // O(n): 10^6 seeds are checked in a second
  for (const YAML::Node& item : one_or_list(src, e, "a non-negative integer")) {
    const std::uint64_t seed = read_seed(src, item, e.path);
    if (!seen.insert(seed).second)
      src.fail(item, fmt::format("{}: seed {} appears twice", e.path, seed));
    seeds.push_back(seed);
  }
  return seeds;
}

// Relative paths are relative to the experiment file's folder, not to where dpgpu runs.
fs::path resolve_path(const fs::path& base_dir, const std::string& written) {
  fs::path p(written);
  return (p.is_absolute() ? p : base_dir / p).lexically_normal();
}

void check_readable(const Source& src, const YAML::Node& at, const std::string& path,
                    const std::string& written, const fs::path& resolved) {
  auto why = [&](const std::string& problem) {
    src.fail(at, fmt::format("{}: '{}' {} (resolved to '{}')", path, written, problem,
                             resolved.string()));
  };
  std::error_code ec;
  fs::file_status st = fs::status(resolved, ec);
  if (st.type() == fs::file_type::not_found) why("does not exist");
  if (ec) why("cannot be checked: " + ec.message());
  if (fs::is_directory(st)) why("is a folder, expected a file");
  // Opening a FIFO to read waits for a writer, forever: only regular files are read.
  if (!fs::is_regular_file(st))
    why("is not a regular file (a FIFO, a device or a socket), expected a file");
  if (!std::ifstream(resolved)) why("cannot be read");
}

FileSource read_file_source(const Source& src, const std::vector<Entry>& entries,
                            const fs::path& base_dir) {
  FileSource files;
  const Entry& file = *find(entries, "file");
  for (const YAML::Node& item : one_or_list(src, file, "a file path")) {
    fs::path resolved = resolve_path(base_dir, item.Scalar());
    check_readable(src, item, file.path, item.Scalar(), resolved);
    files.paths.push_back(resolved);
  }
  if (const Entry* select = find(entries, "select")) files.select = read_text(src, *select);
  return files;
}

// Keys that belong to the other kind of source are errors, not silently ignored.
void reject_keys_of_other_source(const Source& src, const std::vector<Entry>& entries, Keys keys,
                                 const std::string& kind) {
  for (const char* k : keys)
    if (const Entry* e = find(entries, k))
      src.fail(e->key_node, fmt::format("{}: only {} take it", e->path, kind));
}

const GeneratorEntry& find_generator(const Source& src, const Entry& e,
                                     const ProblemEntry& problem) {
  std::string name = read_text(src, e);
  if (const GeneratorEntry* g = problem.generator(name)) return *g;
  std::vector<std::string> known;
  for (const GeneratorEntry& g : problem.generators) known.push_back(g.name);
  fail(src, e,
       fmt::format("unknown generator '{}' for problem '{}' (known: {})", name, problem.name,
                   known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
}

void read_generator_source(const Source& src, const std::vector<Entry>& entries,
                           const ProblemEntry& problem, InstanceSource& out) {
  reject_keys_of_other_source(src, entries, {"select"}, "file sources");
  const GeneratorEntry& gen = find_generator(src, *find(entries, "generator"), problem);
  out.generator = gen.name;
  if (const Entry* params = find(entries, "params"))
    out.params = read_axes(src, *params, gen.schema, fmt::format("generator '{}'", gen.name));
  if (const Entry* seeds = find(entries, "seeds")) out.seeds = read_seeds(src, *seeds);
}

InstanceSource read_instance(const Source& src, const YAML::Node& node, const std::string& path,
                             const ProblemEntry& problem, const fs::path& base_dir) {
  auto entries = map_entries(src, node, path);
  reject_unknown_keys(src, entries, path, {"generator", "params", "seeds", "file", "select"});
  bool generated = find(entries, "generator"), from_file = find(entries, "file");
  if (generated && from_file)
    src.fail(node, path + ": give either 'generator' or 'file', not both");
  if (!generated && !from_file)
    src.fail(node, path + ": missing 'generator' or 'file' (one of them)");
  InstanceSource s;
  s.where = src.at(node);
  if (generated) {
    read_generator_source(src, entries, problem, s);
  } else {
    reject_keys_of_other_source(src, entries, {"params", "seeds"}, "generator sources");
    s.file = read_file_source(src, entries, base_dir);
    s.seeds.clear();  // a file is one instance; expand() gives it seed 0
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// Solvers.

const SolverEntry& find_solver(const Source& src, const Entry& e, const ProblemEntry& problem) {
  std::string name = read_text(src, e);
  if (const SolverEntry* s = Registry::get().solver(problem.name, name)) {
    if (!s->broken.empty()) fail(src, e, "broken registration: " + s->registration_error());
    return *s;
  }
  std::vector<std::string> known;
  for (const SolverEntry* s : Registry::get().solvers(problem.name)) known.push_back(s->name);
  fail(src, e,
       fmt::format("unknown solver '{}' for problem '{}' (known: {})", name, problem.name,
                   known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
}

std::map<std::string, double> read_caps(const Source& src, const Entry& max,
                                        std::map<std::string, Where>& where) {
  std::map<std::string, double> caps;
  for (const Entry& e : map_entries(src, max.value, max.path)) {
    caps[e.key] = read_number(src, e);
    where[e.key] = src.at(e.key_node);
  }
  return caps;
}

// A solver entry is a map, or just its name (`- cpu.full_table`).
SolverSpec read_solver(const Source& src, const YAML::Node& node, const std::string& path,
                       const ProblemEntry& problem) {
  SolverSpec spec;
  spec.where = src.at(node);
  if (node.IsScalar()) {
    spec.name = find_solver(src, Entry{"name", path, node, node}, problem).name;
    return spec;
  }
  auto entries = map_entries(src, node, path);
  reject_unknown_keys(src, entries, path, {"name", "params", "max"});
  const SolverEntry& solver = find_solver(src, require(src, node, entries, path, "name"), problem);
  spec.name = solver.name;
  // An unavailable solver is still checked: the runner records it as skipped.
  if (const Entry* params = find(entries, "params"))
    spec.params = read_axes(src, *params, solver.schema, fmt::format("solver '{}'", solver.name));
  if (const Entry* max = find(entries, "max")) spec.max = read_caps(src, *max, spec.max_where);
  return spec;
}

// ---------------------------------------------------------------------------------------
// The whole file.

const ProblemEntry& find_problem(const Source& src, const Entry& e) {
  std::string name = read_text(src, e);
  if (const ProblemEntry* p = Registry::get().problem(name)) return *p;
  std::vector<std::string> known;
  for (const ProblemEntry* p : Registry::get().problems()) known.push_back(p->name);
  fail(src, e,
       fmt::format("unknown problem '{}' (known: {})", name,
                   known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
}

ProfileSpec read_profile(const Source& src, const Entry& profile) {
  auto entries = map_entries(src, profile.value, profile.path);
  reject_unknown_keys(src, entries, profile.path,
                      {"metrics", "max_launches", "backend", "cache_control", "replay"});
  ProfileSpec spec;
  const Entry& metrics = require(src, profile.value, entries, profile.path, "metrics");
  for (const YAML::Node& m : one_or_list(src, metrics, "a metric name")) {
    spec.metrics.push_back(m.Scalar());
    spec.metric_where.push_back(src.at(m));
  }
  if (const Entry* n = find(entries, "max_launches"))
    spec.max_launches = read_count(src, *n, 1, kMaxProfiledLaunches);
  if (const Entry* b = find(entries, "backend"))
    spec.backend = read_choice(src, *b, {"cupti", "ncu"});
  // Both backends flush the L2 cache before a profiled launch (all) or not (none); how ncu
  // replays is ncu's: the CUPTI backend solves once per counter pass.
  if (const Entry* c = find(entries, "cache_control"))
    spec.cache_control = read_choice(src, *c, {"all", "none"});
  if (const Entry* r = find(entries, "replay")) {
    spec.replay = read_choice(src, *r, {"kernel", "application"});
    if (spec.backend != "ncu")
      fail(src, *r,
           fmt::format("replay is an ncu option: it needs backend: ncu (the backend is {})",
                       spec.backend));
  }
  return spec;
}

// Kept as text: the plot scripts own its meaning.
std::string emit_yaml(const YAML::Node& n) {
  if (n.IsNull()) return "";
  YAML::Emitter out;
  out << n;
  return out.c_str();
}

std::string read_whole_file(const fs::path& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec))
    throw InputError(file.string() + ": is a folder, expected an experiment file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot read the experiment file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Where each document of a YAML stream starts (a second one is an error, not ignored).
struct DocumentStarts : YAML::EventHandler {
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& m) override { starts.push_back(m); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Where a second document of the stream starts, if there is one. At most two documents are
// read: yaml-cpp's parser does not advance past some broken input (a lone ","), so reading
// "all" documents, as YAML::LoadAll does, never ends there; a start that did not move on
// from the first is that case, not a second document.
std::optional<YAML::Mark> second_document(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  try {
    for (int i = 0; i < 2 && parser.HandleNextDocument(starts); ++i) {
    }
  } catch (const YAML::Exception&) {
    return std::nullopt;  // YAML::Load has already read the first document's errors
  }
  if (starts.starts.size() < 2 || starts.starts[1].pos <= starts.starts[0].pos) return std::nullopt;
  return starts.starts[1];
}

YAML::Node load_yaml(const Source& src, const std::string& text) {
  YAML::Node document;
  try {
    document = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError(fmt::format(
        "{}: nested {} levels deep, past the YAML reader's limit; an experiment needs a "
        "few levels (look for unclosed or repeated brackets)",
        src.at(e.mark).str(), e.depth()));
  } catch (const YAML::Exception& e) {
    throw InputError(src.at(e.mark).str() + ": " + e.msg);
  }
  if (auto second = second_document(text))
    throw InputError(
        fmt::format("{}: a second YAML document ('---') begins here; an experiment file holds one "
                    "(remove it, or put it in a file of its own)",
                    src.at(*second).str()));
  return document;
}

const Keys kTopLevelKeys = {
    "name",        "description",     "problem",         "instances", "solvers",
    "repetitions", "warmup",          "max_repetitions", "max_noise", "cold",
    "series",      "timeout_s",       "isolate",         "profile",   "plot",
    "parts",       "energy_window_s", "clocks",          "claims",    "tiers"};

bool read_flag(const Source& src, const Entry& e) {
  Value v = e.value.IsScalar() ? scalar_value(src, e.value, e.path) : Value{std::string{}};
  auto b = std::get_if<bool>(&v);
  if (!b) fail(src, e, "expected true or false, got " + describe(e.value));
  return *b;
}

ClockRequest read_clocks(const Source& src, const Entry& clocks) {
  auto entries = map_entries(src, clocks.value, clocks.path);
  reject_unknown_keys(src, entries, clocks.path, {"sm", "memory"});
  ClockRequest r;
  for (const std::string key : {"sm", "memory"})
    if (const Entry* x = find(entries, key)) {
      const std::string v = x->value.IsScalar() ? x->value.Scalar() : "";
      if (auto why = clock_value_error(key, v); !why.empty()) fail(src, *x, why);
      (key == "sm" ? r.sm : r.memory) = v;
    }
  return r;
}

void read_energy_settings(const Source& src, const std::vector<Entry>& top, Experiment& e) {
  if (const Entry* x = find(top, "energy_window_s")) {
    const double v = read_number(src, *x);
    if (!(v >= 0 && v <= 3600))
      fail(src, *x,
           "expected seconds from 0 to 3600 (0: the timed repetitions alone), got " +
               describe(x->value));
    e.energy_window_s = v;
  }
  if (const Entry* x = find(top, "clocks")) e.clocks = read_clocks(src, *x);
}

void read_run_settings(const Source& src, const std::vector<Entry>& top, Experiment& e) {
  read_energy_settings(src, top, e);
  if (const Entry* x = find(top, "repetitions"))
    e.repetitions = read_count(src, *x, 1, kMaxRepetitions);
  if (const Entry* x = find(top, "warmup")) e.warmup = read_count(src, *x, 0, kMaxRepetitions);
  if (const Entry* x = find(top, "timeout_s")) e.timeout_s = read_timeout(src, *x);
  if (const Entry* x = find(top, "isolate"))
    e.isolate = read_choice(src, *x, {"auto", "always", "never"});
  if (const Entry* x = find(top, "cold")) e.cold = read_flag(src, *x);
  if (const Entry* x = find(top, "series")) e.series = read_flag(src, *x);
  e.max_repetitions = e.repetitions;
  if (const Entry* x = find(top, "max_repetitions")) {
    e.max_repetitions = read_count(src, *x, 1, kMaxRepetitions);
    if (e.max_repetitions < e.repetitions)
      fail(src, *x,
           fmt::format("must be at least repetitions ({}), got {}", e.repetitions,
                       e.max_repetitions));
  }
  if (const Entry* x = find(top, "max_noise")) {
    double v = read_number(src, *x);
    if (!(v > 0) || !std::isfinite(v))
      fail(
          src, *x,
          "expected a positive relative standard deviation (e.g. 0.02), got " + describe(x->value));
    e.max_noise = v;
  }
}

}  // namespace

namespace {

// problem, instances and solvers of one part: the whole file, or one item of `parts`.
void read_problem_part(const Source& src, const YAML::Node& node, const std::vector<Entry>& entries,
                       const std::string& path, const fs::path& base_dir, Experiment& e) {
  const ProblemEntry& problem = find_problem(src, require(src, node, entries, path, "problem"));
  e.problem = problem.name;
  const std::string prefix = path.empty() ? "" : path + ".";
  const Entry& instances = require(src, node, entries, path, "instances");
  std::size_t i = 0;
  for (const YAML::Node& item : list_items(src, instances, "instance sources"))
    e.instances.push_back(
        read_instance(src, item, fmt::format("{}instances[{}]", prefix, i++), problem, base_dir));
  const Entry& solvers = require(src, node, entries, path, "solvers");
  i = 0;
  for (const YAML::Node& item : list_items(src, solvers, "solvers"))
    e.solvers.push_back(read_solver(src, item, fmt::format("{}solvers[{}]", prefix, i++), problem));
}

}  // namespace

std::vector<Experiment> parse_experiment_parts(const std::filesystem::path& file,
                                               const std::vector<Override>& overrides) {
  Experiment shared;
  shared.path = file;
  shared.source_text = read_whole_file(file);
  Source src(file.string());
  YAML::Node root = load_yaml(src, shared.source_text);
  if (!overrides.empty()) {
    const int lines =
        int(std::count(shared.source_text.begin(), shared.source_text.end(), '\n')) + 1;
    src.set_overrides(apply_overrides(root, overrides, file.string(), lines));
    shared.source_text = overridden_text(root, overrides, file.string());
  }
  if (root.IsNull())
    src.fail(root, "the file is empty; an experiment needs problem, instances and solvers");
  auto top = map_entries(src, root, "");
  reject_unknown_keys(src, top, "", kTopLevelKeys);

  shared.name = file.stem().string();
  if (const Entry* x = find(top, "name")) shared.name = read_name(src, *x);
  if (const Entry* x = find(top, "description")) shared.description = read_text(src, *x);
  read_run_settings(src, top, shared);
  if (const Entry* x = find(top, "profile")) shared.profile = read_profile(src, *x);
  if (const Entry* x = find(top, "plot")) {
    shared.plot = read_plot_section(x->value.IsNull() ? x->key_node : x->value, file.string());
    shared.plot_yaml = emit_yaml(x->value);
  }
  if (const Entry* x = find(top, "claims"))
    shared.claims = read_claims_section(x->value, file.string());
  if (const Entry* x = find(top, "tiers"))  // dpgpu reproduce's tiers (reproduce/tiers.hpp)
    check_tiers(x->value, root, file.string(), shared.claims);

  const fs::path base_dir = fs::absolute(file).parent_path();
  std::vector<Experiment> parts;
  const Entry* parts_entry = find(top, "parts");
  if (!parts_entry) {
    read_problem_part(src, root, top, "", base_dir, shared);
    parts.push_back(std::move(shared));
    return parts;
  }
  for (const char* key : {"problem", "instances", "solvers"})
    if (const Entry* x = find(top, key))
      fail(src, *x,
           fmt::format("'{}' belongs inside each item of parts when the file has parts", key));
  std::size_t i = 0;
  for (const YAML::Node& node : list_items(src, *parts_entry, "parts")) {
    const std::string path = fmt::format("parts[{}]", i);
    auto entries = map_entries(src, node, path);
    reject_unknown_keys(src, entries, path, {"problem", "instances", "solvers", "description"});
    Experiment e = shared;
    e.part = i++;
    if (const Entry* x = find(entries, "description")) e.description = read_text(src, *x);
    read_problem_part(src, node, entries, path, base_dir, e);
    parts.push_back(std::move(e));
  }
  if (parts.empty())
    fail(src, *parts_entry, "parts is empty; give at least one {problem, instances, solvers}");
  return parts;
}

Experiment parse_experiment(const std::filesystem::path& file,
                            const std::vector<Override>& overrides) {
  auto parts = parse_experiment_parts(file, overrides);
  if (parts.size() > 1)
    throw InputError(fmt::format("{}: has {} parts; this use takes a single-problem experiment",
                                 file.string(), parts.size()));
  return std::move(parts.front());
}

}  // namespace dpgpu
