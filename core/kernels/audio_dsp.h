// The signal processing behind the audio ops, written from the published descriptions of
// TensorFlow's: 16-bit PCM WAV parsing, a Hann-windowed power spectrogram, and MFCCs (a mel
// filterbank over the spectrogram's magnitudes, a log, and a DCT-II).
//
//   auto spec = audio::Spectrogram::Create(640, 320);
//   std::vector<double> power;   // frames x spec->output_bins()
//   spec->Compute(samples, n, /*sample_stride=*/1, &power);
//   auto mfcc = audio::Mfcc::Create(spec->output_bins(), 16000, {});
//   mfcc->Compute(&power[0], coefficients);
//
// Thread safety: the objects are immutable after Create; Compute may run concurrently.
#ifndef SG_CORE_KERNELS_AUDIO_DSP_H_
#define SG_CORE_KERNELS_AUDIO_DSP_H_

#include <complex>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/framework/status.h"

namespace sg {
namespace audio {

struct DecodedWav {
  std::vector<float> samples;  // interleaved, sample_count * channels values in [-1, 1)
  int64_t sample_count = 0;
  int channels = 0;
  uint32_t sample_rate = 0;
};

// Parses a RIFF/WAVE file of 16-bit PCM. INVALID_ARGUMENT saying what is wrong for anything
// else (another format or bit depth, a truncated file, a missing data chunk).
absl::Status DecodeLin16Wav(absl::string_view wav, DecodedWav* out);

class Spectrogram {
 public:
  // INVALID_ARGUMENT unless window_length >= 2 and step >= 1.
  static absl::StatusOr<Spectrogram> Create(int64_t window_length, int64_t step);

  // Frames for `samples` input samples: 1 + (samples - window) / step, or 0 if too short.
  int64_t NumFrames(int64_t samples) const;
  int64_t fft_length() const { return fft_length_; }
  int64_t output_bins() const { return fft_length_ / 2 + 1; }

  // |FFT|^2 of frame `frame` of `samples` (n values, `sample_stride` apart) into
  // out[0 .. output_bins()). `scratch` is reused across calls.
  void ComputeFrame(const float* samples, int64_t sample_stride, int64_t frame, double* out,
                    std::vector<std::complex<double>>* scratch) const;

 private:
  Spectrogram() = default;
  int64_t window_length_ = 0, step_ = 0, fft_length_ = 0;
  std::vector<double> window_;                    // periodic Hann
  std::vector<std::complex<double>> twiddles_;    // exp(-2 pi i k / fft_length), k < fft/2
  std::vector<int64_t> bit_reverse_;
};

class Mfcc {
 public:
  struct Options {
    double lower_frequency_limit = 20;
    double upper_frequency_limit = 4000;
    int filterbank_channel_count = 40;
    int dct_coefficient_count = 13;
  };
  // `input_length`: bins per spectrogram frame. INVALID_ARGUMENT for settings TensorFlow's Mfcc
  // refuses (non-positive counts or rate, limits out of order, more coefficients than channels).
  static absl::StatusOr<Mfcc> Create(int64_t input_length, double sample_rate,
                                     const Options& options);

  // The coefficients of one frame of squared magnitudes (input_length values) into
  // out[0 .. dct_coefficient_count).
  void Compute(const double* power, double* out) const;

 private:
  Mfcc() = default;
  Options options_;
  int64_t input_length_ = 0;
  int64_t start_index_ = 0, end_index_ = 0;
  std::vector<int> band_mapper_;     // the channel whose upper slope each bin is on, -1 before
  std::vector<double> weights_;      // weight of each bin on that channel
  std::vector<double> dct_;          // dct_coefficient_count x filterbank_channel_count
};

}  // namespace audio
}  // namespace sg

#endif  // SG_CORE_KERNELS_AUDIO_DSP_H_
