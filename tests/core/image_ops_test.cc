// The image kernels beside the conformance cases (tests/oracle/op_cases/image_*.pb.gz, which
// hold TensorFlow's results): lossless round trips through the PNG codec, JPEG round trips within
// JPEG's error, BMP and GIF files written here, and thousands of damaged files of each format,
// which must decode or fail with INVALID_ARGUMENT, never crash (run under the sanitizers by
// scripts/test.sh). Resize and NMS get a few answers worked out by hand.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/core/ops_testutil.h"

namespace sg {
namespace {

using test::MakeTensor;
using test::NodeDefFor;
using test::RunKernel;
using test::Values;

Tensor StringScalar(const std::string& s) {
  Tensor t(DT_STRING, TensorShape());
  *t.data<tstring>() = s;
  return t;
}

// A smooth RGB-ish image with some texture: [h, w, c] uint8.
Tensor TestImage(int64_t h, int64_t w, int64_t c) {
  Tensor t(DT_UINT8, TensorShape({h, w, c}));
  uint8_t* p = t.data<uint8_t>();
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      for (int64_t k = 0; k < c; ++k) {
        const double v = 128 + 100 * std::sin(0.3 * x + 0.2 * y + k) + ((x * 7 + y * 13) % 9);
        *p++ = static_cast<uint8_t>(std::max(0.0, std::min(255.0, v)));
      }
    }
  }
  return t;
}

std::string Encode(const std::string& op, const Tensor& image,
                   std::vector<test::AttrArg> attrs = {}) {
  if (op == "EncodePng") attrs.push_back({"T", image.dtype()});
  auto out = RunKernel(NodeDefFor(op, std::move(attrs), 1), {image});
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *(*out)[0].data<tstring>() : "";
}

absl::StatusOr<Tensor> DecodeImage(const std::string& data, DataType dtype = DT_UINT8,
                                   int64_t channels = 0) {
  auto out = RunKernel(NodeDefFor("DecodeImage", {{"dtype", dtype}, {"channels", channels}}, 1),
                       {StringScalar(data)});
  if (!out.ok()) return out.status();
  return (*out)[0];
}

