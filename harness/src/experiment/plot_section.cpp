#include "experiment/plot_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "dpgpu/error.hpp"
#include "experiment/node_reader.hpp"
#include "plot_kinds.hpp"

namespace dpgpu {

namespace {

struct Kinds {
  std::vector<std::string> names;                        // in the file's order
  std::map<std::string, std::vector<std::string>> keys;  // kind → every key it accepts
};

const Kinds& kinds() {
  static const Kinds k = [] {
    Kinds out;
    const auto j = nlohmann::ordered_json::parse(kPlotKindsJson);
    const auto common = j.at("common").get<std::vector<std::string>>();
    for (auto& [kind, own] : j.at("kinds").items()) {
      out.names.push_back(kind);
      auto& keys = out.keys[kind];
      keys = common;
      for (auto& key : own) keys.push_back(key.get<std::string>());
    }
    return out;
  }();
  return k;
}

bool one_of(const YAML::Node& v, std::initializer_list<const char*> allowed) {
  if (!v.IsScalar()) return false;
  for (const char* a : allowed)
    if (v.Scalar() == a) return true;
  return false;
}

// The column names a key holds: x, y, facets one; series a name or a list; filter the keys
// of its map.
void read_columns(const NodeReader& r, const std::string& label, const std::string& key,
                  const YAML::Node& key_node, const YAML::Node& v, PlotFigure& fig) {
  auto column = [&](const YAML::Node& n) {
    if (!n.IsScalar() || n.Scalar().empty())
      r.fail(n, fmt::format("{}: key '{}': expected a column name", label, key));
    fig.columns.push_back({key, n.Scalar(), r.at(n)});
  };
  if (key == "x" || key == "y" || key == "facets") {
    column(v);
  } else if (key == "series") {
    if (v.IsSequence() && v.size() > 0) {
      for (const auto& item : v) column(item);
    } else if (v.IsScalar()) {
      column(v);
    } else {
      r.fail(v.IsNull() ? key_node : v,
             fmt::format("{}: key 'series': expected a column name or a list of them", label));
    }
  } else if (key == "filter") {
    if (!v.IsMap() || v.size() == 0)
      r.fail(
          v.IsNull() ? key_node : v,
          fmt::format("{}: key 'filter': expected a mapping of column: value (or column: [values])",
                      label));
    for (const auto& kv : v) column(kv.first);
  }
}

}  // namespace

std::vector<PlotFigure> read_plot_section(const YAML::Node& plot, const std::string& file) {
  const NodeReader r(file);
  std::vector<PlotFigure> out;
  if (plot.IsNull()) return out;
  std::vector<YAML::Node> items;
  if (plot.IsMap()) {
    items.push_back(plot);
  } else if (plot.IsSequence()) {
    for (const auto& item : plot) items.push_back(item);
  } else {
    r.fail(plot, "plot: must be a list of figures (- kind: runtime ...)");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const YAML::Node& item = items[i];
    const std::string label = fmt::format("plot[{}]", i);
    if (!item.IsMap()) r.fail(item, label + ": a figure must be a mapping (kind: ..., name: ...)");
    const YAML::Node kind = item["kind"];
    if (!kind)
      r.fail(item, fmt::format("{}: missing key 'kind' (one of {})", label, joined(kinds().names)));
    if (!kind.IsScalar() || !kinds().keys.count(kind.Scalar()))
      r.fail(kind, fmt::format("{}: unknown kind '{}' (allowed kinds: {})", label,
                               kind.IsScalar() ? kind.Scalar() : "", joined(kinds().names)));
    PlotFigure fig;
    fig.kind = kind.Scalar();
    fig.index = i;
    fig.where = r.at(item);
    const auto& allowed = kinds().keys.at(fig.kind);
    for (const auto& kv : item) {
      const std::string key = kv.first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        r.fail(kv.first, fmt::format("{}: unknown key '{}' for kind {} (allowed keys: {})", label,
                                     key, fig.kind, joined(allowed)));
      const YAML::Node& v = kv.second;
      if ((key == "logx" || key == "logy") &&
          !one_of(v, {"true", "false", "auto", "True", "False"}))
        r.fail(v.IsNull() ? kv.first : v,
               fmt::format("{}: key '{}': expected true, false or auto", label, key));
      if (key == "errorbars" && !one_of(v, {"minmax", "none", "false"}))
        r.fail(v.IsNull() ? kv.first : v,
               fmt::format("{}: key 'errorbars': expected minmax or none", label));
      read_columns(r, label, key, kv.first, v, fig);
    }
    out.push_back(std::move(fig));
  }
  return out;
}

}  // namespace dpgpu
