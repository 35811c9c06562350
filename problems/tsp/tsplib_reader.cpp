// The TSPLIB95 reader: keyword lines ("KEY : value", spaces around ':' optional), then
// sections of whitespace-separated numbers that may wrap across lines in any way. A line
// whose first character is a digit, sign or '.' is data; any other non-blank line is a
// keyword, which also ends the section before it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include "dpgpu/error.hpp"
#include "edge_weight_formats.hpp"
#include "text_lines.hpp"
#include "tsp/tsplib.hpp"
#include "tsplib_distances.hpp"

namespace tsp {

namespace {

// The numbers of one section, and the line each data line started at (for messages).
template <class T>
struct Numbers {
  std::vector<T> values;
  std::vector<std::pair<std::size_t, int>> line_starts;  // (index of its first value, line)

  int line_of(std::size_t k) const {
    auto after = std::upper_bound(line_starts.begin(), line_starts.end(), k,
                                  [](std::size_t v, const auto& start) { return v < start.first; });
    return std::prev(after)->second;
  }
};

bool is_data_line(std::string_view trimmed) {
  const char c = trimmed.front();
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
}

std::optional<double> parse_real(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Integers, also written as integral reals ("12.0", "1e3").
std::optional<std::int64_t> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && end == s.data() + s.size()) return v;
  auto real = parse_real(s);
  if (real && *real == std::trunc(*real) && std::fabs(*real) <= 9007199254740992.0)
    return std::int64_t(*real);
  return std::nullopt;
}

// "ulysses16.tsp" → "ulysses16": some files name themselves with the extension.
std::string without_extension(std::string_view name) {
  for (std::string_view ext : {".TSP", ".ATSP"})
    if (name.size() > ext.size() && upper(name.substr(name.size() - ext.size())) == ext)
      return std::string(name.substr(0, name.size() - ext.size()));
  return std::string(name);
}

// The first word of a keyword's value (enumerated values; some files add remarks after it).
std::string first_word_upper(std::string_view value) {
  auto words = split_words(value);
  return words.empty() ? std::string() : upper(words.front());
}

constexpr const char* kDistanceTypes = "EXPLICIT, EUC_2D, CEIL_2D, ATT, GEO, MAN_2D";

class Parser {
 public:
  Parser(std::string_view text, const std::string& where)
      : where_(where), lines_(split_lines(text)) {}

  TsplibFile run() {
    while (next_ < lines_.size() && !ended_) {
      const int number = static_cast<int>(next_) + 1;
      const auto line = trim(lines_[next_++]);
      if (line.empty()) continue;
      if (is_data_line(line)) fail(number, fmt::format("numbers outside any section: '{}'", line));
      keyword(line, number);
    }
    if (!ended_) end_line_ = std::max<int>(1, static_cast<int>(lines_.size()));
    return finish();
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw dpgpu::InputError(fmt::format("{}:{}: {}", where_, line, what));
  }

