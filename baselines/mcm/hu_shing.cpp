// cpu.hu_shing: the O(n log n) matrix-chain algorithm of Hu and Shing (SIAM J. Comput. 11
// (1982) and 13 (1984)), through its polygon form: the dimensions p0..pn are the weights of
// a convex polygon's vertices, a parenthesization is a triangulation (a triangle x-y-z costs
// w_x·w_y·w_z), and the optimal triangulation is built from "h-arcs".
//
//  1. Rotate so that V1 has the smallest weight (ties broken by position: keys (w, index)).
//  2. One sweep with a stack finds the potential h-arcs: arcs (u, v) all of whose vertices
//     between u and v weigh more than both ends. They nest, and form a tree under the
//     degenerate root arc (V1, V1).
//  3. Bottom up, each arc h carries a region (its vertices down to the arcs kept below it),
//     whose cheapest triangulation is the fan from its lighter end `low`:
//        C(h) = w_low · Σ w_x·w_y over the region's boundary pairs not touching low,
//     and a "supporting weight" S(h) = C(h) / D(h), D(h) = Σ boundary pairs − w_u·w_v.
//     An arc is kept while the enclosing region's w_low is below its S; the arcs below a node
//     live in a max-heap on S (merged small into large): children with S ≥ w_low are
//     dropped (their region joins the parent's fan), then children with S ≥ S(parent) are
//     merged into the parent's entry (kept, but from now on dropped or kept together with
//     the parent).
//  4. The cost is Σ C over the entries left at the root; the kept arcs plus each region's fan
//     are the triangulation, and the parenthesization follows from it (the triangle on the
//     side p0–pn splits [0, n), and so on down).
// Supports are compared exactly as fractions of 128-bit integers.
#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>
#include <vector>

#include "mcm_cpu.hpp"

namespace mcm::cpu {
namespace {

using i128 = __int128;

// a/b <=> c/d for non-negative a, c and positive b, d, exactly (no products that overflow):
// compare integer parts, then the reciprocals of the remainders.
int compare_fractions(i128 a, i128 b, i128 c, i128 d) {
  // Fast path: long double cross products decide unless they are within rounding of a tie.
  const long double x = (long double)a * (long double)d, y = (long double)c * (long double)b;
  if (x < y * (1 - 1e-15L)) return -1;
  if (x > y * (1 + 1e-15L)) return 1;
  bool flip = false;
  while (true) {
    const i128 qa = a / b, qc = c / d;
    if (qa != qc) return (qa < qc ? -1 : 1) * (flip ? -1 : 1);
    a -= qa * b;
    c -= qc * d;
    if (a == 0 || c == 0) {
      const int r = (a == 0 && c == 0) ? 0 : (a == 0 ? -1 : 1);
      return r * (flip ? -1 : 1);
    }
    // a/b < c/d  <=>  b/a > d/c
    std::swap(a, b);
    std::swap(c, d);
    flip = !flip;
  }
}

struct Arc {
  int u = 0, v = 0, low = 0;
  i128 mul = 0, base = 0;  // w_u·w_v; Σ sides from u to v − w_u·w_v
  i128 num = 0, den = 0;   // C(h) and D(h) of its entry
};

class HuShing {
 public:
  explicit HuShing(const std::vector<std::int64_t>& weights) {
    N_ = int(weights.size());
    // Rotate: V1 = the lightest vertex (its first occurrence).
    r_ = int(std::min_element(weights.begin(), weights.end()) - weights.begin());
    w_.assign(std::size_t(N_) + 2, 0);
    for (int i = 1; i <= N_; ++i) w_[std::size_t(i)] = weights[std::size_t((r_ + i - 1) % N_)];
    w_[std::size_t(N_) + 1] = w_[1];
    side_sum_.assign(std::size_t(N_) + 2, 0);
    for (int i = 2; i <= N_ + 1; ++i)
      side_sum_[std::size_t(i)] = side_sum_[std::size_t(i) - 1] + W(i - 1) * W(i);
  }

