// The image decoding and encoding kernels, as TensorFlow's DecodeImageV2Op, EncodePngOp and
// EncodeJpegOp behave:
//   DecodeJpeg, DecodePng, DecodeGif, DecodeBmp, DecodeImage: a scalar string in; the format is
//     told by the first bytes, so DecodeJpeg, DecodePng and DecodeGif each decode JPEG, PNG and
//     (one-frame for the first two) GIF files, DecodeBmp only BMP, DecodeImage all four. Output
//     [height, width, channels], or [frames, height, width, channels] for DecodeGif and for
//     DecodeImage with expand_animations on a GIF. DecodePng and DecodeImage give uint16 or float
//     (DecodeImage) too: PNG samples are decoded at 16 bits (float: v / 65535); the 8-bit formats
//     give v * 256 as uint16 and v / 255 as float.
//   DecodeAndCropJpeg: a JPEG and crop_window [4] int32 (y, x, height, width) -> that window.
//   ExtractJpegShape: a JPEG -> [height, width, components] int32 or int64, from its headers.
//   EncodePng: [..., height, width, channels] uint8 or uint16 -> one string per image.
//   EncodeJpeg, EncodeJpegVariableQuality: [height, width, 1 or 3] uint8 -> a scalar string.
// The codecs are in image_codecs.h.
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/framework/op_kernel.h"
#include "core/kernels/array_copy.h"
#include "core/kernels/image_codecs.h"

namespace sg {
namespace {

using image::Format;

// `s` with the node and op named, its code kept.
absl::Status AtNode(OpKernelContext* ctx, const absl::Status& s) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(s.message(), " (node '", ctx->op_kernel().name(),
                                             "', op ", ctx->op_kernel().type_string(), ")"));
}

enum class DecodeKind { kJpeg, kCropJpeg, kPng, kGif, kBmp, kImage };

// Where a decoder's samples go: straight into the output when the output's dtype is the samples'
// (uint8 or, for 16-bit PNG decoding, uint16), else into a scratch buffer that Finish converts.
class Destination {
 public:
  Destination(OpKernelContext* ctx, DataType out_dtype, int sample_bits, bool four_d)
      : ctx_(ctx), out_dtype_(out_dtype), sample_bits_(sample_bits), four_d_(four_d) {}

  // A 3-D output holds one frame: more is an error, whose message ends with `message`.
  void set_single_frame_error(std::string message) { frames_error_ = std::move(message); }

  image::OutputAllocator Allocator() {
    return [this](int64_t frames, int64_t height, int64_t width,
                  int channels) -> absl::StatusOr<void*> {
      if (!four_d_ && frames != 1) {
        return errors::InvalidArgument("Got ", frames, " frames, but ", frames_error_);
      }
      TensorShape shape = four_d_ ? TensorShape({frames, height, width, channels})
                                  : TensorShape({height, width, channels});
      Tensor* out;
      SG_RETURN_IF_ERROR(ctx_->allocate_output(0, shape, &out));
      output_ = out;
      if (Direct()) return out->raw_data();
      count_ = out->NumElements();
      scratch_.resize(static_cast<size_t>(count_) * (sample_bits_ / 8));
      return static_cast<void*>(scratch_.data());
    };
  }

  // Converts the scratch samples into the output, as TensorFlow scales them.
  void Finish() {
    if (output_ == nullptr || Direct()) return;
    if (sample_bits_ == 16) {  // PNG decoded at 16 bits for a float output
      const uint16_t* in = reinterpret_cast<const uint16_t*>(scratch_.data());
      const float scale = static_cast<float>(1.0 / 65535);
      float* out = output_->data<float>();
      for (int64_t i = 0; i < count_; ++i) out[i] = static_cast<float>(in[i]) * scale;
    } else if (out_dtype_ == DT_UINT16) {
      uint16_t* out = output_->data<uint16_t>();
      for (int64_t i = 0; i < count_; ++i) out[i] = static_cast<uint16_t>(scratch_[i] * 256u);
    } else {
      const float scale = static_cast<float>(1.0 / 255);
      float* out = output_->data<float>();
      for (int64_t i = 0; i < count_; ++i) out[i] = static_cast<float>(scratch_[i]) * scale;
    }
  }

 private:
  bool Direct() const {
    return (out_dtype_ == DT_UINT8 && sample_bits_ == 8) ||
           (out_dtype_ == DT_UINT16 && sample_bits_ == 16);
  }

