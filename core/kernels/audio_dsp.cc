#include "core/kernels/audio_dsp.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <cstring>
#include <limits>

namespace sg {
namespace audio {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A cursor over the WAV bytes; every read checks the bounds.
class Reader {
 public:
  explicit Reader(absl::string_view data) : data_(data) {}
  size_t offset() const { return offset_; }
  bool done() const { return offset_ >= data_.size(); }

  absl::Status Skip(uint64_t n) {
    if (n > data_.size() - offset_) {
      return errors::InvalidArgument("Data too short when trying to skip ", n,
                                     " bytes at offset ", offset_, " of a ", data_.size(),
                                     "-byte WAV");
    }
    offset_ += n;
    return absl::OkStatus();
  }
  absl::Status Text(size_t n, std::string* out) {
    if (n > data_.size() - offset_) {
      return errors::InvalidArgument("Data too short when trying to read a ", n,
                                     "-byte string at offset ", offset_);
    }
    out->assign(data_.data() + offset_, n);
    offset_ += n;
    return absl::OkStatus();
  }
  absl::Status Expect(absl::string_view text) {
    std::string found;
    SG_RETURN_IF_ERROR(Text(text.size(), &found));
    if (found != text) {
      return errors::InvalidArgument("Header mismatch: Expected ", text, " but found ", found);
    }
    return absl::OkStatus();
  }
  // Little-endian unsigned value of `bytes` bytes.
  absl::Status Uint(int bytes, uint32_t* out) {
    if (static_cast<size_t>(bytes) > data_.size() - offset_) {
      return errors::InvalidArgument("Data too short when trying to read a ", bytes * 8,
                                     "-bit value at offset ", offset_);
    }
    uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) {
      v |= static_cast<uint32_t>(static_cast<uint8_t>(data_[offset_ + i])) << (8 * i);
    }
    offset_ += bytes;
    *out = v;
    return absl::OkStatus();
  }
  const char* here() const { return data_.data() + offset_; }

 private:
  absl::string_view data_;
  size_t offset_ = 0;
};

bool IsSkippableBeforeFormat(const std::string& id) {
  for (const char* ok : {"JUNK", "bext", "iXML", "qlty", "mext", "levl", "link", "axml"}) {
    if (id == ok) return true;
  }
  return false;
}

double FreqToMel(double hz) { return 1127.0 * std::log1p(hz / 700.0); }

}  // namespace