void Put(std::string* s, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// An uncompressed 24-bit BMP of `rgb` ([h, w, 3] uint8), rows bottom-up, padded to 4 bytes.
std::string MakeBmp(const Tensor& rgb) {
  const int64_t h = rgb.dim_size(0), w = rgb.dim_size(1);
  const int64_t row = (3 * w + 3) / 4 * 4;
  std::string bmp = "BM";
  Put(&bmp, 54 + row * h, 4);
  Put(&bmp, 0, 4);
  Put(&bmp, 54, 4);
  Put(&bmp, 40, 4);
  Put(&bmp, w, 4);
  Put(&bmp, h, 4);
  Put(&bmp, 1, 2);
  Put(&bmp, 24, 2);
  for (int i = 0; i < 6; ++i) Put(&bmp, 0, 4);
  const uint8_t* p = rgb.data<uint8_t>();
  for (int64_t y = h - 1; y >= 0; --y) {
    for (int64_t x = 0; x < w; ++x) {
      const uint8_t* px = p + (y * w + x) * 3;
      bmp.push_back(static_cast<char>(px[2]));
      bmp.push_back(static_cast<char>(px[1]));
      bmp.push_back(static_cast<char>(px[0]));
    }
    bmp.append(row - 3 * w, '\0');
  }
  return bmp;
}

// A GIF89a of frames of 8-bit color indices into a 256-color global table (entry i is
// (i, 255 - i, i / 2)); LZW codes kept at 9 bits by a clear code every 100 pixels.
struct GifFrame {
  int left, top, width, height;
  std::vector<uint8_t> indices;
  int transparent = -1;
};

std::string MakeGif(int width, int height, const std::vector<GifFrame>& frames) {
  std::string gif = "GIF89a";
  Put(&gif, width, 2);
  Put(&gif, height, 2);
  gif += std::string("\xf7\x00\x00", 3);  // global table of 2^8 entries
  for (int i = 0; i < 256; ++i) {
    gif.push_back(static_cast<char>(i));
    gif.push_back(static_cast<char>(255 - i));
    gif.push_back(static_cast<char>(i / 2));
  }
  for (const GifFrame& f : frames) {
    if (f.transparent >= 0) {
      gif += std::string("\x21\xf9\x04\x01\x00\x00", 6);
      gif.push_back(static_cast<char>(f.transparent));
      gif.push_back('\0');
    }
    gif.push_back(',');
    Put(&gif, f.left, 2);
    Put(&gif, f.top, 2);
    Put(&gif, f.width, 2);
    Put(&gif, f.height, 2);
    gif.push_back('\0');
    std::vector<int> codes;
    for (size_t i = 0; i < f.indices.size(); ++i) {
      if (i % 100 == 0) codes.push_back(256);
      codes.push_back(f.indices[i]);
    }
    codes.push_back(257);
    std::string lzw;
    uint32_t acc = 0;
    int bits = 0;
    for (int c : codes) {
      acc |= static_cast<uint32_t>(c) << bits;
      bits += 9;
      while (bits >= 8) {
        lzw.push_back(static_cast<char>(acc & 0xff));
        acc >>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) lzw.push_back(static_cast<char>(acc & 0xff));
    gif.push_back('\x08');
    for (size_t i = 0; i < lzw.size(); i += 255) {
      const std::string block = lzw.substr(i, 255);
      gif.push_back(static_cast<char>(block.size()));
      gif += block;
    }
    gif.push_back('\0');
  }
  gif.push_back(';');
  return gif;
}

TEST(ImageCodecs, PngRoundTripsEveryChannelCountAndDepth) {
  for (DataType dt : {DT_UINT8, DT_UINT16}) {
    for (int64_t c = 1; c <= 4; ++c) {
      Tensor image(dt, TensorShape({5, 7, c}));
      for (int64_t i = 0; i < image.NumElements(); ++i) {
        const uint32_t v = static_cast<uint32_t>(i * 2654435761u);
        if (dt == DT_UINT8) {
          image.data<uint8_t>()[i] = static_cast<uint8_t>(v >> 24);
        } else {
          image.data<uint16_t>()[i] = static_cast<uint16_t>(v >> 16);
        }
      }
      const std::string png = Encode("EncodePng", image);
      auto out = RunKernel(NodeDefFor("DecodePng", {{"dtype", dt}}, 1), {StringScalar(png)});
      ASSERT_TRUE(out.ok()) << out.status();
      const Tensor& back = (*out)[0];
      ASSERT_EQ(back.shape().DebugString(), image.shape().DebugString());
      EXPECT_EQ(0, std::memcmp(back.raw_data(), image.raw_data(), image.TotalBytes()))
          << DataTypeString(dt) << " with " << c << " channels";
    }
  }
}

TEST(ImageCodecs, JpegRoundTripStaysWithinJpegError) {
  const Tensor image = TestImage(20, 30, 3);
  for (bool progressive : {false, true}) {
    // Full-resolution chroma: the texture's color detail survives.
    const std::string jpeg = Encode("EncodeJpeg", image, {{"progressive", progressive},
                                                          {"chroma_downsampling", false}});
    ASSERT_EQ(jpeg.substr(0, 3), "\xff\xd8\xff");
    auto back = DecodeImage(jpeg);
    ASSERT_TRUE(back.ok()) << back.status();
    ASSERT_EQ(back->shape().DebugString(), "[20,30,3]");
    double err = 0;
    for (int64_t i = 0; i < image.NumElements(); ++i) {
      err += std::abs(int{back->data<uint8_t>()[i]} - int{image.data<uint8_t>()[i]});
    }
    EXPECT_LT(err / image.NumElements(), 4.0);  // a wrong decoding is off by tens
  }
}

TEST(ImageCodecs, BmpGivesItsPixelsAndScalesToFloat) {
  const Tensor image = TestImage(3, 5, 3);
  const std::string bmp = MakeBmp(image);
  auto u8 = DecodeImage(bmp);
  ASSERT_TRUE(u8.ok()) << u8.status();
  EXPECT_EQ(Values<uint8_t>(*u8), Values<uint8_t>(image));
  auto f = DecodeImage(bmp, DT_FLOAT, 4);  // alpha added, opaque
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->shape().DebugString(), "[3,5,4]");
  EXPECT_FLOAT_EQ(f->data<float>()[0], image.data<uint8_t>()[0] / 255.0f);
  EXPECT_FLOAT_EQ(f->data<float>()[3], 1.0f);
  auto u16 = DecodeImage(bmp, DT_UINT16);
  ASSERT_TRUE(u16.ok()) << u16.status();
  EXPECT_EQ(u16->data<uint16_t>()[1], image.data<uint8_t>()[1] * 256);
}

TEST(ImageCodecs, GifFramesDrawOverThePreviousOne) {
  GifFrame first{0, 0, 3, 2, {1, 2, 3, 4, 5, 6}};
  GifFrame second{1, 1, 2, 1, {9, 7}, /*transparent=*/7};
  auto out = DecodeImage(MakeGif(3, 2, {first, second}));
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape().DebugString(), "[2,2,3,3]");
  const std::vector<uint8_t> px = Values<uint8_t>(*out);
  auto red = [&](int frame, int y, int x) { return px[((frame * 2 + y) * 3 + x) * 3]; };
  EXPECT_EQ(red(0, 1, 2), 6);
  EXPECT_EQ(red(1, 0, 0), 1);  // kept from frame 0
  EXPECT_EQ(red(1, 1, 1), 9);  // drawn
  EXPECT_EQ(red(1, 1, 2), 6);  // transparent: frame 0's pixel shows
  auto still = RunKernel(NodeDefFor("DecodeImage", {{"expand_animations", false}}, 1),
                         {StringScalar(MakeGif(3, 2, {first, second}))});
  ASSERT_TRUE(still.ok()) << still.status();
  EXPECT_EQ((*still)[0].shape().DebugString(), "[2,3,3]");
}