  OpKernelContext* ctx_;
  DataType out_dtype_;
  int sample_bits_;
  bool four_d_;
  std::string frames_error_;
  Tensor* output_ = nullptr;
  int64_t count_ = 0;
  std::vector<uint8_t> scratch_;
};

// One kernel for the six decoding ops: they differ in attrs and in the formats and shapes they
// give, as in TensorFlow.
template <DecodeKind kKind>
class DecodeImageOp final : public OpKernel {
 public:
  explicit DecodeImageOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    constexpr DecodeKind kind = kKind;
    if (kind == DecodeKind::kJpeg || kind == DecodeKind::kCropJpeg) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("ratio", &jpeg_.ratio));
      const int ratio = jpeg_.ratio;
      OP_REQUIRES(ctx, ratio == 1 || ratio == 2 || ratio == 4 || ratio == 8,
                  errors::InvalidArgument("ratio must be 1, 2, 4, or 8, got ", jpeg_.ratio,
                                          " (node '", name(), "')"));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("fancy_upscaling", &jpeg_.fancy_upscaling));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("try_recover_truncated", &jpeg_.try_recover_truncated));
      OP_REQUIRES_OK(ctx, ctx->GetAttr("acceptable_fraction", &jpeg_.acceptable_fraction));
      std::string dct;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("dct_method", &dct));
      OP_REQUIRES(ctx, dct.empty() || dct == "INTEGER_FAST" || dct == "INTEGER_ACCURATE",
                  errors::InvalidArgument("dct_method must be one of {'', 'INTEGER_FAST', "
                                          "'INTEGER_ACCURATE'} (node '", name(), "')"));
      // TensorFlow's default ("") is libjpeg's fast integer IDCT.
      jpeg_.accurate_dct = dct == "INTEGER_ACCURATE";
    }
    if (kind == DecodeKind::kPng || kind == DecodeKind::kImage) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    }
    if (kind == DecodeKind::kImage) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("expand_animations", &expand_animations_));
    }
    if (kind == DecodeKind::kGif) {
      channels_ = 3;
    } else {
      int64_t channels;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("channels", &channels));
      OP_REQUIRES(ctx, channels == 0 || channels == 1 || channels == 3 || channels == 4,
                  errors::InvalidArgument("`channels` must be 0, 1, 3 or 4 but got ", channels,
                                          " (node '", name(), "')"));
      channels_ = static_cast<int>(channels);
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    OP_REQUIRES(ctx, contents.dims() == 0,
                NodeError(ctx, "`contents` must be scalar but got shape",
                          contents.shape().DebugString()));
    const absl::string_view data = *contents.data<tstring>();
    OP_REQUIRES(ctx, !data.empty(), NodeError(ctx, "Input is empty."));
    OP_REQUIRES(ctx, data.size() <= static_cast<size_t>(INT32_MAX),
                NodeError(ctx, "Input contents are too large for int: ", data.size()));
    const Format format = image::ClassifyFormat(data);
    switch (format) {
      case Format::kJpeg: DecodeJpeg(ctx, data); break;
      case Format::kPng: DecodePng(ctx, data); break;
      case Format::kGif: DecodeGif(ctx, data); break;
      case Format::kBmp: DecodeBmp(ctx, data); break;
      case Format::kWebp:
      case Format::kJpegXl:
        ctx->CtxFailure(AtNode(ctx, errors::Unimplemented(
                                        "sg decodes JPEG, PNG, GIF and BMP; this is ",
                                        image::FormatName(format))));
        break;
      case Format::kUnknown:
        ctx->CtxFailure(NodeError(
            ctx, "Unknown image file format. One of JPEG, PNG, GIF, BMP required."));
        break;
    }
  }

 private:
  // Only DecodeBmp and DecodeImage read BMP; DecodeBmp reads nothing else; DecodeAndCropJpeg
  // only JPEG.
  bool WrongOp(OpKernelContext* ctx, Format format) {
    if (kind_ == DecodeKind::kCropJpeg && format != Format::kJpeg) {
      ctx->CtxFailure(NodeError(ctx, "DecodeAndCropJpeg operation can run on JPEG only, but "
                                     "detected ", image::FormatName(format), "."));
      return true;
    }
    if (kind_ == DecodeKind::kBmp && format != Format::kBmp) {
      ctx->CtxFailure(NodeError(ctx, "Trying to decode ", image::FormatName(format),
                                " format using DecodeBmp op. Use `decode_image` instead."));
      return true;
    }
    if (format == Format::kBmp && kind_ != DecodeKind::kBmp && kind_ != DecodeKind::kImage) {
      ctx->CtxFailure(NodeError(ctx, "Trying to decode BMP format using a wrong op. Use "
                                     "`decode_bmp` or `decode_image` instead. Op used: ",
                                type_string()));
      return true;
    }
    return false;
  }

  void DecodeJpeg(OpKernelContext* ctx, absl::string_view data) {
    OP_REQUIRES(ctx, channels_ != 4, NodeError(ctx, "JPEG does not support 4 channels"));
    if (WrongOp(ctx, Format::kJpeg)) return;
    image::JpegDecodeOptions opts = jpeg_;  // DecodeJpeg's attrs, TensorFlow's defaults else
    opts.channels = channels_;
    if (kind_ == DecodeKind::kCropJpeg) {
      const Tensor& window = ctx->input(1);
      OP_REQUIRES(ctx, window.dims() == 1,
                  NodeError(ctx, "crop_window must be 1-D, got shape ",
                            window.shape().DebugString()));
      OP_REQUIRES(ctx, window.dim_size(0) == 4,
                  NodeError(ctx, "crop_size must have four elements ",
                            window.shape().DebugString()));
      const int32_t* w = window.data<int32_t>();
      opts.crop = true;
      opts.crop_y = w[0];
      opts.crop_x = w[1];
      opts.crop_height = w[2];
      opts.crop_width = w[3];
    }
    Destination dest(ctx, dtype_, 8, kind_ == DecodeKind::kGif);
    OP_REQUIRES_OK(ctx, AtNode(ctx, image::DecodeJpeg(data, opts, dest.Allocator())));
    dest.Finish();
  }

  void DecodePng(OpKernelContext* ctx, absl::string_view data) {
    if (WrongOp(ctx, Format::kPng)) return;
    Destination dest(ctx, dtype_, dtype_ == DT_UINT8 ? 8 : 16, kind_ == DecodeKind::kGif);
    OP_REQUIRES_OK(ctx, AtNode(ctx, image::DecodePng(data, channels_, dtype_ == DT_UINT8 ? 8 : 16,
                                                     dest.Allocator())));
    dest.Finish();
  }

  void DecodeGif(OpKernelContext* ctx, absl::string_view data) {
    OP_REQUIRES(ctx, channels_ == 0 || channels_ == 3,
                NodeError(ctx, "channels must be 0 or 3 for GIF, got ", channels_));
    if (WrongOp(ctx, Format::kGif)) return;
    const bool four_d =
        kind_ == DecodeKind::kGif || (kind_ == DecodeKind::kImage && expand_animations_);
    Destination dest(ctx, dtype_, 8, four_d);
    dest.set_single_frame_error(
        "animated gifs can only be decoded by tf.io.decode_gif or tf.io.decode_image");
    OP_REQUIRES_OK(ctx, AtNode(ctx, image::DecodeGif(data, expand_animations_,
                                                     dest.Allocator())));
    dest.Finish();
  }

  void DecodeBmp(OpKernelContext* ctx, absl::string_view data) {
    OP_REQUIRES(ctx, channels_ != 1,
                NodeError(ctx, "`channels` must be 0, 3 or 4 for BMP, but got ", channels_));
    if (WrongOp(ctx, Format::kBmp)) return;
    Destination dest(ctx, dtype_, 8, false);
    OP_REQUIRES_OK(ctx, AtNode(ctx, image::DecodeBmp(data, channels_, dest.Allocator())));
    dest.Finish();
  }

  static constexpr DecodeKind kind_ = kKind;
  int channels_ = 0;
  DataType dtype_ = DT_UINT8;
  bool expand_animations_ = true;  // DecodeImage's attr; the other ops decode every frame
  image::JpegDecodeOptions jpeg_;
};