absl::Status DecodeLin16Wav(absl::string_view wav, DecodedWav* out) {
  Reader r(wav);
  SG_RETURN_IF_ERROR(r.Expect("RIFF"));
  uint32_t riff_size = 0;
  SG_RETURN_IF_ERROR(r.Uint(4, &riff_size));
  SG_RETURN_IF_ERROR(r.Expect("WAVE"));
  std::string id;
  SG_RETURN_IF_ERROR(r.Text(4, &id));
  while (id != "fmt ") {
    if (!IsSkippableBeforeFormat(id)) return errors::InvalidArgument("Unexpected field ", id);
    uint32_t size = 0;
    SG_RETURN_IF_ERROR(r.Uint(4, &size));
    SG_RETURN_IF_ERROR(r.Skip(size));
    SG_RETURN_IF_ERROR(r.Text(4, &id));
  }
  uint32_t format_size = 0, format = 0, channels = 0, sample_rate = 0, bytes_per_second = 0,
           block_align = 0, bits = 0;
  SG_RETURN_IF_ERROR(r.Uint(4, &format_size));
  if (format_size != 16 && format_size != 18) {
    return errors::InvalidArgument("Bad format chunk size for WAV: Expected 16 or 18, but got ",
                                   format_size);
  }
  SG_RETURN_IF_ERROR(r.Uint(2, &format));
  if (format != 1) {
    return errors::InvalidArgument("Bad audio format for WAV: Expected 1 (PCM), but got ",
                                   format);
  }
  SG_RETURN_IF_ERROR(r.Uint(2, &channels));
  if (channels < 1) {
    return errors::InvalidArgument("Bad number of channels for WAV: Expected at least 1, but got ",
                                   channels);
  }
  SG_RETURN_IF_ERROR(r.Uint(4, &sample_rate));
  SG_RETURN_IF_ERROR(r.Uint(4, &bytes_per_second));
  SG_RETURN_IF_ERROR(r.Uint(2, &block_align));
  SG_RETURN_IF_ERROR(r.Uint(2, &bits));
  if (bits != 16) {
    return errors::InvalidArgument("Can only read 16-bit WAV files, but received ", bits);
  }
  const uint32_t expected_align = (bits * channels + 7) / 8;
  if (block_align != expected_align) {
    return errors::InvalidArgument("Bad bytes per sample in WAV header: Expected ",
                                   expected_align, " but got ", block_align);
  }
  if (static_cast<uint64_t>(bytes_per_second) !=
      static_cast<uint64_t>(block_align) * sample_rate) {
    return errors::InvalidArgument("Bad bytes per second in WAV header: Expected ",
                                   static_cast<uint64_t>(block_align) * sample_rate,
                                   " but got ", bytes_per_second, " (sample_rate=", sample_rate,
                                   ", bytes_per_sample=", block_align, ")");
  }
  if (format_size == 18) SG_RETURN_IF_ERROR(r.Skip(2));

  bool found_data = false;
  while (!r.done()) {
    std::string chunk;
    uint32_t size = 0;
    SG_RETURN_IF_ERROR(r.Text(4, &chunk));
    SG_RETURN_IF_ERROR(r.Uint(4, &size));
    if (size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
      return errors::InvalidArgument("WAV data chunk '", chunk, "' is too large: ", size,
                                     " bytes, but the limit is ",
                                     std::numeric_limits<int32_t>::max());
    }
    if (chunk != "data") {
      SG_RETURN_IF_ERROR(r.Skip(size));
      continue;
    }
    if (found_data) return errors::InvalidArgument("More than one data chunk found in WAV");
    found_data = true;
    const int64_t frames = size / block_align;
    const int64_t values = frames * channels;
    const char* p = r.here();
    // Checks that the samples are there before allocating room for them.
    SG_RETURN_IF_ERROR(r.Skip(static_cast<uint64_t>(values) * 2));
    out->samples.resize(values);
    for (int64_t i = 0; i < values; ++i) {
      const uint16_t u = static_cast<uint16_t>(static_cast<uint8_t>(p[2 * i])) |
                         static_cast<uint16_t>(static_cast<uint8_t>(p[2 * i + 1])) << 8;
      out->samples[i] = static_cast<int16_t>(u) * (1.0f / 32768.0f);
    }
    out->sample_count = frames;
  }
  if (!found_data) return errors::InvalidArgument("No data chunk found in WAV");
  out->channels = static_cast<int>(channels);
  out->sample_rate = sample_rate;
  return absl::OkStatus();
}

// ---- Spectrogram ----

absl::StatusOr<Spectrogram> Spectrogram::Create(int64_t window_length, int64_t step) {
  if (window_length < 2 || window_length > (int64_t{1} << 30) || step < 1) {
    return errors::InvalidArgument("Spectrogram initialization failed for window size ",
                                   window_length, " and stride ", step);
  }
  Spectrogram s;
  s.window_length_ = window_length;
  s.step_ = step;
  s.fft_length_ = 1;
  while (s.fft_length_ < window_length) s.fft_length_ <<= 1;
  s.window_.resize(window_length);
  for (int64_t i = 0; i < window_length; ++i) {
    s.window_[i] = 0.5 - 0.5 * std::cos(2 * kPi * i / window_length);
  }
  const int64_t n = s.fft_length_;
  s.twiddles_.resize(n / 2);
  for (int64_t k = 0; k < n / 2; ++k) {
    s.twiddles_[k] = std::polar(1.0, -2 * kPi * k / n);
  }
  int log2n = 0;
  while ((int64_t{1} << log2n) < n) ++log2n;
  s.bit_reverse_.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rev = 0;
    for (int b = 0; b < log2n; ++b) {
      if (i & (int64_t{1} << b)) rev |= int64_t{1} << (log2n - 1 - b);
    }
    s.bit_reverse_[i] = rev;
  }
  return s;
}

int64_t Spectrogram::NumFrames(int64_t samples) const {
  return samples < window_length_ ? 0 : 1 + (samples - window_length_) / step_;
}

void Spectrogram::ComputeFrame(const float* samples, int64_t sample_stride, int64_t frame,
                               double* out, std::vector<std::complex<double>>* scratch) const {
  const int64_t n = fft_length_;
  std::vector<std::complex<double>>& a = *scratch;
  a.assign(n, 0.0);
  const float* x = samples + frame * step_ * sample_stride;
  // Windowed, zero-padded input placed in bit-reversed order for the in-place FFT.
  for (int64_t j = 0; j < window_length_; ++j) {
    a[bit_reverse_[j]] = static_cast<double>(x[j * sample_stride]) * window_[j];
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    const int64_t half = len / 2;
    const int64_t tw_step = n / len;
    for (int64_t i = 0; i < n; i += len) {
      for (int64_t j = 0; j < half; ++j) {
        const std::complex<double> u = a[i + j];
        const std::complex<double> v = a[i + j + half] * twiddles_[j * tw_step];
        a[i + j] = u + v;
        a[i + j + half] = u - v;
      }
    }
  }
  for (int64_t k = 0; k <= n / 2; ++k) {
    out[k] = a[k].real() * a[k].real() + a[k].imag() * a[k].imag();
  }
}