  std::int64_t solve() {
    sweep();
    merged_.assign(arcs_.size(), -1);
    const int root = 0;
    // Post-order over the arc tree (iterative: the tree can be as deep as n).
    std::vector<int> order, stack{root};
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      order.push_back(a);
      for (int c : child_[std::size_t(a)]) stack.push_back(c);
    }
    heap_of_.assign(arcs_.size(), -1);
    touching_.assign(std::size_t(N_) + 2, {});
    for (auto it = order.rbegin(); it != order.rend(); ++it) finish(*it);
    i128 total = 0;
    for (int e : heaps_[std::size_t(heap_of_[root])]) total += arcs_[std::size_t(e)].num;
    kept_entries_ = heaps_[std::size_t(heap_of_[root])];
    return std::int64_t(total);
  }

  // Diagonals of the optimal triangulation, in the caller's vertex numbering (0..N-1).
  std::vector<std::pair<int, int>> diagonals() const {
    // Kept arcs: every arc whose entry survived at the root.
    std::vector<std::pair<int, int>> d;
    // Each kept arc's region: walk u..v skipping the regions of kept arcs below it; fan from low.
    // kept_below[a]: the kept arcs directly below a in the tree of kept arcs.
    std::vector<std::vector<int>> kept_below(arcs_.size());
    std::vector<int> stack{0};
    std::vector<int> nearest(arcs_.size(), -1);  // nearest kept ancestor (itself when kept)
    // Pre-order: children after parents.
    std::vector<int> pre;
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      pre.push_back(a);
      for (int c : child_[std::size_t(a)]) stack.push_back(c);
    }
    // An arc is kept when the entry it ended in survived at the root. Merge links point to
    // ancestors, so in pre-order an arc's entry is known once its merge target's is.
    std::vector<char> kept(arcs_.size(), 0), entry_kept(arcs_.size(), 0);
    for (int e : kept_entries_) entry_kept[std::size_t(e)] = 1;
    std::vector<int> entry(arcs_.size(), -1);
    for (int a : pre) {
      const int m = merged_[std::size_t(a)];
      entry[std::size_t(a)] = m < 0 ? a : entry[std::size_t(m)];
      kept[std::size_t(a)] = entry_kept[std::size_t(entry[std::size_t(a)])];
    }
    std::vector<int> parent(arcs_.size(), -1);
    for (std::size_t a = 0; a < arcs_.size(); ++a)
      for (int c : child_[a]) parent[std::size_t(c)] = int(a);
    for (int a : pre) {
      const int up = parent[std::size_t(a)] < 0 ? -1 : nearest[std::size_t(parent[std::size_t(a)])];
      if (kept[std::size_t(a)] || a == 0) {
        nearest[std::size_t(a)] = a;
        if (up >= 0) kept_below[std::size_t(up)].push_back(a);
      } else {
        nearest[std::size_t(a)] = up;
      }
    }
    for (std::size_t a = 0; a < arcs_.size(); ++a) {
      if (!(kept[a] || a == 0)) continue;
      const Arc& h = arcs_[a];
      if (a != 0) d.push_back({h.u, h.v});
      // Boundary path from u to v: polygon vertices, jumping over kept arcs below.
      auto below = kept_below[a];
      std::sort(below.begin(), below.end(),
                [&](int x, int y) { return arcs_[std::size_t(x)].u < arcs_[std::size_t(y)].u; });
      std::vector<int> path;
      int x = h.u;
      std::size_t k = 0;
      path.push_back(x);
      while (x < h.v) {
        if (k < below.size() && arcs_[std::size_t(below[k])].u == x) {
          x = arcs_[std::size_t(below[k])].v;
          ++k;
        } else {
          ++x;
        }
        path.push_back(x);
      }
      // Fan from low: diagonals low–y for every path vertex y not next to low on the boundary.
      const int low = h.low;
      for (std::size_t i = 0; i < path.size(); ++i) {
        const int y = path[i];
        if (y == h.u || y == h.v) continue;
        // The root's V1 is both ends of its path: both of its neighbours are sides.
        const bool next_to_low =
            (a == 0 && (i == 1 || i + 2 == path.size())) ||
            (a != 0 && ((low == h.u && i == 1) || (low == h.v && i + 2 == path.size())));
        if (!next_to_low) d.push_back({low, y});
      }
    }
    // Back to the caller's numbering (vertex N+1 is V1).
    for (auto& [a, b] : d) {
      a = original(a);
      b = original(b);
    }
    return d;
  }

