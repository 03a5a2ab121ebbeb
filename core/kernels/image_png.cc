// PNG decoding and encoding on libpng, with TensorFlow's transformations (its png_io.cc): the same
// libpng calls give the same pixels and, with the same zlib, the same bytes.
//
// libpng reports errors through a handler that must not return: it longjmps back to the function
// that called setjmp. RunDecode and RunEncode keep their C++ state in a job struct outside their
// own frame, so the jump skips no C++ destructor.
#include <png.h>
#include <zlib.h>

#include <csetjmp>
#include <cstring>
#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/framework/status.h"
#include "core/kernels/image_codecs.h"

namespace sg {
namespace image {
namespace {

struct DecodeJob {
  // In.
  absl::string_view data;
  size_t offset = 0;  // bytes read so far
  int channels = 0;   // wanted; 0: the file's
  int bits = 8;       // wanted: 8 or 16
  const OutputAllocator* allocate = nullptr;
  // libpng's state and errors.
  png_structp png = nullptr;
  png_infop info = nullptr;
  std::string message;
  absl::Status alloc_status;
  // Out.
  void* pixels = nullptr;
  png_uint_32 width = 0, height = 0;
  bool synthesize_16 = false;  // 8-bit samples to widen into 16 after reading
};

void OnError(png_structp png, png_const_charp message) {
  auto* job = static_cast<DecodeJob*>(png_get_error_ptr(png));
  job->message = message;
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

void ReadBytes(png_structp png, png_bytep out, png_size_t n) {
  auto* job = static_cast<DecodeJob*>(png_get_io_ptr(png));
  if (job->data.size() - job->offset < n) png_error(png, "file truncated");
  std::memcpy(out, job->data.data() + job->offset, n);
  job->offset += n;
}

// The output buffer for the size the header gives; nullptr (and alloc_status) on failure.
void* AllocatePixels(DecodeJob* job) {
  // TensorFlow's limits: each side below 2^27, the area below 2^29.
  const int64_t w = job->width, h = job->height;
  if (w <= 0 || h <= 0 || w >= (int64_t{1} << 27) || h >= (int64_t{1} << 27) ||
      w * h >= (int64_t{1} << 29)) {
    job->alloc_status =
        errors::InvalidArgument("PNG size too large for int: ", w, " by ", h);
    return nullptr;
  }
  absl::StatusOr<void*> buffer = (*job->allocate)(1, h, w, job->channels);
  if (!buffer.ok()) {
    job->alloc_status = buffer.status();
    return nullptr;
  }
  return *buffer;
}

enum class DecodeResult { kOk, kLibpngError, kAllocFailed };

DecodeResult RunDecode(DecodeJob* job) {
  job->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, job, OnError, OnWarning);
  if (job->png == nullptr) {
    job->message = "cannot create libpng's read struct";
    return DecodeResult::kLibpngError;
  }
  if (setjmp(png_jmpbuf(job->png))) {
    png_destroy_read_struct(&job->png, job->info ? &job->info : nullptr, nullptr);
    return DecodeResult::kLibpngError;
  }
  job->info = png_create_info_struct(job->png);
  if (job->info == nullptr) png_error(job->png, "cannot create libpng's info struct");
  png_set_read_fn(job->png, job, ReadBytes);
  png_read_info(job->png, job->info);
  int bit_depth = 0, color_type = 0;
  png_get_IHDR(job->png, job->info, &job->width, &job->height, &bit_depth, &color_type, nullptr,
               nullptr, nullptr);

  const bool has_trns = png_get_valid(job->png, job->info, PNG_INFO_tRNS) != 0;
  if (job->channels == 0) {
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
      job->channels = has_trns ? 4 : 3;
    } else {
      job->channels = png_get_channels(job->png, job->info);
    }
  }
  // Alpha: kept, made from tRNS, or added opaque when wanted (2 or 4 channels); else stripped.
  const bool has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0;
  if (job->channels % 2 == 0) {
    if (!has_alpha) {
      if (has_trns) {
        png_set_tRNS_to_alpha(job->png);
      } else {
        png_set_add_alpha(job->png, (1 << bit_depth) - 1, PNG_FILLER_AFTER);
      }
    }
  } else if (has_alpha || has_trns) {
    png_set_strip_alpha(job->png);
  }
  if (bit_depth > 8 && job->bits == 8) png_set_strip_16(job->png);
  job->synthesize_16 = bit_depth <= 8 && job->bits == 16;
  png_set_packing(job->png);
  const int passes = png_set_interlace_handling(job->png);
  if (job->bits == 16) png_set_swap(job->png);  // PNG is big-endian; sg runs little-endian
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(job->png);
  const bool is_gray = (color_type & PNG_COLOR_MASK_COLOR) == 0;
  if (is_gray && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(job->png);
  if (job->channels < 3) {
    if (!is_gray) png_set_rgb_to_gray(job->png, 1, 0.299, 0.587);  // ITU-R 601, as JPEG
  } else if (is_gray) {
    png_set_gray_to_rgb(job->png);
  }
  png_read_update_info(job->png, job->info);

  // The transformations must give rows of exactly channels samples of the depth read.
  const size_t sample_bytes = job->bits == 16 && !job->synthesize_16 ? 2 : 1;
  const size_t row_bytes = static_cast<size_t>(job->width) * job->channels * sample_bytes;
  if (png_get_rowbytes(job->png, job->info) != row_bytes) {
    png_error(job->png, "unexpected row size after the transformations");
  }
  job->pixels = AllocatePixels(job);
  if (job->pixels == nullptr) {
    png_destroy_read_struct(&job->png, &job->info, nullptr);
    return DecodeResult::kAllocFailed;
  }
  // An 8-bit decoding into a 16-bit buffer: rows are read at a 16-bit stride, then widened.
  const size_t stride = row_bytes * (job->synthesize_16 ? 2 : 1);
  for (int pass = 0; pass < passes; ++pass) {
    png_bytep row = static_cast<png_bytep>(job->pixels);
    for (png_uint_32 y = 0; y < job->height; ++y, row += stride) {
      png_read_row(job->png, row, nullptr);
    }
  }
  png_read_end(job->png, job->info);
  png_destroy_read_struct(&job->png, &job->info, nullptr);
  return DecodeResult::kOk;
}

struct EncodeJob {
  const void* pixels;
  png_uint_32 width, height;
  int channels, bits, compression;
  std::string out;
  std::string message;
  png_structp png = nullptr;
  png_infop info = nullptr;
};

void OnEncodeError(png_structp png, png_const_charp message) {
  auto* job = static_cast<EncodeJob*>(png_get_error_ptr(png));
  job->message = message;
  png_longjmp(png, 1);
}

void WriteBytes(png_structp png, png_bytep data, png_size_t n) {
  auto* job = static_cast<EncodeJob*>(png_get_io_ptr(png));
  try {
    job->out.append(reinterpret_cast<const char*>(data), n);
  } catch (const std::bad_alloc&) {
    png_error(png, "out of memory");
  }
}

void Flush(png_structp) {}

bool RunEncode(EncodeJob* job) {
  job->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, job, OnEncodeError, OnWarning);
  if (job->png == nullptr) {
    job->message = "cannot create libpng's write struct";
    return false;
  }
  if (setjmp(png_jmpbuf(job->png))) {
    png_destroy_write_struct(&job->png, job->info ? &job->info : nullptr);
    return false;
  }
  job->info = png_create_info_struct(job->png);
  if (job->info == nullptr) png_error(job->png, "cannot create libpng's info struct");
  static const int kColorTypes[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                    PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_write_fn(job->png, job, WriteBytes, Flush);
  png_set_compression_level(job->png,
                            job->compression < 0 ? Z_DEFAULT_COMPRESSION : job->compression);
  png_set_compression_mem_level(job->png, MAX_MEM_LEVEL);
  png_set_IHDR(job->png, job->info, job->width, job->height, job->bits,
               kColorTypes[job->channels - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(job->png, job->info);
  if (job->bits == 16) png_set_swap(job->png);
  const size_t stride = static_cast<size_t>(job->width) * job->channels * (job->bits / 8);
  png_const_bytep row = static_cast<png_const_bytep>(job->pixels);
  for (png_uint_32 y = 0; y < job->height; ++y, row += stride) {
    png_write_row(job->png, row);
  }
  png_write_end(job->png, nullptr);
  png_destroy_write_struct(&job->png, &job->info);
  return true;
}

}  // namespace

absl::Status DecodePng(absl::string_view data, int channels, int bits,
                       const OutputAllocator& allocate) {
  if (channels < 0 || channels > 4) {
    return errors::InvalidArgument("PNG decoding gives 0 to 4 channels, not ", channels);
  }
  if (bits != 8 && bits != 16) {
    return errors::InvalidArgument("PNG decoding gives 8 or 16 bits, not ", bits);
  }
  DecodeJob job;
  job.data = data;
  job.channels = channels;
  job.bits = bits;
  job.allocate = &allocate;
  switch (RunDecode(&job)) {
    case DecodeResult::kOk:
      break;
    case DecodeResult::kAllocFailed:
      return job.alloc_status;
    case DecodeResult::kLibpngError:
      return errors::InvalidArgument("Invalid PNG data, size ", data.size(), ": ", job.message);
  }
  if (job.synthesize_16) {
    // Widen each row in place, from its end: v -> v * 257 fills 16 bits as libpng would.
    const size_t n = static_cast<size_t>(job.width) * job.channels;
    for (png_uint_32 y = 0; y < job.height; ++y) {
      uint16_t* row16 = static_cast<uint16_t*>(job.pixels) + y * n;
      const uint8_t* row8 = reinterpret_cast<const uint8_t*>(row16);
      for (size_t i = n; i-- > 0;) row16[i] = static_cast<uint16_t>(row8[i] * 257u);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> EncodePng(const void* pixels, int64_t height, int64_t width,
                                      int channels, int bits, int compression) {
  if (height <= 0 || width <= 0 || height > PNG_UINT_31_MAX || width > PNG_UINT_31_MAX) {
    return errors::InvalidArgument("cannot encode a PNG of ", height, "x", width, " pixels");
  }
  if (channels < 1 || channels > 4) {
    return errors::InvalidArgument("PNG encoding takes 1 to 4 channels, not ", channels);
  }
  if ((bits != 8 && bits != 16) || compression < -1 || compression > 9) {
    return errors::InvalidArgument("bad PNG encoding options: ", bits, " bits, compression ",
                                   compression);
  }
  EncodeJob job;
  job.pixels = pixels;
  job.width = static_cast<png_uint_32>(width);
  job.height = static_cast<png_uint_32>(height);
  job.channels = channels;
  job.bits = bits;
  job.compression = compression;
  if (!RunEncode(&job)) {
    return errors::InvalidArgument("PNG encoding failed: ", job.message);
  }
  return std::move(job.out);
}

}  // namespace image
}  // namespace sg
