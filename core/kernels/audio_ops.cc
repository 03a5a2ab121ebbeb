// DecodeWav, AudioSpectrogram and Mfcc: the audio front end of TensorFlow's speech-command
// graphs. The signal processing lives in audio_dsp.h. EncodeWav writes 16-bit PCM WAV files.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/framework/op_kernel.h"
#include "core/kernels/audio_dsp.h"
#include "core/kernels/cwise_ops_common.h"
#include "core/kernels/parallel_for.h"

namespace sg {
namespace {

class DecodeWavOp final : public OpKernel {
 public:
  explicit DecodeWavOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("desired_channels", &desired_channels_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("desired_samples", &desired_samples_));
    OP_REQUIRES(ctx, desired_channels_ >= -1 && desired_samples_ >= -1,
                errors::InvalidArgument("node '", name(), "': desired_channels and "
                                        "desired_samples must be -1 or non-negative"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    OP_REQUIRES(ctx, contents.dims() == 0,
                errors::InvalidArgument("contents must be scalar, got shape ",
                                        contents.shape().DebugString()));
    audio::DecodedWav wav;
    OP_REQUIRES_OK(ctx, audio::DecodeLin16Wav(*contents.data<tstring>(), &wav));
    const int64_t samples = desired_samples_ == -1 ? wav.sample_count : desired_samples_;
    const int64_t channels = desired_channels_ == -1 ? wav.channels : desired_channels_;
    Tensor* audio;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({samples, channels}), &audio));
    float* out = audio->data<float>();
    for (int64_t s = 0; s < samples; ++s) {
      for (int64_t c = 0; c < channels; ++c) {
        // Missing samples are silence; extra channels repeat the file's last channel.
        const int64_t source = std::min<int64_t>(c, wav.channels - 1);
        out[s * channels + c] =
            s < wav.sample_count ? wav.samples[s * wav.channels + source] : 0.0f;
      }
    }
    Tensor* rate;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape(), &rate));
    rate->scalar<int32_t>()() = static_cast<int32_t>(wav.sample_rate);
  }

 private:
  int64_t desired_channels_, desired_samples_;
};
REGISTER_KERNEL_BUILDER(Name("DecodeWav").Device(DEVICE_CPU), DecodeWavOp);

class AudioSpectrogramOp final : public OpKernel {
 public:
  explicit AudioSpectrogramOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("window_size", &window_size_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("stride", &stride_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("magnitude_squared", &magnitude_squared_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, input.dims() == 2,
                errors::InvalidArgument("input must be 2-dimensional",
                                        input.shape().DebugString()));
    auto spectrogram = audio::Spectrogram::Create(window_size_, stride_);
    OP_REQUIRES_OK(ctx, spectrogram.status());
    const audio::Spectrogram& spec = *spectrogram;
    const int64_t samples = input.dim_size(0);
    const int64_t channels = input.dim_size(1);
    const int64_t frames = spec.NumFrames(samples);
    const int64_t bins = spec.output_bins();
    Tensor* output;
    OP_REQUIRES_OK(ctx,
                   ctx->allocate_output(0, TensorShape({channels, frames, bins}), &output));
    float* out = output->data<float>();
    const float* in = input.data<float>();
    const bool squared = magnitude_squared_;
    auto work = [&](Eigen::Index begin, Eigen::Index end) {
      std::vector<std::complex<double>> scratch;
      std::vector<double> power(bins);
      for (Eigen::Index job = begin; job < end; ++job) {
        const int64_t c = job / frames, f = job % frames;
        spec.ComputeFrame(in + c, channels, f, power.data(), &scratch);
        float* row = out + job * bins;
        for (int64_t k = 0; k < bins; ++k) {
          row[k] = static_cast<float>(squared ? power[k] : std::sqrt(power[k]));
        }
      }
    };
    const double cost = 5.0 * spec.fft_length() * std::log2(double(spec.fft_length()));
    ParallelFor(ctx->eigen_cpu_device(), channels * frames,
                                        Eigen::TensorOpCost(0, bins * sizeof(float), cost), work);
  }

 private:
  int64_t window_size_, stride_;
  bool magnitude_squared_;
};
REGISTER_KERNEL_BUILDER(Name("AudioSpectrogram").Device(DEVICE_CPU), AudioSpectrogramOp);

class MfccOp final : public OpKernel {
 public:
  explicit MfccOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    float upper, lower;
    int64_t channels, coefficients;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("upper_frequency_limit", &upper));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("lower_frequency_limit", &lower));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("filterbank_channel_count", &channels));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dct_coefficient_count", &coefficients));
    OP_REQUIRES(ctx, channels > 0 && channels < (1 << 20) && coefficients > 0 &&
                         coefficients < (1 << 20),
                errors::InvalidArgument("node '", name(), "': filterbank_channel_count and "
                                        "dct_coefficient_count must be positive"));
    options_.upper_frequency_limit = upper;
    options_.lower_frequency_limit = lower;
    options_.filterbank_channel_count = static_cast<int>(channels);
    options_.dct_coefficient_count = static_cast<int>(coefficients);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& spectrogram = ctx->input(0);
    OP_REQUIRES(ctx, spectrogram.dims() == 3,
                errors::InvalidArgument("spectrogram must be 3-dimensional",
                                        spectrogram.shape().DebugString()));
    const Tensor& rate = ctx->input(1);
    OP_REQUIRES(ctx, rate.dims() == 0,
                errors::InvalidArgument("Input sample_rate should be a scalar tensor, got ",
                                        rate.shape().DebugString(), " instead."));
    const int32_t sample_rate = rate.scalar<int32_t>()();
    const int64_t audio_channels = spectrogram.dim_size(0);
    const int64_t frames = spectrogram.dim_size(1);
    const int64_t bins = spectrogram.dim_size(2);
    auto mfcc = audio::Mfcc::Create(bins, sample_rate, options_);
    OP_REQUIRES_OK(ctx, mfcc.status());
    const int64_t coefficients = options_.dct_coefficient_count;
    Tensor* output;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, TensorShape({audio_channels, frames, coefficients}), &output));
    const float* in = spectrogram.data<float>();
    float* out = output->data<float>();
    std::vector<double> frame(bins), result(coefficients);
    for (int64_t r = 0; r < audio_channels * frames; ++r) {
      std::copy(in + r * bins, in + (r + 1) * bins, frame.begin());
      mfcc->Compute(frame.data(), result.data());
      std::copy(result.begin(), result.end(), out + r * coefficients);
    }
  }

 private:
  audio::Mfcc::Options options_;
};
REGISTER_KERNEL_BUILDER(Name("Mfcc").Device(DEVICE_CPU), MfccOp);

