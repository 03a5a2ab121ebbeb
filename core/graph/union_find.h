// UnionFind: disjoint sets over 0..n-1 with path halving, for grouping nodes that must share a
// device (colocation, reference edges). Not thread-safe.
#ifndef SG_CORE_GRAPH_UNION_FIND_H_
#define SG_CORE_GRAPH_UNION_FIND_H_

#include <numeric>
#include <vector>

namespace sg {

class UnionFind {
 public:
  explicit UnionFind(int n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  // The representative of x's set.
  int Find(int x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void Union(int a, int b) { parent_[Find(a)] = Find(b); }

 private:
  std::vector<int> parent_;
};

}  // namespace sg

#endif  // SG_CORE_GRAPH_UNION_FIND_H_
