// Logging ops: Assert, Print, PrintV2, Timestamp and Abort.
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

// Passes `input` through, printing `message` and the first `summarize` entries of each `data`
// tensor to stderr (the first `first_n` times, every time when -1).
REGISTER_OP("Print")
    .Input("input: T")
    .Input("data: U")
    .Output("output: T")
    .SetIsStateful()
    .Attr("T: type")
    .Attr("U: list(type) >= 0")
    .Attr("message: string = ''")
    .Attr("first_n: int = -1")
    .Attr("summarize: int = 3")
    .SetShapeFn(shape_fns::Unchanged);

// Writes the scalar string `input` and `end` to output_stream: "stdout", "stderr",
// "log(info)", "log(warning)", "log(error)" (stderr with a level prefix) or "file://PATH"
// (appended).
REGISTER_OP("PrintV2")
    .Input("input: string")
    .SetIsStateful()
    .Attr("output_stream: string = 'stderr'")
    .Attr("end: string = '\n'")  // a newline: attr defaults are not unescaped
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape unused;
      if (!c->WithRank(0, 0, &unused).ok()) {
        return c->Error("input must be a scalar, got shape ", c->input(0).DebugString());
      }
      return absl::OkStatus();
    });

// The wall-clock time in seconds since the Unix epoch, with microsecond resolution.
REGISTER_OP("Timestamp")
    .Output("ts: float64")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

// Ends the process when run: abort() with `error_msg` on stderr, or exit(0) when
// exit_without_error.
REGISTER_OP("Abort")
    .Attr("error_msg: string = ''")
    .Attr("exit_without_error: bool = false")
    .SetShapeFn(shape_fns::Unknown);

}  // namespace sg
