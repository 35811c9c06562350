// cpu.bnb's search (bnb.hpp).
#include "bnb.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "elimination.hpp"
#include "upper_bound.hpp"

namespace tsp::cpu::bnb {

namespace {

struct Node {
  EdgeStates s;
  std::vector<double> pi;  // the penalties of the node's bound; its children start from them
  Bound b;
};

class Search {
 public:
  Search(const Instance& x, const Options& o, const dpgpu::Poll& poll)
      : x_(x), o_(o), trees_(x), poll_(poll), poller_(poll) {}
  Result run();

 private:
  bool bound(Node& node, const AscentPlan& plan, bool counted = true);
  AscentPlan node_plan() const { return {o_.node_steps, 1.0, std::max(2, o_.node_steps / 4)}; }
  void expand(const Node& node);
  std::vector<Node> children(const Node& node) const;

  const Instance& x_;
  const Options& o_;
  OneTreeBuilder trees_;
  const dpgpu::Poll& poll_;
  dpgpu::Poller poller_;
  Result r_;
  std::vector<Node> stack_;
};

// Bounds the node (counted in `nodes` unless not `counted`: the root bounded again); takes the
// tour it may yield. True when it is to be branched on.
bool Search::bound(Node& node, const AscentPlan& plan, bool counted) {
  node.b = ascend(trees_, node.s, node.pi, r_.cost, plan);
  r_.nodes += counted ? 1 : 0;
  r_.evaluations += std::uint64_t(node.b.evaluations);
  poller_.tick(std::uint64_t(node.b.evaluations) * std::uint64_t(x_.n) * std::uint64_t(x_.n));
  if (node.b.verdict == Verdict::tour) {
    auto tour = tour_of(node.b.tree);
    const std::int64_t cost = tsp::tour_cost(x_, tour);
    if (cost < r_.cost) r_.cost = cost, r_.tour = std::move(tour);
  }
  return node.b.verdict == Verdict::open;
}

// The children of an open node (bnb.hpp), their decisions made, not yet bounded.
std::vector<Node> Search::children(const Node& node) const {
  const OneTree& t = node.b.tree;
  const int v = int(std::max_element(t.degree.begin(), t.degree.end()) - t.degree.begin());
  std::vector<int> free;  // v's tree neighbours over free edges, dearest (penalised) first
  for (const auto& e : t.edges)
    if ((e[0] == v || e[1] == v) && node.s.at(e[0], e[1]) == Edge::free)
      free.push_back(e[0] == v ? e[1] : e[0]);
  std::sort(free.begin(), free.end(),
            [&](int a, int b) { return x_.arc(v, a) + node.pi[a] > x_.arc(v, b) + node.pi[b]; });
  std::vector<Node> kids;
  auto child = [&](auto&& decide) {
    Node k{node.s, node.pi, {}};
    if (decide(k.s)) kids.push_back(std::move(k));
  };
  child([&](EdgeStates& s) { return s.exclude(v, free[0]); });
  if (node.s.included_degree(v) == 0) {
    child([&](EdgeStates& s) { return s.include(v, free[0]) && s.exclude(v, free[1]); });
    child([&](EdgeStates& s) { return s.include(v, free[0]) && s.include(v, free[1]); });
  } else {
    child([&](EdgeStates& s) { return s.include(v, free[0]); });
  }
  return kids;
}

// Bounds the node's children and stacks the open ones, the lowest bound on top.
void Search::expand(const Node& node) {
  std::vector<Node> open;
  for (auto& k : children(node))
    if (bound(k, node_plan())) open.push_back(std::move(k));
  std::sort(open.begin(), open.end(),
            [](const Node& a, const Node& b) { return a.b.bound > b.b.bound; });
  for (auto& k : open) stack_.push_back(std::move(k));
}

Result Search::run() {
  if (o_.starts > 0) {
    auto first = heuristic_tour(x_, o_.starts, poll_);
    r_.cost = r_.first_tour = first.cost;
    r_.tour = std::move(first.tour);
  } else {
    r_.cost = tsp::cost_upper_bound(x_) + 1;  // above every tour: the search finds one
  }
  Node root{EdgeStates(x_.n), std::vector<double>(std::size_t(x_.n), 0.0), {}};
  bool open = bound(root, AscentPlan{o_.root_steps, 2.0, std::max(5, x_.n / 2)});
  r_.root_bound = root.b.bound;
  if (open && o_.eliminate) {
    r_.eliminated =
        std::uint64_t(eliminate_edges(x_, root.b.tree, root.pi, root.b.bound, r_.cost, root.s));
    // The root again under its exclusions (no tour left: the first tour is optimal).
    if (r_.eliminated > 0) open = root.s.feasible() && bound(root, node_plan(), false);
  }
  if (open) stack_.push_back(std::move(root));
  while (!stack_.empty()) {
    const Node node = std::move(stack_.back());
    stack_.pop_back();
    if (!cannot_beat(node.b.bound, r_.cost, node.pi)) expand(node);
  }
  return r_;
}

}  // namespace

std::string why_not(const Instance& x) {
  for (int i = 0; i < x.n; ++i)
    for (int j = i + 1; j < x.n; ++j)
      if (x.arc(i, j) != x.arc(j, i))
        return fmt::format(
            "cpu.bnb solves symmetric instances only: '{}' has d({}, {}) = {} but d({}, {}) = {}",
            x.name, i, j, x.arc(i, j), j, i, x.arc(j, i));
  return "";
}

Result branch_and_bound(const Instance& x, const Options& o, const dpgpu::Poll& poll) {
  if (auto why = why_not(x); !why.empty()) throw std::invalid_argument(why);
  if (x.n <= 3) {  // one tour at most, up to direction
    Result r;
    r.tour.resize(std::size_t(x.n));
    std::iota(r.tour.begin(), r.tour.end(), 0);
    r.cost = r.first_tour = tsp::tour_cost(x, r.tour);
    r.root_bound = double(r.cost);
    return r;
  }
  return Search(x, o, poll).run();
}

}  // namespace tsp::cpu::bnb