  void keyword(std::string_view line, int number) {
    std::size_t k = 0;
    while (k < line.size() && (std::isalnum(static_cast<unsigned char>(line[k])) || line[k] == '_'))
      ++k;
    if (k == 0) fail(number, fmt::format("'{}' is neither a keyword nor numbers", line));
    const std::string key = upper(line.substr(0, k));
    auto value = trim(line.substr(k));
    if (!value.empty() && value.front() == ':') value = trim(value.substr(1));

    if (key != "COMMENT") {
      auto [at, fresh] = seen_.emplace(key, number);
      if (!fresh) fail(number, fmt::format("{} given twice (first on line {})", key, at->second));
    }
    if (key == "NAME") {
      name_ = without_extension(value);
    } else if (key == "COMMENT") {
      if (!comment_.empty()) comment_ += '\n';  // several COMMENT lines: one per line
      comment_ += value;
    } else if (key == "TYPE") {
      type_ = first_word_upper(value);
      if (type_ != "TSP" && type_ != "ATSP")
        fail(number, fmt::format("TYPE '{}' is not supported; supported: TSP, ATSP", value));
    } else if (key == "DIMENSION") {
      auto n = parse_integer(value);
      if (!n || *n < 1 || *n > kMaxCities)
        fail(number,
             fmt::format(
                 "DIMENSION '{}' must be an integer in [1, {}] (a full matrix is kept in memory)",
                 value, kMaxCities));
      n_ = static_cast<int>(*n);
    } else if (key == "EDGE_WEIGHT_TYPE") {
      weight_type_ = first_word_upper(value);
      distance_ = distance_type_named(weight_type_);
      if (!distance_ && weight_type_ != "EXPLICIT")
        fail(number, fmt::format("EDGE_WEIGHT_TYPE '{}' is not supported; supported: {}", value,
                                 kDistanceTypes));
    } else if (key == "EDGE_WEIGHT_FORMAT") {
      const auto f = first_word_upper(value);
      format_ = weight_format_named(f);
      if (!format_ && f != "FUNCTION")
        fail(number,
             fmt::format("EDGE_WEIGHT_FORMAT '{}' is not supported; supported: FUNCTION, {}", value,
                         weight_format_names()));
    } else if (key == "NODE_COORD_TYPE") {
      const auto t = first_word_upper(value);
      if (t != "TWOD_COORDS" && t != "NO_COORDS")
        fail(number,
             fmt::format("NODE_COORD_TYPE '{}' is not supported; supported: TWOD_COORDS, NO_COORDS",
                         value));
    } else if (key == "DISPLAY_DATA_TYPE") {
      const auto t = first_word_upper(value);
      if (t != "COORD_DISPLAY" && t != "TWOD_DISPLAY" && t != "NO_DISPLAY")
        fail(number,
             fmt::format(
                 "DISPLAY_DATA_TYPE '{}' is not supported; supported: COORD_DISPLAY, TWOD_DISPLAY, "
                 "NO_DISPLAY",
                 value));
    } else if (key == "EOF") {
      ended_ = true;
      end_line_ = number;
    } else if (key == "NODE_COORD_SECTION") {
      read_coordinates(value, number);
    } else if (key == "EDGE_WEIGHT_SECTION") {
      read_weights(value, number);
    } else if (key == "DISPLAY_DATA_SECTION") {
      skip_data_lines();  // drawing positions only; never distances
    } else if (key == "CAPACITY" || key == "DEMAND_SECTION" || key == "DEPOT_SECTION") {
      fail(number, fmt::format("{} belongs to TYPE CVRP; this reader takes TSP and ATSP", key));
    } else if (key == "EDGE_DATA_FORMAT" || key == "EDGE_DATA_SECTION") {
      fail(number,
           fmt::format("{} (edge lists, TYPE HCP) is not supported; this reader takes TSP and ATSP",
                       key));
    } else if (key == "FIXED_EDGES_SECTION" || key == "TOUR_SECTION") {
      fail(number,
           fmt::format("{} is not supported (an instance here is a distance matrix only)", key));
    } else {
      fail(number, fmt::format("unknown keyword '{}'", key));
    }
  }

  void need_dimension(int number, const char* section) const {
    if (!n_) fail(number, fmt::format("{} before DIMENSION: missing DIMENSION", section));
  }

  // `count` numbers: the rest of the section's keyword line, then data lines after it.
  template <class T, class Parse>
  Numbers<T> read_numbers(std::string_view rest, int line, std::size_t count, const char* section,
                          const std::string& expected, Parse parse, const char* kind) {
    Numbers<T> out;
    out.values.reserve(count);
    auto too_many = [&](int at) {
      fail(at, fmt::format("{} (line {}) holds more than the {} numbers expected ({})", section,
                           line, count, expected));
    };
    auto take = [&](std::string_view text, int at) {
      auto words = split_words(text);
      if (words.empty()) return;
      out.line_starts.emplace_back(out.values.size(), at);
      for (auto w : words) {
        if (out.values.size() == count) too_many(at);
        auto v = parse(w);
        if (!v) fail(at, fmt::format("{}: '{}' is not {}", section, w, kind));
        out.values.push_back(static_cast<T>(*v));
      }
    };
    take(rest, line);
    while (next_ < lines_.size()) {
      const auto text = trim(lines_[next_]);
      const int at = static_cast<int>(next_) + 1;
      if (!text.empty() && !is_data_line(text)) break;
      if (!text.empty() && out.values.size() == count) too_many(at);
      take(text, at);
      ++next_;
    }
    if (out.values.size() < count) {
      const int stop =
          next_ < lines_.size() ? static_cast<int>(next_) + 1 : static_cast<int>(lines_.size());
      const char* before = next_ < lines_.size() ? "before this line" : "at the end of the file";
      fail(stop, fmt::format("{} (line {}) has {} numbers {}, expected {} ({})", section, line,
                             out.values.size(), before, count, expected));
    }
    return out;
  }

  void skip_data_lines() {
    while (next_ < lines_.size()) {
      const auto text = trim(lines_[next_]);
      if (!text.empty() && !is_data_line(text)) return;
      ++next_;
    }
  }

  void read_coordinates(std::string_view rest, int number) {
    need_dimension(number, "NODE_COORD_SECTION");
    const auto n = static_cast<std::size_t>(n_);
    auto numbers = read_numbers<double>(rest, number, 3 * n, "NODE_COORD_SECTION",
                                        fmt::format("node, x, y for each of {} cities", n),
                                        parse_real, "a number");
    coords_.assign(n, Point{});
    std::vector<int> given_on(n, 0);
    for (std::size_t c = 0; c < n; ++c) {
      const double node = numbers.values[3 * c];
      const int at = numbers.line_of(3 * c);
      if (node != std::trunc(node) || node < 1 || node > double(n))
        fail(at, fmt::format("NODE_COORD_SECTION: node number {} is not in [1, {}]", node, n));
      const auto i = static_cast<std::size_t>(node) - 1;
      if (given_on[i])
        fail(at, fmt::format("NODE_COORD_SECTION: node {} given twice (first on line {})", node,
                             given_on[i]));
      given_on[i] = at;
      coords_[i] = Point{numbers.values[3 * c + 1], numbers.values[3 * c + 2]};
    }
    coords_line_ = number;
  }