// ---- Mfcc ----

absl::StatusOr<Mfcc> Mfcc::Create(int64_t input_length, double sample_rate,
                                  const Options& options) {
  const int channels = options.filterbank_channel_count;
  const int coefficients = options.dct_coefficient_count;
  if (channels < 1 || sample_rate <= 0 || input_length < 2 ||
      options.lower_frequency_limit < 0 ||
      options.upper_frequency_limit <= options.lower_frequency_limit || coefficients < 1 ||
      coefficients > channels) {
    return errors::InvalidArgument(
        "Mfcc initialization failed for channel count ", input_length, ", sample rate ",
        sample_rate, " and filterbank_channel_count ", channels, " (dct_coefficient_count ",
        coefficients, ", frequency limits ", options.lower_frequency_limit, " to ",
        options.upper_frequency_limit, ")");
  }
  Mfcc m;
  m.options_ = options;
  m.input_length_ = input_length;

  // Channel edges are evenly spaced on the mel scale: centers[i] is the peak of channel i and
  // the upper edge of channel i-1; centers[channels] is the upper limit.
  const double mel_low = FreqToMel(options.lower_frequency_limit);
  const double mel_high = FreqToMel(options.upper_frequency_limit);
  const double spacing = (mel_high - mel_low) / (channels + 1);
  std::vector<double> centers(channels + 1);
  for (int i = 0; i <= channels; ++i) centers[i] = mel_low + spacing * (i + 1);

  const double hz_per_bin = 0.5 * sample_rate / static_cast<double>(input_length - 1);
  m.start_index_ = static_cast<int64_t>(1.5 + options.lower_frequency_limit / hz_per_bin);
  m.end_index_ = static_cast<int64_t>(options.upper_frequency_limit / hz_per_bin);

  m.band_mapper_.assign(input_length, -2);
  m.weights_.assign(input_length, 0.0);
  int channel = 0;
  for (int64_t i = 0; i < input_length; ++i) {
    if (i < m.start_index_ || i > m.end_index_) continue;
    const double mel = FreqToMel(i * hz_per_bin);
    while (channel < channels && centers[channel] < mel) ++channel;
    const int band = channel - 1;
    m.band_mapper_[i] = band;
    m.weights_[i] = band >= 0 ? (centers[band + 1] - mel) / (centers[band + 1] - centers[band])
                              : (centers[0] - mel) / (centers[0] - mel_low);
  }

  // DCT-II with sqrt(2/N) scaling on every coefficient (the first too).
  m.dct_.resize(static_cast<size_t>(coefficients) * channels);
  const double norm = std::sqrt(2.0 / channels);
  for (int i = 0; i < coefficients; ++i) {
    for (int j = 0; j < channels; ++j) {
      m.dct_[i * channels + j] = norm * std::cos(kPi / channels * i * (j + 0.5));
    }
  }
  return m;
}

void Mfcc::Compute(const double* power, double* out) const {
  const int channels = options_.filterbank_channel_count;
  const int coefficients = options_.dct_coefficient_count;
  if (end_index_ >= input_length_) {
    // The upper limit lies beyond the spectrum: TensorFlow's filterbank gives up and its DCT of
    // nothing yields zeros. Reproduced so graphs give TensorFlow's answers.
    for (int i = 0; i < coefficients; ++i) out[i] = 0.0;
    return;
  }
  std::vector<double> energies(channels, 0.0);
  for (int64_t i = start_index_; i <= end_index_; ++i) {
    const double magnitude = std::sqrt(power[i]);
    const double on_lower = magnitude * weights_[i];
    const int band = band_mapper_[i];
    if (band >= 0) energies[band] += on_lower;
    if (band + 1 < channels) energies[band + 1] += magnitude - on_lower;
  }
  constexpr double kFloor = 1e-12;
  for (double& e : energies) e = std::log(std::max(e, kFloor));
  for (int i = 0; i < coefficients; ++i) {
    double sum = 0.0;
    for (int j = 0; j < channels; ++j) sum += dct_[i * channels + j] * energies[j];
    out[i] = sum;
  }
}

}  // namespace audio
}  // namespace sg