REGISTER_KERNEL_BUILDER(Name("DecodeJpeg").Device(DEVICE_CPU),
                        DecodeImageOp<DecodeKind::kJpeg>);
REGISTER_KERNEL_BUILDER(Name("DecodeAndCropJpeg").Device(DEVICE_CPU),
                        DecodeImageOp<DecodeKind::kCropJpeg>);
REGISTER_KERNEL_BUILDER(Name("DecodePng").Device(DEVICE_CPU), DecodeImageOp<DecodeKind::kPng>);
REGISTER_KERNEL_BUILDER(Name("DecodeGif").Device(DEVICE_CPU), DecodeImageOp<DecodeKind::kGif>);
REGISTER_KERNEL_BUILDER(Name("DecodeBmp").Device(DEVICE_CPU), DecodeImageOp<DecodeKind::kBmp>);
REGISTER_KERNEL_BUILDER(Name("DecodeImage").Device(DEVICE_CPU),
                        DecodeImageOp<DecodeKind::kImage>);

class EncodePngOp final : public OpKernel {
 public:
  explicit EncodePngOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("compression", &compression_));
    OP_REQUIRES(ctx, compression_ >= -1 && compression_ <= 9,
                errors::InvalidArgument("compression should be in [-1,9], got ", compression_,
                                        " (node '", name(), "')"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& image = ctx->input(0);
    OP_REQUIRES(ctx, image.dims() >= 3,
                NodeError(ctx, "images must be at least rank 3", image.shape().DebugString()));
    OP_REQUIRES(ctx, image.NumElements() < INT32_MAX,
                NodeError(ctx, "image cannot have >= int32 max elements"));
    const int batch_dims = image.dims() - 3;
    const int64_t height = image.dim_size(batch_dims), width = image.dim_size(batch_dims + 1);
    const int64_t channels = image.dim_size(batch_dims + 2);
    OP_REQUIRES(ctx, width * channels < INT32_MAX / 2,
                NodeError(ctx, "image too wide to encode"));
    OP_REQUIRES(ctx, channels >= 1 && channels <= 4,
                NodeError(ctx, "image must have 1, 2, 3, or 4 channels, got ", channels));
    TensorShape out_shape;
    int64_t images = 1;
    for (int d = 0; d < batch_dims; ++d) {
      OP_REQUIRES(ctx, MultiplySizes(images, image.dim_size(d), &images),
                  NodeError(ctx, "Invalid number of batches, input image shape: ",
                            image.shape().DebugString()));
      out_shape.AddDim(image.dim_size(d));
    }
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    // TensorFlow's code for an image its encoder refuses (an empty one): INTERNAL.
    OP_REQUIRES(ctx, images == 0 || (height > 0 && width > 0),
                AtNode(ctx, errors::Internal("PNG encoding failed: the images are empty, ",
                                             image.shape().DebugString())));
    const int bits = image.dtype() == DT_UINT16 ? 16 : 8;
    const size_t image_bytes = static_cast<size_t>(height * width * channels * bits / 8);
    const char* pixels = static_cast<const char*>(image.raw_data());
    tstring* out = output->data<tstring>();
    std::vector<int64_t> failed;
    for (int64_t i = 0; i < images; ++i) {
      absl::StatusOr<std::string> png = image::EncodePng(
          pixels + i * image_bytes, height, width, static_cast<int>(channels), bits, compression_);
      if (png.ok()) {
        out[i] = std::move(*png);
      } else {
        failed.push_back(i);
      }
    }
    OP_REQUIRES(ctx, failed.empty(),
                AtNode(ctx, errors::Internal("PNG encoding failed at the following flattened "
                                             "batch indices: ", absl::StrJoin(failed, ", "))));
  }

 private:
  int64_t compression_;
};
REGISTER_KERNEL_BUILDER(Name("EncodePng").Device(DEVICE_CPU), EncodePngOp);