  void read_weights(std::string_view rest, int number) {
    need_dimension(number, "EDGE_WEIGHT_SECTION");
    if (!format_)
      fail(number,
           seen_.count("EDGE_WEIGHT_FORMAT")
               ? std::string("EDGE_WEIGHT_SECTION needs a matrix EDGE_WEIGHT_FORMAT, not FUNCTION")
               : std::string(
                     "EDGE_WEIGHT_SECTION before EDGE_WEIGHT_FORMAT: missing EDGE_WEIGHT_FORMAT"));
    const auto n = static_cast<std::size_t>(n_);
    weights_ = read_numbers<std::int64_t>(
        rest, number, numbers_in(*format_, n), "EDGE_WEIGHT_SECTION",
        fmt::format("{} for {} cities", name_of(*format_), n), parse_integer, "an integer");
  }

  // The matrix the weights describe; triangular formats are mirrored.
  std::vector<std::int64_t> matrix_from_weights() const {
    const auto n = static_cast<std::size_t>(n_);
    const auto& values = weights_->values;
    std::vector<std::int64_t> dist(n * n, 0);
    std::size_t k = 0;
    for_each_entry(*format_, n, [&](std::size_t i, std::size_t j) {
      const auto w = values[k];
      const auto lowest = i == j ? -kMaxWeight : 0;
      if (w < lowest || w > kMaxWeight)
        fail(weights_->line_of(k),
             fmt::format("EDGE_WEIGHT_SECTION: weight {} of arc {}->{} is outside [{}, {}]", w,
                         i + 1, j + 1, lowest, kMaxWeight));
      dist[i * n + j] = w;
      if (is_triangular(*format_)) dist[j * n + i] = w;
      ++k;
    });
    if (type_ == "TSP" && !is_triangular(*format_))
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
          if (dist[i * n + j] != dist[j * n + i])
            fail(weights_->line_of(j * n + i),
                 fmt::format("TYPE TSP needs a symmetric matrix, but arc {}->{} weighs {} and arc "
                             "{}->{} weighs {}",
                             i + 1, j + 1, dist[i * n + j], j + 1, i + 1, dist[j * n + i]));
    return dist;
  }

  TsplibFile finish() const {
    const int end = end_line_;
    if (type_.empty()) fail(end, "missing TYPE (TSP or ATSP)");
    if (!n_) fail(end, "missing DIMENSION");
    if (weight_type_.empty())
      fail(end, fmt::format("missing EDGE_WEIGHT_TYPE (one of {})", kDistanceTypes));
    std::vector<std::int64_t> dist;
    if (!distance_) {  // EXPLICIT
      if (!format_)
        fail(end, "EDGE_WEIGHT_TYPE EXPLICIT needs an EDGE_WEIGHT_FORMAT with a matrix layout");
      if (!weights_) fail(end, "EDGE_WEIGHT_TYPE EXPLICIT needs an EDGE_WEIGHT_SECTION");
      dist = matrix_from_weights();
    } else {
      if (coords_.empty())
        fail(end, fmt::format("EDGE_WEIGHT_TYPE {} needs a NODE_COORD_SECTION", weight_type_));
      try {
        dist = distance_matrix(*distance_, coords_);
      } catch (const std::invalid_argument& e) {
        fail(coords_line_, e.what());
      }
    }
    TsplibFile out;
    try {
      out.instance = make_instance(n_, std::move(dist), name_);
    } catch (const std::invalid_argument& e) {
      fail(end, e.what());
    }
    out.instance.comment = comment_;
    out.instance.coords = coords_;
    out.instance.edge_weight_type = weight_type_;
    out.type = type_;
    return out;
  }

  const std::string& where_;
  std::vector<std::string_view> lines_;
  std::size_t next_ = 0;  // the next unread line
  bool ended_ = false;
  int end_line_ = 0;  // the EOF line, else the last line: where "missing ..." is reported
  std::map<std::string, int> seen_;  // keyword → the line it was given on

  std::string name_, comment_, type_, weight_type_;
  int n_ = 0;
  std::optional<DistanceType> distance_;  // set for coordinate types
  std::optional<WeightFormat> format_;    // set for matrix formats
  std::optional<Numbers<std::int64_t>> weights_;
  std::vector<Point> coords_;
  int coords_line_ = 0;
};

}  // namespace

TsplibFile parse_tsplib(std::string_view text, const std::string& where) {
  return Parser(text, where).run();
}

TsplibFile read_tsplib(const std::filesystem::path& path) {
  const std::string text = read_whole_file(path);
  return parse_tsplib(text, path.string());
}

}  // namespace tsp
