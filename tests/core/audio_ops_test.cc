// DecodeWav on WAV files built here, AudioSpectrogram against a direct DFT, and Mfcc against a
// per-channel triangular filterbank written independently here plus a hand-computed case.
#include <cmath>
#include <complex>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

constexpr double kPi = 3.14159265358979323846;

void Put(std::string* s, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A RIFF/WAVE file of interleaved 16-bit samples, with an optional LIST chunk before the data.
std::string MakeWav(const std::vector<int16_t>& samples, int channels, uint32_t rate,
                    bool with_list = false, int bits = 16) {
  std::string body = "WAVE";
  body += "fmt ";
  Put(&body, 16, 4);
  Put(&body, 1, 2);
  Put(&body, channels, 2);
  Put(&body, rate, 4);
  const int align = channels * bits / 8;
  Put(&body, rate * align, 4);
  Put(&body, align, 2);
  Put(&body, bits, 2);
  if (with_list) {
    body += "LIST";
    Put(&body, 6, 4);
    body += "abcdef";
  }
  body += "data";
  Put(&body, samples.size() * 2, 4);
  for (int16_t v : samples) Put(&body, static_cast<uint16_t>(v), 2);
  std::string wav = "RIFF";
  Put(&wav, body.size(), 4);
  return wav + body;
}

Tensor StringScalar(const std::string& s) {
  Tensor t(DT_STRING, TensorShape());
  *t.data<tstring>() = s;
  return t;
}

absl::StatusOr<std::vector<Tensor>> Decode(const std::string& wav, int64_t channels = -1,
                                           int64_t samples = -1) {
  return RunKernel(NodeDefFor("DecodeWav", {{"desired_channels", channels},
                                            {"desired_samples", samples}}),
                   {StringScalar(wav)});
}

TEST(DecodeWav, DecodesStereoPcmToFloats) {
  std::vector<int16_t> pcm = {0, -32768, 16384, 32767, -1, 100};
  auto out = Decode(MakeWav(pcm, 2, 22050, /*with_list=*/true));
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& audio = (*out)[0];
  EXPECT_EQ(audio.shape(), TensorShape({3, 2}));
  std::vector<float> expected;
  for (int16_t v : pcm) expected.push_back(v / 32768.0f);
  EXPECT_EQ(Values<float>(audio), expected);
  EXPECT_EQ((*out)[1].scalar<int32_t>()(), 22050);
}

TEST(DecodeWav, PadsTruncatesAndMapsChannels) {
  std::vector<int16_t> stereo = {1000, 2000, 3000, 4000};
  auto padded = Decode(MakeWav(stereo, 2, 16000), /*channels=*/1, /*samples=*/4);
  ASSERT_TRUE(padded.ok()) << padded.status();
  EXPECT_EQ((*padded)[0].shape(), TensorShape({4, 1}));
  EXPECT_EQ(Values<float>((*padded)[0]),
            std::vector<float>({1000 / 32768.f, 3000 / 32768.f, 0, 0}));

  auto truncated = Decode(MakeWav(stereo, 2, 16000), -1, 1);
  ASSERT_TRUE(truncated.ok());
  EXPECT_EQ(Values<float>((*truncated)[0]), std::vector<float>({1000 / 32768.f, 2000 / 32768.f}));

  // Extra channels repeat the file's last channel.
  auto widened = Decode(MakeWav({-500, 700}, 1, 8000), 3, -1);
  ASSERT_TRUE(widened.ok());
  EXPECT_EQ((*widened)[0].shape(), TensorShape({2, 3}));
  const float a = -500 / 32768.f, b = 700 / 32768.f;
  EXPECT_EQ(Values<float>((*widened)[0]), std::vector<float>({a, a, a, b, b, b}));

  auto none = Decode(MakeWav({}, 1, 8000), -1, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)[0].shape(), TensorShape({0, 1}));
}

