// The codec pieces that need no library: telling formats apart by their first bytes, and BMP
// decoding as TensorFlow's DecodeBmp does it (uncompressed 8, 24 or 32 bits per pixel, the pixel
// data starting at the header's offset and filling the rest of the file exactly).
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "absl/strings/match.h"
#include "core/framework/status.h"
#include "core/kernels/image_codecs.h"

namespace sg {
namespace image {
namespace {

int32_t ReadInt32(const uint8_t* p) {
  return static_cast<int32_t>(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                              uint32_t{p[3]} << 24);
}

int16_t ReadInt16(const uint8_t* p) {
  return static_cast<int16_t>(uint16_t{p[0]} | static_cast<uint16_t>(uint16_t{p[1]} << 8));
}

}  // namespace

Format ClassifyFormat(absl::string_view data) {
  // JPEG's fourth byte varies (an APPn marker), so three bytes tell it.
  if (absl::StartsWith(data, "\xff\xd8\xff")) return Format::kJpeg;
  if (absl::StartsWith(data, "\x89PNG\r\n\x1a\n")) return Format::kPng;
  if (absl::StartsWith(data, "GIF8")) return Format::kGif;
  if (absl::StartsWith(data, "BM")) return Format::kBmp;
  if (absl::StartsWith(data, "RIFF") && data.size() > 12 && data.substr(8, 4) == "WEBP") {
    return Format::kWebp;
  }
  // A JPEG XL codestream, or its ISO BMFF container.
  if (absl::StartsWith(data, "\xff\x0a") ||
      absl::StartsWith(data, absl::string_view("\0\0\0\x0cJXL \r\n\x87\n", 12))) {
    return Format::kJpegXl;
  }
  return Format::kUnknown;
}

const char* FormatName(Format format) {
  switch (format) {
    case Format::kJpeg: return "JPEG";
    case Format::kPng: return "PNG";
    case Format::kGif: return "GIF";
    case Format::kBmp: return "BMP";
    case Format::kWebp: return "WebP";
    case Format::kJpegXl: return "JPEG XL";
    case Format::kUnknown: break;
  }
  return "unknown";
}

absl::Status DecodeBmp(absl::string_view data, int channels, const OutputAllocator& allocate) {
  if (channels != 0 && channels != 3 && channels != 4) {
    return errors::InvalidArgument("`channels` must be 0, 3 or 4 for BMP, but got ", channels);
  }
  if (data.size() < 32) {
    return errors::InvalidArgument(
        "Incomplete bmp content, requires at least 32 bytes to find the header size, width, "
        "height, and bpp, got ", data.size(), " bytes");
  }
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(data.data());
  const int64_t header_size = ReadInt32(bytes + 10);  // where the pixels start
  const int64_t width = ReadInt32(bytes + 18);
  const int64_t height = ReadInt32(bytes + 22);  // negative: rows stored top-down
  const int bpp = ReadInt16(bytes + 28);
  const int file_channels = bpp / 8;
  if (file_channels != 1 && file_channels != 3 && file_channels != 4) {
    return errors::InvalidArgument(
        "Number of channels inherent in the image must be 1, 3 or 4, was ", file_channels);
  }
  const int out_channels = channels != 0 ? channels : file_channels;
  if (width <= 0) return errors::InvalidArgument("Width must be positive");
  if (height == 0) return errors::InvalidArgument("Height must be nonzero");
  if (header_size < 0) return errors::InvalidArgument("header size must be nonnegative");
  const int64_t rows = std::abs(height);
  if (width * rows >= int64_t{INT32_MAX} / 8) {
    return errors::InvalidArgument("Total possible pixel bytes must be less than 2^30");
  }
  const int64_t row_size = (file_channels * width + 3) / 4 * 4;  // rows pad to 4 bytes
  const int64_t size_diff = static_cast<int64_t>(data.size()) - header_size - row_size * rows;
  if (size_diff != 0) {
    return errors::InvalidArgument(
        "Input size should match (header_size + row_size * abs_height) but they differ by ",
        size_diff);
  }
  absl::StatusOr<void*> buffer = allocate(1, rows, width, out_channels);
  if (!buffer.ok()) return buffer.status();
  uint8_t* out = static_cast<uint8_t*>(*buffer);
  const uint8_t* pixels = bytes + header_size;
  const bool top_down = height < 0;
  for (int64_t y = 0; y < rows; ++y) {
    const uint8_t* src = pixels + (top_down ? y : rows - 1 - y) * row_size;
    uint8_t* dst = out + y * width * out_channels;
    for (int64_t x = 0; x < width; ++x, src += file_channels, dst += out_channels) {
      if (file_channels == 1) {  // gray (a palette's indices are read as gray, as TensorFlow)
        std::memset(dst, src[0], out_channels == 4 ? 3 : out_channels);
        if (out_channels == 4) dst[3] = 255;
      } else {  // BGR(A) -> RGB(A)
        dst[0] = src[2];
        dst[1] = src[1];
        dst[2] = src[0];
        if (out_channels == 4) dst[3] = file_channels == 4 ? src[3] : 255;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace image
}  // namespace sg