// Appends `v` as `bytes` little-endian bytes.
void AppendLittleEndian(uint64_t v, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// As TensorFlow's EncodeWav: each sample times 2^15, rounded half away from zero and clamped to
// int16; a 44-byte RIFF/WAVE header (PCM format 1, 16 bits) before the interleaved samples.
class EncodeWavOp final : public OpKernel {
 public:
  explicit EncodeWavOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& audio = ctx->input(0);
    const Tensor& rate_in = ctx->input(1);
    OP_REQUIRES(ctx, audio.dims() == 2,
                KernelError(*this, "audio must be 2-dimensional", audio.shape().DebugString()));
    OP_REQUIRES(ctx, rate_in.dims() == 0,
                KernelError(*this, "Input sample_rate should be a scalar tensor, got ",
                            rate_in.shape().DebugString()));
    const int64_t frames = audio.dim_size(0);
    const int64_t channels = audio.dim_size(1);
    // TensorFlow reads the rate as unsigned: a negative one is out of range as a huge value.
    const uint64_t rate = static_cast<uint64_t>(static_cast<int64_t>(rate_in.data<int32_t>()[0]));
    OP_REQUIRES(ctx, channels > 0 && channels < (int64_t{1} << 16),
                KernelError(*this, "num_channels must be in (0, 2^16), got: ", channels));
    OP_REQUIRES(ctx, rate > 0 && rate < (uint64_t{1} << 32),
                KernelError(*this, "sample_rate must be in (0, 2^32), got: ", rate));
    const uint64_t data_bytes = static_cast<uint64_t>(frames) * channels * 2;
    OP_REQUIRES(ctx, data_bytes + 36 < (uint64_t{1} << 32),
                KernelError(*this, "audio of ", frames, " frames and ", channels,
                            " channels is too long for a WAV file"));
    std::string wav;
    wav.reserve(44 + data_bytes);
    wav += "RIFF";
    AppendLittleEndian(36 + data_bytes, 4, &wav);
    wav += "WAVEfmt ";
    AppendLittleEndian(16, 4, &wav);                  // fmt chunk size
    AppendLittleEndian(1, 2, &wav);                   // PCM
    AppendLittleEndian(channels, 2, &wav);
    AppendLittleEndian(rate, 4, &wav);
    AppendLittleEndian(rate * channels * 2, 4, &wav);  // bytes per second
    AppendLittleEndian(channels * 2, 2, &wav);         // bytes per frame
    AppendLittleEndian(16, 2, &wav);                  // bits per sample
    wav += "data";
    AppendLittleEndian(data_bytes, 4, &wav);
    const float* x = audio.data<float>();
    for (int64_t i = 0; i < audio.NumElements(); ++i) {
      // NaN has no int16 value (TensorFlow's conversion is undefined there): written as 0.
      const float scaled = std::isnan(x[i]) ? 0.0f : std::round(x[i] * 32768.0f);
      const float clamped = std::min(std::max(scaled, -32768.0f), 32767.0f);
      AppendLittleEndian(static_cast<uint16_t>(static_cast<int16_t>(clamped)), 2, &wav);
    }
    Tensor* out;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &out));
    out->data<tstring>()[0] = std::move(wav);
  }
};
REGISTER_KERNEL_BUILDER(Name("EncodeWav").Device(DEVICE_CPU), EncodeWavOp);

}  // namespace
}  // namespace sg
