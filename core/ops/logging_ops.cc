// Logging ops: Assert.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {

// As TensorFlow's Assert: fails the step with INVALID_ARGUMENT when the scalar bool `condition`
// is false, the message listing the first `summarize` entries of each `data` tensor. No outputs;
// other nodes wait for it through control edges.
REGISTER_OP("Assert")
    .Input("condition: bool")
    .Input("data: T")
    .SetIsStateful()
    .Attr("T: list(type) >= 1")
    .Attr("summarize: int = 3")
    .SetShapeFn(shape_fns::Unknown);

}  // namespace sg