class EncodeJpegOp final : public OpKernel {
 public:
  explicit EncodeJpegOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("format", &format_));
    OP_REQUIRES(ctx, format_.empty() || format_ == "grayscale" || format_ == "rgb",
                errors::InvalidArgument("format must be '', grayscale or rgb, got ", format_,
                                        " (node '", name(), "')"));
    int64_t quality, x_density, y_density;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("quality", &quality));
    OP_REQUIRES(ctx, quality >= 0 && quality <= 100,
                errors::InvalidArgument("quality must be in [0,100], got ", quality, " (node '",
                                        name(), "')"));
    options_.quality = static_cast<int>(quality);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("progressive", &options_.progressive));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("optimize_size", &options_.optimize_size));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("chroma_downsampling", &options_.chroma_downsampling));
    std::string unit;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("density_unit", &unit));
    OP_REQUIRES(ctx, unit == "in" || unit == "cm",
                errors::InvalidArgument("density_unit must be 'in' or 'cm', got ", unit,
                                        " (node '", name(), "')"));
    options_.density_unit = unit == "in" ? 1 : 2;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("x_density", &x_density));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("y_density", &y_density));
    options_.x_density = static_cast<int>(x_density);
    options_.y_density = static_cast<int>(y_density);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("xmp_metadata", &options_.xmp_metadata));
  }

  void Compute(OpKernelContext* ctx) override { EncodeJpegImage(ctx, format_, options_); }

  // Encodes input 0, checked against `format` ("": 1 or 3 channels), into output 0.
  static void EncodeJpegImage(OpKernelContext* ctx, const std::string& format,
                              const image::JpegEncodeOptions& options) {
    const Tensor& image = ctx->input(0);
    OP_REQUIRES(ctx, image.dims() == 3,
                NodeError(ctx, "image must be 3-dimensional", image.shape().DebugString()));
    OP_REQUIRES(ctx, image.NumElements() < INT32_MAX,
                NodeError(ctx, "Cannot encode images with >= max int32 elements"));
    const int64_t channels = image.dim_size(2);
    if (format.empty()) {
      OP_REQUIRES(ctx, channels == 1 || channels == 3,
                  NodeError(ctx, "image must have 1 or 3 channels, got ",
                            image.shape().DebugString()));
    } else {
      const int64_t want = format == "grayscale" ? 1 : 3;
      OP_REQUIRES(ctx, channels == want,
                  NodeError(ctx, "format ", format, " expects ", want, " channels, got ",
                            image.shape().DebugString()));
    }
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(), &output));
    absl::StatusOr<std::string> jpeg =
        image::EncodeJpeg(image.data<uint8_t>(), image.dim_size(0), image.dim_size(1),
                          static_cast<int>(channels), options);
    // TensorFlow's code for an image its encoder refuses (an empty one): INTERNAL.
    OP_REQUIRES(ctx, jpeg.ok(),
                AtNode(ctx, errors::Internal("JPEG encoding failed: ", jpeg.status().message())));
    *output->data<tstring>() = std::move(*jpeg);
  }

 private:
  std::string format_;
  image::JpegEncodeOptions options_;
};
REGISTER_KERNEL_BUILDER(Name("EncodeJpeg").Device(DEVICE_CPU), EncodeJpegOp);

