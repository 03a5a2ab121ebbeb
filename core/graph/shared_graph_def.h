// SharedGraphDef: a GraphDef whose NodeDefs are held by shared, immutable pointers (as a Graph's
// nodes hold them, Node::shared_def). A client's graph hands its nodes to a session this way, and
// a session its graph to each step's import, without copying the NodeDefs: in a frozen graph the
// Const values are most of the bytes, and each copy of them costs memory and page faults.
//
//   SharedGraphDef s = SharedGraphDef::FromGraphDef(std::move(gdef));  // moves, no copy
//   ImportGraphDef(s, ImportOptions(), &graph);  // the graph's nodes share s's NodeDefs
//
// Thread safety: the NodeDefs are never changed once shared (whoever changes one copies it
// first: MutableNodeDef in graph.h), so they may be read from any thread; the struct itself is a
// plain value.
#ifndef SG_CORE_GRAPH_SHARED_GRAPH_DEF_H_
#define SG_CORE_GRAPH_SHARED_GRAPH_DEF_H_

#include <memory>
#include <vector>

#include "core/proto/function.pb.h"
#include "core/proto/graph.pb.h"
#include "core/proto/node_def.pb.h"
#include "core/proto/versions.pb.h"

namespace sg {

struct SharedGraphDef {
  std::vector<std::shared_ptr<const NodeDef>> nodes;  // never null
  FunctionDefLibrary library;
  bool has_versions = false;
  VersionDef versions;  // meaningful when has_versions

  // Takes `gdef`'s nodes, library and versions (moved, not copied).
  static SharedGraphDef FromGraphDef(GraphDef gdef);
  // A GraphDef with copies of the nodes.
  GraphDef ToGraphDef() const;
};

}  // namespace sg

#endif  // SG_CORE_GRAPH_SHARED_GRAPH_DEF_H_
