// Audio front end of the speech-command graphs: DecodeWav, AudioSpectrogram, Mfcc; and EncodeWav.
#include "core/framework/op.h"
#include "core/framework/shape_inference.h"

namespace sg {

REGISTER_OP("DecodeWav")
    .Input("contents: string")
    .Attr("desired_channels: int = -1")
    .Attr("desired_samples: int = -1")
    .Output("audio: float")
    .Output("sample_rate: int32")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 0, &unused));
      int64_t channels, samples;
      SG_RETURN_IF_ERROR(c->GetAttr("desired_channels", &channels));
      SG_RETURN_IF_ERROR(c->GetAttr("desired_samples", &samples));
      c->set_output(0, PartialTensorShape({samples == -1 ? -1 : samples,
                                           channels == -1 ? -1 : channels}));
      c->set_output(1, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

REGISTER_OP("AudioSpectrogram")
    .Input("input: float")
    .Attr("window_size: int")
    .Attr("stride: int")
    .Attr("magnitude_squared: bool = false")
    .Output("spectrogram: float")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape input;
      SG_RETURN_IF_ERROR(c->WithRank(0, 2, &input));
      int64_t window_size, stride;
      SG_RETURN_IF_ERROR(c->GetAttr("window_size", &window_size));
      SG_RETURN_IF_ERROR(c->GetAttr("stride", &stride));
      int64_t frames = -1;
      const int64_t samples = input.dim_size(0);
      if (samples >= 0 && stride > 0) {
        frames = samples < window_size ? 0 : 1 + (samples - window_size) / stride;
      }
      int64_t fft_length = 1;
      while (fft_length < window_size) fft_length <<= 1;
      c->set_output(0, PartialTensorShape({input.dim_size(1), frames, fft_length / 2 + 1}));
      return absl::OkStatus();
    });

REGISTER_OP("Mfcc")
    .Input("spectrogram: float")
    .Input("sample_rate: int32")
    .Attr("upper_frequency_limit: float = 4000")
    .Attr("lower_frequency_limit: float = 20")
    .Attr("filterbank_channel_count: int = 40")
    .Attr("dct_coefficient_count: int = 13")
    .Output("output: float")
    .SetShapeFn([](InferenceContext* c) {
      PartialTensorShape spectrogram, unused;
      SG_RETURN_IF_ERROR(c->WithRank(0, 3, &spectrogram));
      SG_RETURN_IF_ERROR(c->WithRank(1, 0, &unused));
      int64_t coefficients;
      SG_RETURN_IF_ERROR(c->GetAttr("dct_coefficient_count", &coefficients));
      c->set_output(0, PartialTensorShape({spectrogram.dim_size(0), spectrogram.dim_size(1),
                                           coefficients}));
      return absl::OkStatus();
    });

// Encodes float samples [frames, channels] in [-1, 1] as a 16-bit PCM WAV file.
REGISTER_OP("EncodeWav")
    .Input("audio: float")
    .Input("sample_rate: int32")
    .Output("contents: string")
    .SetShapeFn([](InferenceContext* c) -> absl::Status {
      PartialTensorShape unused;
      if (!c->WithRank(0, 2, &unused).ok()) {
        return c->Error("audio must be 2-dimensional, got shape ", c->input(0).DebugString());
      }
      if (!c->WithRank(1, 0, &unused).ok()) {
        return c->Error("sample_rate must be a scalar, got shape ", c->input(1).DebugString());
      }
      c->set_output(0, PartialTensorShape::Scalar());
      return absl::OkStatus();
    });

}  // namespace sg
