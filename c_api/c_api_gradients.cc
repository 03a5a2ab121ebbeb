// C API: SG_AddGradients / SG_AddGradientsWithPrefix over sg::AddSymbolicGradients
// (core/graph/gradients.h).
#include <vector>

#include "c_api/c_api_internal.h"
#include "core/graph/gradients.h"

using sg::c_api::Guard;
namespace errors = sg::errors;

namespace {

absl::Status ToOutputs(const SG_Output* in, int n, const char* what,
                       std::vector<sg::NodeBuilder::Output>* out) {
  if (n < 0) return errors::InvalidArgument("SG_AddGradients: n", what, " is negative");
  if (n > 0 && in == nullptr) {
    return errors::InvalidArgument("SG_AddGradients: ", what, " is NULL with n", what, " = ", n);
  }
  for (int i = 0; i < n; ++i) {
    if (in[i].oper == nullptr) {
      return errors::InvalidArgument("SG_AddGradients: ", what, "[", i, "].oper is NULL");
    }
    out->push_back({sg::c_api::ToNode(in[i].oper), in[i].index});
  }
  return absl::OkStatus();
}

}  // namespace

void SG_AddGradientsWithPrefix(SG_Graph* g, const char* prefix, SG_Output* y, int ny,
                               SG_Output* x, int nx, SG_Output* dx, SG_Status* status,
                               SG_Output* dy) {
  Guard("SG_AddGradients", status, [&]() -> absl::Status {
    if (g == nullptr) return errors::InvalidArgument("SG_AddGradients: graph is NULL");
    if (nx > 0 && dy == nullptr) {
      return errors::InvalidArgument("SG_AddGradients: dy is NULL with nx = ", nx);
    }
    std::vector<sg::NodeBuilder::Output> ys, xs, initial, grads;
    SG_RETURN_IF_ERROR(ToOutputs(y, ny, "y", &ys));
    SG_RETURN_IF_ERROR(ToOutputs(x, nx, "x", &xs));
    if (dx != nullptr) SG_RETURN_IF_ERROR(ToOutputs(dx, ny, "dx", &initial));
    {
      absl::MutexLock lock(&g->mu);
      SG_RETURN_IF_ERROR(sg::AddSymbolicGradients(&g->graph, ys, xs, initial,
                                                  prefix == nullptr ? "" : prefix, &grads));
    }
    for (int i = 0; i < nx; ++i) {
      dy[i].oper = sg::c_api::ToOperation(grads[i].node);
      dy[i].index = grads[i].index;
    }
    return absl::OkStatus();
  });
}

void SG_AddGradients(SG_Graph* g, SG_Output* y, int ny, SG_Output* x, int nx, SG_Output* dx,
                     SG_Status* status, SG_Output* dy) {
  SG_AddGradientsWithPrefix(g, nullptr, y, ny, x, nx, dx, status, dy);
}