TEST(DecodeWav, RejectsWhatItCannotDecode) {
  std::string good = MakeWav({1, 2, 3, 4}, 1, 16000);
  EXPECT_EQ(Decode("RIFX" + good.substr(4)).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Decode(good.substr(0, good.size() - 3)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Decode(good.substr(0, 30)).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Decode(MakeWav({1, 2}, 1, 16000, false, 8)).status().code(),
            absl::StatusCode::kInvalidArgument);
  std::string no_data = good.substr(0, 36);
  EXPECT_EQ(Decode(no_data).status().code(), absl::StatusCode::kInvalidArgument);
  Tensor vec(DT_STRING, TensorShape({1}));
  EXPECT_EQ(RunKernel(NodeDefFor("DecodeWav", {}), {vec}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Reference: |sum_j x[j] w[j] e^{-2 pi i j k / N}| with the periodic Hann window, N the next
// power of two, computed directly.
std::vector<double> DirectSpectrum(const std::vector<double>& x, int window, int fft) {
  std::vector<double> out(fft / 2 + 1);
  for (int k = 0; k <= fft / 2; ++k) {
    std::complex<double> sum = 0;
    for (int j = 0; j < window; ++j) {
      const double w = 0.5 - 0.5 * std::cos(2 * kPi * j / window);
      sum += x[j] * w * std::polar(1.0, -2 * kPi * j * k / fft);
    }
    out[k] = std::abs(sum);
  }
  return out;
}

TEST(AudioSpectrogram, MatchesADirectDft) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int window : {5, 8, 12}) {
    const int stride = 3, samples = 29, channels = 2;
    const int fft = window <= 8 ? 8 : 16;
    std::vector<float> pcm(samples * channels);
    for (float& v : pcm) v = dist(rng);
    Tensor input = MakeTensor<float>({samples, channels}, pcm);
    for (bool squared : {false, true}) {
      auto out = RunKernel(NodeDefFor("AudioSpectrogram", {{"window_size", int64_t{window}},
                                                           {"stride", int64_t{stride}},
                                                           {"magnitude_squared", squared}}),
                           {input});
      ASSERT_TRUE(out.ok()) << out.status();
      const Tensor& spec = (*out)[0];
      const int frames = 1 + (samples - window) / stride;
      ASSERT_EQ(spec.shape(), TensorShape({channels, frames, fft / 2 + 1}));
      for (int c = 0; c < channels; ++c) {
        for (int f = 0; f < frames; ++f) {
          std::vector<double> x(window);
          for (int j = 0; j < window; ++j) x[j] = pcm[(f * stride + j) * channels + c];
          std::vector<double> ref = DirectSpectrum(x, window, fft);
          for (int k = 0; k <= fft / 2; ++k) {
            const double want = squared ? ref[k] * ref[k] : ref[k];
            const float got = spec.data<float>()[(c * frames + f) * (fft / 2 + 1) + k];
            EXPECT_NEAR(got, want, 1e-5 * (1 + std::abs(want)))
                << "window " << window << " c " << c << " f " << f << " k " << k;
          }
        }
      }
    }
  }
}

TEST(AudioSpectrogram, HandlesShortInputsAndRejectsBadWindows) {
  auto out = RunKernel(NodeDefFor("AudioSpectrogram", {{"window_size", int64_t{8}},
                                                       {"stride", int64_t{4}}}),
                       {Tensor(DT_FLOAT, TensorShape({5, 1}))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), TensorShape({1, 0, 5}));
  auto bad = RunKernel(NodeDefFor("AudioSpectrogram", {{"window_size", int64_t{1}},
                                                       {"stride", int64_t{1}}}),
                       {Tensor(DT_FLOAT, TensorShape({5, 1}))});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto rank = RunKernel(NodeDefFor("AudioSpectrogram", {{"window_size", int64_t{4}},
                                                        {"stride", int64_t{1}}}),
                        {Tensor(DT_FLOAT, TensorShape({5}))});
  EXPECT_EQ(rank.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(AudioSpectrogram, ASineWavePeaksAtItsBin) {
  // 16 cycles over a 256-sample window: all energy in bin 16 (and its Hann neighbours).
  const int n = 256;
  std::vector<float> pcm(n);
  for (int i = 0; i < n; ++i) pcm[i] = std::sin(2 * kPi * 16 * i / n);
  auto out = RunKernel(NodeDefFor("AudioSpectrogram", {{"window_size", int64_t{n}},
                                                       {"stride", int64_t{n}}}),
                       {MakeTensor<float>({n, 1}, pcm)});
  ASSERT_TRUE(out.ok());
  const float* s = (*out)[0].data<float>();
  // Hann window: peak n/4 at the bin, n/8 at its neighbours, ~0 elsewhere.
  EXPECT_NEAR(s[16], n / 4.0, 1e-3);
  EXPECT_NEAR(s[15], n / 8.0, 1e-3);
  EXPECT_NEAR(s[17], n / 8.0, 1e-3);
  EXPECT_NEAR(s[40], 0.0, 1e-3);
}

// Independent MFCC reference: one triangle per channel on the mel scale, edges evenly spaced
// from the lower to the upper limit, summed over the bins TensorFlow's filterbank uses.
std::vector<double> ReferenceMfcc(const std::vector<double>& power, double rate, double lower,
                                  double upper, int channels, int coefficients) {
  auto mel = [](double f) { return 1127.0 * std::log(1 + f / 700.0); };
  const int bins = static_cast<int>(power.size());
  const double hz = rate / 2 / (bins - 1);
  std::vector<double> edges(channels + 2);
  for (int i = 0; i < channels + 2; ++i) {
    edges[i] = mel(lower) + (mel(upper) - mel(lower)) * i / (channels + 1);
  }
  const int start = static_cast<int>(1.5 + lower / hz), end = static_cast<int>(upper / hz);
  std::vector<double> energy(channels, 0.0);
  for (int c = 0; c < channels; ++c) {
    for (int i = start; i <= end; ++i) {
      const double m = mel(i * hz);
      double tri = 0;
      if (m > edges[c] && m <= edges[c + 1]) tri = (m - edges[c]) / (edges[c + 1] - edges[c]);
      if (m > edges[c + 1] && m < edges[c + 2]) {
        tri = (edges[c + 2] - m) / (edges[c + 2] - edges[c + 1]);
      }
      energy[c] += tri * std::sqrt(power[i]);
    }
  }
  std::vector<double> out(coefficients, 0.0);
  for (int k = 0; k < coefficients; ++k) {
    for (int j = 0; j < channels; ++j) {
      out[k] += std::sqrt(2.0 / channels) * std::log(std::max(energy[j], 1e-12)) *
                std::cos(kPi * k * (j + 0.5) / channels);
    }
  }
  return out;
}

absl::StatusOr<std::vector<Tensor>> RunMfcc(const Tensor& spec, int32_t rate,
                                            std::vector<test::AttrArg> attrs = {}) {
  return RunKernel(NodeDefFor("Mfcc", attrs), {spec, Tensor::Scalar<int32_t>(rate)});
}

TEST(Mfcc, MatchesAnIndependentTriangleFilterbank) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(0, 4);
  const int bins = 257, frames = 3;
  std::vector<float> spec(2 * frames * bins);
  for (float& v : spec) v = dist(rng);
  Tensor input = MakeTensor<float>({2, frames, bins}, spec);
  auto out = RunMfcc(input, 16000, {{"dct_coefficient_count", int64_t{10}}});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& mfcc = (*out)[0];
  ASSERT_EQ(mfcc.shape(), TensorShape({2, frames, 10}));
  for (int r = 0; r < 2 * frames; ++r) {
    std::vector<double> power(spec.begin() + r * bins, spec.begin() + (r + 1) * bins);
    std::vector<double> ref = ReferenceMfcc(power, 16000, 20, 4000, 40, 10);
    for (int k = 0; k < 10; ++k) {
      EXPECT_NEAR(mfcc.data<float>()[r * 10 + k], ref[k], 1e-4 * (1 + std::abs(ref[k])))
          << "row " << r << " coefficient " << k;
    }
  }
}

TEST(Mfcc, SilenceGivesTheFloorInTheFirstCoefficientOnly) {
  // Every channel's energy is floored at 1e-12, so the log spectrum is flat: coefficient 0 is
  // sqrt(2/40) * 40 * ln(1e-12) = sqrt(80) * ln(1e-12) and the others vanish.
  Tensor zeros = MakeTensor<float>({1, 1, 513}, std::vector<float>(513, 0.f));
  auto out = RunMfcc(zeros, 16000);
  ASSERT_TRUE(out.ok());
  const Tensor& m = (*out)[0];
  ASSERT_EQ(m.shape(), TensorShape({1, 1, 13}));
  EXPECT_NEAR(m.data<float>()[0], std::sqrt(80.0) * std::log(1e-12), 1e-3);
  for (int k = 1; k < 13; ++k) EXPECT_NEAR(m.data<float>()[k], 0.0, 1e-4) << k;
}

TEST(Mfcc, RejectsBadSettings) {
  Tensor spec = MakeTensor<float>({1, 1, 65}, std::vector<float>(65, 1.f));
  EXPECT_EQ(RunMfcc(spec, 16000, {{"dct_coefficient_count", int64_t{50}}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunMfcc(spec, 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunMfcc(spec, 16000, {{"lower_frequency_limit", 5000.f}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunMfcc(MakeTensor<float>({65}, std::vector<float>(65, 1.f)), 16000).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// The keyword-spotting front end on the silence sample: DecodeWav(16000) ->
// AudioSpectrogram(640, 640, squared) -> Mfcc(40 channels, 10 coefficients) gives [1, 25, 10].
TEST(AudioFrontEnd, RunsTheKeywordSpottingPipelineOnSilence) {
  std::ifstream f(std::string(SG_SHARED_TESTDATA) + "/kws_samples/silence.wav",
                  std::ios::binary);
  if (!f) GTEST_SKIP() << "silence.wav not found";
  std::stringstream bytes;
  bytes << f.rdbuf();
  auto wav = Decode(bytes.str(), 1, 16000);
  ASSERT_TRUE(wav.ok()) << wav.status();
  EXPECT_EQ((*wav)[0].shape(), TensorShape({16000, 1}));
  EXPECT_EQ((*wav)[1].scalar<int32_t>()(), 16000);
  auto spec = RunKernel(NodeDefFor("AudioSpectrogram", {{"window_size", int64_t{640}},
                                                        {"stride", int64_t{640}},
                                                        {"magnitude_squared", true}}),
                        {(*wav)[0]});
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ((*spec)[0].shape(), TensorShape({1, 25, 513}));
  auto mfcc = RunMfcc((*spec)[0], 16000, {{"dct_coefficient_count", int64_t{10}}});
  ASSERT_TRUE(mfcc.ok()) << mfcc.status();
  EXPECT_EQ((*mfcc)[0].shape(), TensorShape({1, 25, 10}));
  for (float v : Values<float>((*mfcc)[0])) EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
}  // namespace sg
