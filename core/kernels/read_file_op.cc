// ReadFile: a file's whole contents as one string, as TensorFlow's io op of that name.
#include <fstream>
#include <sstream>

#include "core/framework/op_kernel.h"

namespace sg {
namespace {

class ReadFileOp final : public OpKernel {
 public:
  explicit ReadFileOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& name = ctx->input(0);
    OP_REQUIRES(ctx, name.dims() == 0,
                errors::InvalidArgument("node '", this->name(), "': filename must be a scalar, ",
                                        "got shape ", name.shape().DebugString()));
    const std::string path = name.data<tstring>()[0];
    std::ifstream in(path, std::ios::binary);
    OP_REQUIRES(ctx, in.is_open(),
                errors::NotFound("node '", this->name(), "': ", path, "; No such file or directory"));
    std::ostringstream contents;
    contents << in.rdbuf();
    OP_REQUIRES(ctx, !in.bad(),
                errors::DataLoss("node '", this->name(), "': cannot read ", path));
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &out));
    out->data<tstring>()[0] = contents.str();
  }
};
REGISTER_KERNEL_BUILDER(Name("ReadFile").Device(DEVICE_CPU), ReadFileOp);

}  // namespace
}  // namespace sg