 private:
  i128 W(int i) const { return i128(w_[std::size_t(i)]); }
  int original(int i) const { return (r_ + (i == N_ + 1 ? 1 : i) - 1) % N_; }
  // Total order on vertices 1..N: weight, then position.
  bool heavier(int i, int j) const {
    return w_[std::size_t(i)] != w_[std::size_t(j)] ? w_[std::size_t(i)] > w_[std::size_t(j)]
                                                    : i > j;
  }

  int new_arc(int u, int v) {
    Arc h;
    h.u = u;
    h.v = v;
    h.low = (v == N_ + 1 || !heavier(u, v)) ? u : v;
    h.mul = W(u) * W(v);
    h.base = side_sum_[std::size_t(v)] - side_sum_[std::size_t(u)] - h.mul;
    arcs_.push_back(h);
    child_.emplace_back();
    return int(arcs_.size()) - 1;
  }

  void sweep() {
    new_arc(1, N_ + 1);  // the root (V1 to itself around the polygon)
    std::vector<int> stk;
    std::vector<std::pair<int, int>> found;
    for (int i = 1; i <= N_; ++i) {
      while (stk.size() >= 2 && heavier(stk.back(), i)) {
        found.push_back({stk[stk.size() - 2], i});
        stk.pop_back();
      }
      stk.push_back(i);
    }
    // Arcs to V1 close the remaining stack; they bound the root's fan and are not h-arcs.
    std::vector<int> open;
    for (auto [u, v] : found) {
      if (u == 1 || v == 1) continue;
      const int a = new_arc(u, v);
      while (!open.empty() && arcs_[std::size_t(a)].u <= arcs_[std::size_t(open.back())].u &&
             arcs_[std::size_t(open.back())].v <= arcs_[std::size_t(a)].v) {
        child_[std::size_t(a)].push_back(open.back());
        open.pop_back();
      }
      open.push_back(a);
    }
    for (int a : open) child_[0].push_back(a);
  }

  // The boundary pair at `low` going into h's region: the polygon side, or the kept arc there.
  i128 pair_at_low(int a) const {
    const Arc& h = arcs_[std::size_t(a)];
    if (a == 0) return W(1) * W(2) + W(1) * W(N_);
    const int x = h.low;
    const auto& t = touching_[std::size_t(x)];
    if (!t.empty()) {
      const Arc& in = arcs_[std::size_t(t.back())];
      if (h.u <= in.u && in.v <= h.v && t.back() != a) return in.mul;
    }
    return x == h.u ? W(x) * W(x + 1) : W(x) * W(x - 1);
  }

  bool support_less(int a, int b) const {  // S(a) < S(b)
    return compare_fractions(arcs_[std::size_t(a)].num, arcs_[std::size_t(a)].den,
                             arcs_[std::size_t(b)].num, arcs_[std::size_t(b)].den) < 0;
  }

  // Heaps: index lists kept as binary max-heaps on S.
  void heap_push(int q, int a) {
    auto& hp = heaps_[std::size_t(q)];
    hp.push_back(a);
    std::push_heap(hp.begin(), hp.end(), [&](int x, int y) { return support_less(x, y); });
  }
  int heap_top(int q) const { return heaps_[std::size_t(q)].front(); }
  void heap_pop(int q) {
    auto& hp = heaps_[std::size_t(q)];
    std::pop_heap(hp.begin(), hp.end(), [&](int x, int y) { return support_less(x, y); });
    hp.pop_back();
  }

  void keep(int q, int a) {  // a's entry goes into heap q; a's ends now touch it
    heap_push(q, a);
    touching_[std::size_t(arcs_[std::size_t(a)].u)].push_back(a);
    touching_[std::size_t(arcs_[std::size_t(a)].v)].push_back(a);
  }
  void unkeep(int a) {
    for (int x : {arcs_[std::size_t(a)].u, arcs_[std::size_t(a)].v}) {
      auto& t = touching_[std::size_t(x)];
      auto it = std::find(t.rbegin(), t.rend(), a);
      if (it != t.rend()) t.erase(std::next(it).base());
    }
  }

  void fan_cost(int a) {
    Arc& h = arcs_[std::size_t(a)];
    h.num = W(h.low) * (h.den + h.mul - pair_at_low(a));
  }