// Damages `data` after its first `keep` bytes: flipped bytes, a cut, a repeat or a zeroed run.
std::string Damage(const std::string& data, size_t keep, std::mt19937* rng) {
  std::string d = data;
  auto pos = [&](size_t lo) {
    return std::uniform_int_distribution<size_t>(lo, d.size() - 1)(*rng);
  };
  switch ((*rng)() % 4) {
    case 0:
      for (int n = 1 + (*rng)() % 4; n > 0; --n) {
        d[pos(keep)] ^= static_cast<char>(1 + (*rng)() % 255);
      }
      break;
    case 1:
      d.resize(pos(keep));
      break;
    case 2: {
      const size_t at = pos(keep);
      d.insert(at, d.substr(at, 1 + (*rng)() % 60));
      break;
    }
    default: {
      const size_t at = pos(keep);
      for (size_t i = at; i < std::min(d.size(), at + 1 + (*rng)() % 60); ++i) d[i] = 0;
    }
  }
  return d;
}

TEST(ImageCodecs, DamagedFilesDecodeOrFailWithInvalidArgument) {
  const Tensor rgb = TestImage(23, 17, 3);
  std::vector<GifFrame> frames = {{0, 0, 17, 23, {}}, {4, 5, 6, 7, {}, 3}};
  for (auto& f : frames) {
    for (int i = 0; i < f.width * f.height; ++i) f.indices.push_back((i * 37) % 256);
  }
  const std::vector<std::pair<std::string, std::string>> files = {
      {"jpeg", Encode("EncodeJpeg", rgb)},
      {"progressive jpeg", Encode("EncodeJpeg", rgb, {{"progressive", true}})},
      {"gray jpeg", Encode("EncodeJpeg", TestImage(9, 11, 1))},
      {"png", Encode("EncodePng", rgb)},
      {"16-bit png", Encode("EncodePng", [] {
         Tensor t(DT_UINT16, TensorShape({6, 5, 4}));
         for (int64_t i = 0; i < t.NumElements(); ++i) t.data<uint16_t>()[i] = i * 1000;
         return t;
       }())},
      {"gif", MakeGif(17, 23, frames)},
      {"bmp", MakeBmp(rgb)},
  };
  std::mt19937 rng(1234);
  for (const auto& [name, file] : files) {
    ASSERT_TRUE(DecodeImage(file).ok()) << name;
    int decoded = 0;
    for (int i = 0; i < 1500; ++i) {
      const std::string damaged = Damage(file, 4, &rng);
      for (DataType dt : {DT_UINT8, DT_FLOAT}) {
        auto out = DecodeImage(damaged, dt, i % 2 == 0 ? 0 : 3);
        if (out.ok()) {
          ++decoded;
        } else {
          EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
              << name << " #" << i << ": " << out.status();
        }
      }
    }
    // Both outcomes occur: the damage is not all fatal, nor all harmless.
    EXPECT_GT(decoded, 0) << name;
    EXPECT_LT(decoded, 3000) << name;
  }
}

