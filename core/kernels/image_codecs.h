// Image codecs behind the decode and encode kernels: JPEG on libjpeg-turbo, PNG on libpng, GIF on
// giflib, BMP in plain code. Each decoder validates its bytes and fails with INVALID_ARGUMENT on
// corrupt or truncated data, never reading or writing outside its buffers; the settings and pixel
// conventions are TensorFlow's (tensorflow/core/lib/{jpeg,png,gif} and DecodeBmp), so that the
// pixels match TensorFlow's bit for bit where both use the same library.
//
//   std::vector<uint8_t> pixels;
//   image::JpegDecodeOptions opts;
//   opts.channels = 3;
//   absl::Status s = image::DecodeJpeg(bytes, opts,
//       [&](int64_t frames, int64_t h, int64_t w, int c) -> absl::StatusOr<void*> {
//         pixels.resize(frames * h * w * c);
//         return pixels.data();
//       });
#ifndef SG_CORE_KERNELS_IMAGE_CODECS_H_
#define SG_CORE_KERNELS_IMAGE_CODECS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sg {
namespace image {

// Where a decoder writes its pixels: called once, when the decoder knows the image's size, with
// the number of frames, the height, the width and the channels. It returns a buffer for
// frames*height*width*channels samples (uint8_t, or uint16_t for a 16-bit PNG decoding), row-major
// with channels innermost, or an error, which the decoder returns as it is.
using OutputAllocator =
    std::function<absl::StatusOr<void*>(int64_t frames, int64_t height, int64_t width,
                                        int channels)>;

// The file formats DecodeImage tells apart by their first bytes.
enum class Format { kUnknown, kJpeg, kPng, kGif, kBmp, kWebp, kJpegXl };
Format ClassifyFormat(absl::string_view data);
const char* FormatName(Format format);

// DecodeJpeg's attributes (TensorFlow's defaults, which DecodeImage uses).
struct JpegDecodeOptions {
  int channels = 0;                    // 0 (the file's, at most 3), 1 or 3
  int ratio = 1;                       // 1, 2, 4 or 8: libjpeg's downscaling while decoding
  bool fancy_upscaling = true;         // smooth chroma upsampling
  bool try_recover_truncated = false;  // decode a truncated file as if it ended there
  float acceptable_fraction = 1.0f;    // the least fraction of rows a truncated file must give
  bool accurate_dct = false;           // JDCT_ISLOW ("INTEGER_ACCURATE"); else JDCT_IFAST
  // DecodeAndCropJpeg: only this window of the (scaled) image is decoded; it must lie inside.
  bool crop = false;
  int64_t crop_y = 0, crop_x = 0, crop_height = 0, crop_width = 0;
};
// Decodes a JPEG into one frame of 8-bit samples. A CMYK file gives RGB as TensorFlow converts it.
absl::Status DecodeJpeg(absl::string_view data, const JpegDecodeOptions& options,
                        const OutputAllocator& allocate);

// A JPEG's height, width and components (3 for color, 1 for gray, 4 for CMYK) from its headers.
struct JpegShape {
  int64_t height, width, components;
};
absl::StatusOr<JpegShape> ReadJpegShape(absl::string_view data);

// Decodes a PNG into one frame of `bits` (8 or 16) bit samples with `channels` channels (0: the
// file's; 1 and 3 convert between gray and RGB, 2 and 4 add or keep alpha). 8-bit files decoded
// to 16 bits repeat each byte (v * 257), 16-bit files decoded to 8 bits keep the high byte.
absl::Status DecodePng(absl::string_view data, int channels, int bits,
                       const OutputAllocator& allocate);

// Decodes a GIF into RGB frames on a canvas as large as its largest frame: each frame is drawn
// over the previous one (transparent pixels keep it; black under the first). With
// `all_frames` false only the first frame is decoded (the canvas keeps the same size).
absl::Status DecodeGif(absl::string_view data, bool all_frames, const OutputAllocator& allocate);

// Decodes an uncompressed BMP of 8 (read as gray), 24 or 32 bits per pixel into `channels`
// channels (0: the file's; 3 or 4: RGB, RGBA with opaque alpha added when the file has none).
absl::Status DecodeBmp(absl::string_view data, int channels, const OutputAllocator& allocate);

// EncodeJpeg's attributes.
struct JpegEncodeOptions {
  int quality = 95;  // 0..100
  bool progressive = false;
  bool optimize_size = false;
  bool chroma_downsampling = true;
  int density_unit = 1;  // 1: dots per inch, 2: per cm
  int x_density = 300;
  int y_density = 300;
  std::string xmp_metadata;  // written as an APP1 marker when not empty
};
// Encodes `height` x `width` 8-bit pixels of 1 (gray) or 3 (RGB) channels, row-major.
// INVALID_ARGUMENT for an empty image or bad options.
absl::StatusOr<std::string> EncodeJpeg(const uint8_t* pixels, int64_t height, int64_t width,
                                       int channels, const JpegEncodeOptions& options);

// Encodes `height` x `width` pixels of 1 to 4 channels of `bits` (8 or 16) bits (uint16_t in host
// order for 16), with zlib's `compression` level (-1: its default, 0..9).
absl::StatusOr<std::string> EncodePng(const void* pixels, int64_t height, int64_t width,
                                      int channels, int bits, int compression);

}  // namespace image
}  // namespace sg

#endif  // SG_CORE_KERNELS_IMAGE_CODECS_H_