// EncodeJpeg's defaults, with the quality from input 1.
class EncodeJpegVariableQualityOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& image = ctx->input(0);
    OP_REQUIRES(ctx, image.dims() == 3,
                NodeError(ctx, "image must be 3-dimensional", image.shape().DebugString()));
    const Tensor& quality = ctx->input(1);
    OP_REQUIRES(ctx, quality.dims() == 0,
                NodeError(ctx, "quality must be scalar: ", quality.shape().DebugString()));
    image::JpegEncodeOptions options;
    options.quality = *quality.data<int32_t>();
    OP_REQUIRES(ctx, options.quality >= 0 && options.quality <= 100,
                NodeError(ctx, "quality must be in [0,100], got ", options.quality));
    EncodeJpegOp::EncodeJpegImage(ctx, "", options);
  }
};
REGISTER_KERNEL_BUILDER(Name("EncodeJpegVariableQuality").Device(DEVICE_CPU),
                        EncodeJpegVariableQualityOp);

class ExtractJpegShapeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    OP_REQUIRES(ctx, contents.dims() == 0,
                NodeError(ctx, "contents must be scalar, got shape ",
                          contents.shape().DebugString()));
    absl::StatusOr<image::JpegShape> shape = image::ReadJpegShape(*contents.data<tstring>());
    OP_REQUIRES_OK(ctx, AtNode(ctx, shape.status()));
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({3}), &output));
    const int64_t dims[3] = {shape->height, shape->width, shape->components};
    for (int i = 0; i < 3; ++i) {
      if (output->dtype() == DT_INT64) {
        output->data<int64_t>()[i] = dims[i];
      } else {
        output->data<int32_t>()[i] = static_cast<int32_t>(dims[i]);
      }
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("ExtractJpegShape").Device(DEVICE_CPU), ExtractJpegShapeOp);

}  // namespace
}  // namespace sg