TEST(ImageCodecs, DamagedJpegsCropOrFailWithInvalidArgument) {
  const std::string jpeg = Encode("EncodeJpeg", TestImage(37, 45, 3));
  std::mt19937 rng(99);
  for (int i = 0; i < 1500; ++i) {
    const int32_t y = rng() % 40, x = rng() % 48, h = 1 + rng() % 37, w = 1 + rng() % 45;
    const NodeDef node = NodeDefFor(
        "DecodeAndCropJpeg", {{"try_recover_truncated", i % 3 == 0}, {"channels", int64_t{3}}}, 2);
    auto out = RunKernel(node, {StringScalar(i % 4 == 0 ? jpeg : Damage(jpeg, 4, &rng)),
                                MakeTensor<int32_t>({4}, {y, x, h, w})});
    if (out.ok()) {
      EXPECT_EQ((*out)[0].shape().DebugString(), absl::StrCat("[", h, ",", w, ",3]"));
    } else {
      EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
    }
  }
}

// TensorFlow hangs on this one when recovering (libjpeg keeps asking for the marker's second
// byte); sg must end, with an image or an error.
TEST(ImageCodecs, JpegCutAfterAnFFByteEndsWhenRecovering) {
  const std::string jpeg = Encode("EncodeJpeg", TestImage(8, 8, 3));
  const size_t sos = jpeg.find("\xff\xda");
  ASSERT_NE(sos, std::string::npos);
  for (const std::string& cut : {jpeg.substr(0, sos - 3) + "\xff", jpeg.substr(0, sos + 1),
                                 jpeg.substr(0, jpeg.size() - 40) + "\xff"}) {
    for (bool recover : {false, true}) {
      auto out = RunKernel(NodeDefFor("DecodeJpeg", {{"try_recover_truncated", recover}}, 1),
                           {StringScalar(cut)});
      if (!out.ok()) EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(ImageCodecs, ArbitraryBytesAfterEachMagicFail) {
  std::mt19937 rng(7);
  for (const std::string magic : {std::string("\xff\xd8\xff", 3), std::string("\x89PNG\r\n\x1a\n"),
                                  std::string("GIF89a"), std::string("BM")}) {
    for (int i = 0; i < 300; ++i) {
      std::string data = magic;
      for (int n = rng() % 200; n > 0; --n) data.push_back(static_cast<char>(rng()));
      auto out = DecodeImage(data);
      if (!out.ok()) EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(ImageResize, BilinearWithAlignedCornersKeepsTheCorners) {
  const Tensor image = MakeTensor<float>({1, 2, 2, 1}, {1, 2, 3, 4});
  auto out = RunKernel(NodeDefFor("ResizeBilinear", {{"T", DT_FLOAT}, {"align_corners", true}}, 2),
                       {image, MakeTensor<int32_t>({2}, {3, 3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}));
}

TEST(ImageResize, NearestNeighborWithHalfPixelCentersPicksTheCoveringPixel) {
  const Tensor image = MakeTensor<int32_t>({1, 1, 3, 1}, {10, 20, 30});
  auto out = RunKernel(
      NodeDefFor("ResizeNearestNeighbor", {{"T", DT_INT32}, {"half_pixel_centers", true}}, 2),
      {image, MakeTensor<int32_t>({2}, {1, 6})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{10, 10, 20, 20, 30, 30}));
}

TEST(ImageResize, AreaAveragesTheCoveredPixels) {
  const Tensor image = MakeTensor<uint8_t>({1, 2, 4, 1}, {0, 2, 4, 6, 8, 10, 12, 14});
  auto out = RunKernel(NodeDefFor("ResizeArea", {{"T", DT_UINT8}}, 2),
                       {image, MakeTensor<int32_t>({2}, {1, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{5, 9}));
}

TEST(NonMaxSuppression, KeepsTheBestOfEachClusterAndPads) {
  // Boxes 0 and 1 overlap by IoU 0.9025; box 2 is apart; box 3 is below the score threshold.
  const Tensor boxes = MakeTensor<float>(
      {4, 4}, {0, 0, 1, 1, 0.05f, 0.05f, 1, 1, 2, 2, 3, 3, 5, 5, 6, 6});
  const Tensor scores = MakeTensor<float>({4}, {0.8f, 0.9f, 0.7f, 0.1f});
  auto out = RunKernel(NodeDefFor("NonMaxSuppressionV5", {{"T", DT_FLOAT},
                                                          {"pad_to_max_output_size", true}},
                                  6),
                       {boxes, scores, Tensor::Scalar<int32_t>(4), Tensor::Scalar<float>(0.5f),
                        Tensor::Scalar<float>(0.2f), Tensor::Scalar<float>(0.0f)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{1, 2, 0, 0}));
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{0.9f, 0.7f, 0, 0}));
  EXPECT_EQ(Values<int32_t>((*out)[2]), std::vector<int32_t>{2});
}

}  // namespace
}  // namespace sg