  void finish(int a) {
    Arc& h = arcs_[std::size_t(a)];
    h.den = h.base;
    const auto& kids = child_[std::size_t(a)];
    if (kids.empty()) {
      heap_of_[std::size_t(a)] = int(heaps_.size());
      heaps_.emplace_back();
      fan_cost(a);
      keep(heap_of_[std::size_t(a)], a);
      return;
    }
    int largest = kids.front();
    for (int c : kids) {
      h.den -= arcs_[std::size_t(c)].base;
      if (heaps_[std::size_t(heap_of_[std::size_t(c)])].size() >
          heaps_[std::size_t(heap_of_[std::size_t(largest)])].size())
        largest = c;
    }
    fan_cost(a);
    const int q = heap_of_[std::size_t(largest)];
    heap_of_[std::size_t(a)] = q;
    for (int c : kids) {
      if (c == largest) continue;
      for (int e : heaps_[std::size_t(heap_of_[std::size_t(c)])]) heap_push(q, e);
      heaps_[std::size_t(heap_of_[std::size_t(c)])].clear();
    }
    // Entries whose support reaches w_low: their regions join this fan.
    const i128 wl = W(h.low);
    while (!heaps_[std::size_t(q)].empty()) {
      const int t = heap_top(q);
      if (arcs_[std::size_t(t)].num < wl * arcs_[std::size_t(t)].den) break;  // S(t) < w_low
      h.den += arcs_[std::size_t(t)].den;
      heap_pop(q);
      unkeep(t);  // t's entry is no longer in the partition (merged members left before)
      fan_cost(a);
    }
    // Entries whose support reaches S(h): kept, merged into h's entry.
    while (!heaps_[std::size_t(q)].empty() && !support_less(heap_top(q), a)) {
      const int t = heap_top(q);
      h.den += arcs_[std::size_t(t)].den;
      h.num += arcs_[std::size_t(t)].num;
      heap_pop(q);
      unkeep(t);
      merged_[std::size_t(t)] = a;
    }
    keep(q, a);
  }

  int N_ = 0, r_ = 0;
  std::vector<std::int64_t> w_;
  std::vector<i128> side_sum_;
  std::vector<Arc> arcs_;
  std::vector<std::vector<int>> child_;
  std::vector<std::vector<int>> heaps_;
  std::vector<int> heap_of_;
  std::vector<std::vector<int>> touching_;
  std::vector<int> merged_;
  std::vector<int> kept_entries_;
};

// The parenthesization of a triangulation of the polygon 0..n (sides (i, i+1) and (0, n)):
// the triangle on the side (a, b) has its apex at the largest neighbour of a below b.
std::string parenthesization_of(std::int64_t n, const std::vector<std::pair<int, int>>& diagonals) {
  std::vector<std::vector<int>> adj(std::size_t(n) + 1);
  for (std::int64_t i = 0; i < n; ++i) {
    adj[std::size_t(i)].push_back(int(i + 1));
    adj[std::size_t(i) + 1].push_back(int(i));
  }
  for (auto [a, b] : diagonals) {
    adj[std::size_t(a)].push_back(b);
    adj[std::size_t(b)].push_back(a);
  }
  for (auto& v : adj) std::sort(v.begin(), v.end());
  return parenthesize(n, [&](std::int64_t a, std::int64_t b) {
    const auto& v = adj[std::size_t(a)];
    auto it = std::lower_bound(v.begin(), v.end(), int(b));
    if (it == v.begin()) throw std::logic_error("hu_shing: no triangle on a side");
    return std::int64_t(*std::prev(it));
  });
}

}  // namespace

std::uint64_t hu_shing_bytes(const Instance& x) { return std::uint64_t(x.n() + 1) * 400; }

Answer hu_shing(const Instance& x) {
  require_split_bound(x, std::numeric_limits<std::int64_t>::max(), "cpu.hu_shing", "2^63 - 1");
  const std::int64_t n = x.n();
  Answer ans;
  if (n == 1) {
    ans.parenthesization = "A1";
    return ans;
  }
  if (n == 2) {
    ans.cost = x.p[0] * x.p[1] * x.p[2];
    ans.parenthesization = "(A1A2)";
    return ans;
  }
  HuShing h(x.p);
  ans.cost = h.solve();
  ans.parenthesization = parenthesization_of(n, h.diagonals());
  return ans;
}

}  // namespace mcm::cpu
