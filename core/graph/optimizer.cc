#include "core/graph/optimizer.h"

#include "core/graph/optimizers/rewrite_util.h"

namespace sg {

GraphOptimizerOptions GraphOptimizerOptionsFromConfig(const GraphOptions& graph_options) {
  const OptimizerOptions& o = graph_options.optimizer_options();
  GraphOptimizerOptions opts;
  if (o.opt_level() == OptimizerOptions::L0) {
    opts.remove_identities = false;
    opts.control_only_to_noops = false;
    opts.fold_batch_norms = false;
    opts.fold_pads = false;
    opts.fuse_ops = false;
    opts.mark_const_filters = false;
    opts.constant_folding = o.do_constant_folding();
  }
  if (o.max_folded_constant_in_bytes() > 0) {
    opts.max_constant_bytes = o.max_folded_constant_in_bytes();
  }
  return opts;
}

absl::Status OptimizeGraph(Graph* g, const GraphOptimizerOptions& options,
                           const std::set<std::string>& preserve, GraphOptimizerStats* stats) {
  GraphOptimizerStats local;
  GraphOptimizerStats& st = stats != nullptr ? *stats : local;
  st = GraphOptimizerStats();
  st.nodes_before = g->num_nodes();
  // Before anything else reads or rewrites a node that only orders.
  if (options.control_only_to_noops) {
    SG_ASSIGN_OR_RETURN(st.control_only_to_noops, graph_opt::ControlOnlyToNoOps(g, preserve));
  }
  // Identities first: constant folding then sees the weights' Consts directly instead of
  // copying every weight into a folded Identity.
  if (options.remove_identities) {
    SG_ASSIGN_OR_RETURN(st.identities_removed, graph_opt::RemoveIdentities(g, preserve));
  }
  if (options.constant_folding) {
    SG_ASSIGN_OR_RETURN(st.nodes_folded, graph_opt::FoldConstants(g, options, preserve));
    graph_opt::RemoveDeadNodes(g, preserve);
  }
  // Pads before fusion, so that the fused convolutions get the padding.
  if (options.fold_pads) {
    SG_ASSIGN_OR_RETURN(st.pads_folded, graph_opt::FoldPads(g, preserve));
    graph_opt::RemoveDeadNodes(g, preserve);
  }
  if (options.fold_batch_norms) {
    SG_ASSIGN_OR_RETURN(st.batch_norms_folded, graph_opt::FoldBatchNorms(g, preserve));
    graph_opt::RemoveDeadNodes(g, preserve);
  }
  if (options.fuse_ops) {
    SG_ASSIGN_OR_RETURN(st.nodes_fused, graph_opt::FuseOps(g, options, preserve));
  }
  if (options.mark_const_filters) st.const_filters_marked = graph_opt::MarkConstFilters(g);
  st.nodes_after = g->num_nodes();
  return absl::OkStatus();
}

}  // namespace sg
