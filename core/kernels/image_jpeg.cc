// JPEG decoding and encoding on libjpeg-turbo, with TensorFlow's settings (its jpeg_mem.cc):
// the same libjpeg parameters give the same pixels.
//
// libjpeg reports fatal errors through error_exit, which must not return: it longjmps back to
// the function that called setjmp. Those functions (RunDecode, RunEncode) hold only plain C state
// between setjmp and the libjpeg calls, so the jump skips no C++ destructor.
#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

// jpeglib.h needs size_t and FILE declared first; jerror.h gives ERREXIT and the message codes.
#include <jpeglib.h>
#include <jerror.h>

#include "absl/strings/str_cat.h"
#include "core/framework/status.h"
#include "core/kernels/image_codecs.h"

namespace sg {
namespace image {
namespace {

// ---- errors ---------------------------------------------------------------------------------

struct ErrorManager {
  jpeg_error_mgr pub;  // first: libjpeg sees a jpeg_error_mgr*
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void OnFatalError(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// Warnings (corrupt data libjpeg works around) are counted by libjpeg, not printed.
void OnMessage(j_common_ptr) {}

void InitErrorManager(ErrorManager* err) {
  jpeg_std_error(&err->pub);
  err->pub.error_exit = OnFatalError;
  err->pub.output_message = OnMessage;
  err->message[0] = '\0';
}

// ---- the source: the encoded bytes in memory -------------------------------------------------

// As TensorFlow's memory source: the whole buffer at once. When libjpeg wants bytes past the end,
// a truncated file is an error, unless recovery is asked for: then an EOI marker is supplied
// (libjpeg warns and fills the rest of the image from what it has).
//
// One difference: libjpeg may ask for more while bytes remain, on corrupt data. TensorFlow's
// source then suspends the decoding, or, when recovering, answers that the bytes are there, which
// libjpeg mostly accepts; but for a file cut after an 0xFF byte it asks again forever (TensorFlow
// hangs). When libjpeg asks many times without reading a byte, sg appends an EOI marker to the
// remaining bytes, once, and fails if that is not enough.
constexpr size_t kMaxTail = 14;
constexpr int kMaxStalls = 1000;

struct MemorySource {
  jpeg_source_mgr pub;  // first: libjpeg sees a jpeg_source_mgr*
  const JOCTET* data;
  size_t size;
  bool recover;
  // Where libjpeg last asked for more with bytes left, and how many times in a row since.
  const JOCTET* stalled_at;
  int stalls;
  bool tail_used;
  JOCTET tail[kMaxTail + 2];  // the last bytes and an EOI marker
};

const JOCTET kFakeEoi[2] = {0xFF, JPEG_EOI};

void InitSource(j_decompress_ptr cinfo) {
  auto* src = reinterpret_cast<MemorySource*>(cinfo->src);
  src->pub.next_input_byte = src->data;
  src->pub.bytes_in_buffer = src->size;
}

boolean FillInput(j_decompress_ptr cinfo) {
  auto* src = reinterpret_cast<MemorySource*>(cinfo->src);
  if (src->pub.bytes_in_buffer == 0 && src->pub.next_input_byte == src->data) {
    ERREXIT(cinfo, JERR_INPUT_EMPTY);
  }
  if (src->pub.bytes_in_buffer > 0) {
    // libjpeg asks for more while bytes remain only on corrupt data (see MemorySource).
    if (!src->recover) return FALSE;
    if (src->pub.next_input_byte != src->stalled_at) {
      src->stalled_at = src->pub.next_input_byte;
      src->stalls = 0;
    }
    if (++src->stalls < kMaxStalls) return TRUE;  // as TensorFlow
    const size_t n = src->pub.bytes_in_buffer;
    if (src->tail_used || n > kMaxTail) ERREXIT(cinfo, JERR_FILE_READ);
    WARNMS(cinfo, JWRN_JPEG_EOF);
    std::memcpy(src->tail, src->pub.next_input_byte, n);
    std::memcpy(src->tail + n, kFakeEoi, 2);
    src->tail_used = true;
    src->stalls = 0;
    src->pub.next_input_byte = src->tail;
    src->pub.bytes_in_buffer = n + 2;
    return TRUE;
  }
  if (src->recover && src->pub.next_input_byte != kFakeEoi) {
    WARNMS(cinfo, JWRN_JPEG_EOF);
    src->pub.next_input_byte = kFakeEoi;
    src->pub.bytes_in_buffer = 2;
    return TRUE;
  }
  ERREXIT(cinfo, JERR_FILE_READ);
  return FALSE;
}

void SkipInput(j_decompress_ptr cinfo, long count) {  // NOLINT(runtime/int): libjpeg's type
  auto* src = reinterpret_cast<MemorySource*>(cinfo->src);
  if (count <= 0) return;
  if (static_cast<unsigned long>(count) > src->pub.bytes_in_buffer) {  // NOLINT(runtime/int)
    src->pub.bytes_in_buffer = 0;
    FillInput(cinfo);  // a fake EOI, or an error
  } else {
    src->pub.bytes_in_buffer -= count;
    src->pub.next_input_byte += count;
  }
}

void TermSource(j_decompress_ptr) {}

// ---- decoding ---------------------------------------------------------------------------------

// Everything a decoding needs, kept out of RunDecode's frame (see the file comment).
struct DecodeJob {
  jpeg_decompress_struct cinfo;
  ErrorManager err;
  absl::string_view data;
  JpegDecodeOptions options;
  const OutputAllocator* allocate = nullptr;
  absl::Status alloc_status;  // the allocator's error, when it failed
  // One row as libjpeg gives it, when that is not the output's row: CMYK, or a crop whose left
  // edge libjpeg moved to an iMCU boundary.
  std::vector<JSAMPLE> lib_row;
  // Results.
  uint8_t* pixels = nullptr;
  int height = 0, width = 0, channels = 0;
  int rows_read = 0;
  bool truncated = false;  // libjpeg stopped before the last row
};

enum class DecodeResult { kOk, kLibjpegError, kBadImage, kAllocFailed };

// The output buffer for the size libjpeg computed; nullptr (and alloc_status) on failure.
uint8_t* AllocatePixels(DecodeJob* job, size_t lib_row_samples) {
  absl::StatusOr<void*> buffer = (*job->allocate)(1, job->height, job->width, job->channels);
  if (!buffer.ok()) {
    job->alloc_status = buffer.status();
    return nullptr;
  }
  job->lib_row.resize(lib_row_samples);
  return static_cast<uint8_t*>(*buffer);
}

// Creates the decompressor on the job's bytes and reads the headers.
void StartReading(DecodeJob* job, bool recover) {
  j_decompress_ptr cinfo = &job->cinfo;
  jpeg_create_decompress(cinfo);
  MemorySource* src = static_cast<MemorySource*>((*cinfo->mem->alloc_small)(
      reinterpret_cast<j_common_ptr>(cinfo), JPOOL_PERMANENT, sizeof(MemorySource)));
  src->pub.init_source = InitSource;
  src->pub.fill_input_buffer = FillInput;
  src->pub.skip_input_data = SkipInput;
  src->pub.resync_to_restart = jpeg_resync_to_restart;
  src->pub.term_source = TermSource;
  src->pub.bytes_in_buffer = 0;
  src->pub.next_input_byte = nullptr;
  src->data = reinterpret_cast<const JOCTET*>(job->data.data());
  src->size = job->data.size();
  src->recover = recover;
  src->stalled_at = nullptr;
  src->stalls = 0;
  src->tail_used = false;
  cinfo->src = &src->pub;
  jpeg_read_header(cinfo, TRUE);
}

DecodeResult BadImage(DecodeJob* job, const char* message) {
  std::snprintf(job->err.message, sizeof(job->err.message), "%s", message);
  jpeg_destroy_decompress(&job->cinfo);
  return DecodeResult::kBadImage;
}

DecodeResult RunDecode(DecodeJob* job) {
  j_decompress_ptr cinfo = &job->cinfo;
  cinfo->err = &job->err.pub;
  InitErrorManager(&job->err);
  if (setjmp(job->err.jump)) {
    jpeg_destroy_decompress(&job->cinfo);
    return DecodeResult::kLibjpegError;
  }
  const JpegDecodeOptions& opts = job->options;
  StartReading(job, opts.try_recover_truncated);
  const int components =
      opts.channels == 0 ? std::min(cinfo->num_components, 3) : opts.channels;
  if (components == 1) {
    cinfo->out_color_space = JCS_GRAYSCALE;
  } else if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
    cinfo->out_color_space = JCS_CMYK;  // converted to RGB below, as TensorFlow does
  } else {
    cinfo->out_color_space = JCS_RGB;
  }
  cinfo->do_fancy_upsampling = opts.fancy_upscaling ? TRUE : FALSE;
  cinfo->scale_num = 1;
  cinfo->scale_denom = opts.ratio;
  cinfo->dct_method = opts.accurate_dct ? JDCT_ISLOW : JDCT_IFAST;
  jpeg_calc_output_dimensions(cinfo);
  const int64_t total =
      int64_t{cinfo->output_height} * cinfo->output_width * cinfo->num_components;
  if (cinfo->output_width == 0 || cinfo->output_height == 0 || total >= (int64_t{1} << 29)) {
    return BadImage(job, "image size out of range");
  }
  jpeg_start_decompress(cinfo);
  const bool cmyk = cinfo->out_color_space == JCS_CMYK;
  const int lib_components = cmyk ? 4 : components;
  if (cinfo->output_components != lib_components) {
    return BadImage(job, "libjpeg gives another number of components");
  }
  // The rows [skip, skip + height) and, across, the last `width` samples libjpeg gives.
  JDIMENSION skip = 0;
  job->height = static_cast<int>(cinfo->output_height);
  job->width = static_cast<int>(cinfo->output_width);
  if (opts.crop) {
    if (opts.crop_width <= 0 || opts.crop_height <= 0 || opts.crop_x < 0 || opts.crop_y < 0 ||
        opts.crop_y + opts.crop_height > cinfo->output_height ||
        opts.crop_x + opts.crop_width > cinfo->output_width) {
      return BadImage(job, "invalid crop window");
    }
    job->height = static_cast<int>(opts.crop_height);
    job->width = static_cast<int>(opts.crop_width);
    // libjpeg moves the window's left edge to an iMCU boundary and widens it to match.
    JDIMENSION x = static_cast<JDIMENSION>(opts.crop_x);
    JDIMENSION w = static_cast<JDIMENSION>(opts.crop_width);
    jpeg_crop_scanline(cinfo, &x, &w);
    skip = jpeg_skip_scanlines(cinfo, static_cast<JDIMENSION>(opts.crop_y));
    if (skip != opts.crop_y) return BadImage(job, "cannot skip to the crop window");
  }
  job->channels = components;
  const size_t lib_samples = static_cast<size_t>(cinfo->output_width) * lib_components;
  const size_t left = static_cast<size_t>(cinfo->output_width - job->width) * lib_components;
  const bool via_lib_row = cmyk || left != 0;
  job->pixels = AllocatePixels(job, via_lib_row ? lib_samples : 0);
  if (job->pixels == nullptr) {
    jpeg_destroy_decompress(cinfo);
    return DecodeResult::kAllocFailed;
  }
  const size_t stride = static_cast<size_t>(job->width) * components;
  JSAMPLE* lib_row = job->lib_row.data();
  const bool adobe = cinfo->saw_Adobe_marker;
  const JDIMENSION end = skip + static_cast<JDIMENSION>(job->height);

  uint8_t* row = job->pixels;
  while (cinfo->output_scanline < end) {
    JSAMPROW target = via_lib_row ? lib_row : row;
    if (jpeg_read_scanlines(cinfo, &target, 1) == 0) {
      // libjpeg suspended: the source had no more bytes to give.
      if (!opts.try_recover_truncated) {
        job->rows_read = static_cast<int>(cinfo->output_scanline - skip);
        job->truncated = true;
      } else {
        // Missing rows repeat the last one (black when there is none).
        for (; row < job->pixels + stride * job->height; row += stride) {
          if (row == job->pixels) {
            std::memset(row, 0, stride);
          } else {
            std::memcpy(row, row - stride, stride);
          }
        }
        cinfo->output_scanline = end;
      }
      break;
    }
    if (cmyk) {
      const JSAMPLE* px = lib_row + left;
      for (int x = 0; x < job->width; ++x, px += 4) {
        const int c = px[0], m = px[1], y = px[2], k = px[3];
        if (adobe) {  // Adobe writes inverted CMYK
          row[3 * x] = static_cast<uint8_t>(k * c / 255);
          row[3 * x + 1] = static_cast<uint8_t>(k * m / 255);
          row[3 * x + 2] = static_cast<uint8_t>(k * y / 255);
        } else {
          row[3 * x] = static_cast<uint8_t>((255 - k) * (255 - c) / 255);
          row[3 * x + 1] = static_cast<uint8_t>((255 - k) * (255 - m) / 255);
          row[3 * x + 2] = static_cast<uint8_t>((255 - k) * (255 - y) / 255);
        }
      }
    } else if (via_lib_row) {
      std::memcpy(row, lib_row + left, stride);
    }
    row += stride;
  }
  if (opts.crop && cinfo->output_scanline < cinfo->output_height) {
    jpeg_skip_scanlines(cinfo, cinfo->output_height - static_cast<JDIMENSION>(opts.crop_y) -
                                   static_cast<JDIMENSION>(opts.crop_height));
  }
  if (job->truncated) {
    jpeg_abort(reinterpret_cast<j_common_ptr>(cinfo));
  } else {
    job->rows_read = job->height;
    // Reads on to the EOI marker: a file that ends early fails here, as in TensorFlow.
    jpeg_finish_decompress(cinfo);
  }
  jpeg_destroy_decompress(cinfo);
  return DecodeResult::kOk;
}

// The headers' sizes, as libjpeg gives them with its default output settings.
bool RunShape(DecodeJob* job) {
  job->cinfo.err = &job->err.pub;
  InitErrorManager(&job->err);
  if (setjmp(job->err.jump)) {
    jpeg_destroy_decompress(&job->cinfo);
    return false;
  }
  StartReading(job, false);
  jpeg_start_decompress(&job->cinfo);
  job->height = static_cast<int>(job->cinfo.output_height);
  job->width = static_cast<int>(job->cinfo.output_width);
  job->channels = job->cinfo.output_components;
  jpeg_destroy_decompress(&job->cinfo);
  return true;
}

// ---- encoding ---------------------------------------------------------------------------------

// The destination: the encoded bytes appended to a string in chunks.
constexpr size_t kChunk = 1 << 16;

struct StringDestination {
  jpeg_destination_mgr pub;  // first: libjpeg sees a jpeg_destination_mgr*
  std::string* out;
  JOCTET buffer[kChunk];
};

bool Append(StringDestination* dest, size_t n) {
  try {
    dest->out->append(reinterpret_cast<const char*>(dest->buffer), n);
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

void InitDestination(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = kChunk;
}

boolean EmptyOutput(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  if (!Append(dest, kChunk)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
  dest->pub.next_output_byte = dest->buffer;
  dest->pub.free_in_buffer = kChunk;
  return TRUE;
}

void TermDestination(j_compress_ptr cinfo) {
  auto* dest = reinterpret_cast<StringDestination*>(cinfo->dest);
  if (!Append(dest, kChunk - dest->pub.free_in_buffer)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
}

struct EncodeJob {
  jpeg_compress_struct cinfo;
  ErrorManager err;
  const uint8_t* pixels;
  int height, width, channels;
  const JpegEncodeOptions* options;
  std::string out;
};

bool RunEncode(EncodeJob* job) {
  j_compress_ptr cinfo = &job->cinfo;
  cinfo->err = &job->err.pub;
  InitErrorManager(&job->err);
  if (setjmp(job->err.jump)) {
    jpeg_destroy_compress(&job->cinfo);
    return false;
  }
  jpeg_create_compress(cinfo);
  auto* dest = static_cast<StringDestination*>((*cinfo->mem->alloc_small)(
      reinterpret_cast<j_common_ptr>(cinfo), JPOOL_PERMANENT, sizeof(StringDestination)));
  dest->pub.init_destination = InitDestination;
  dest->pub.empty_output_buffer = EmptyOutput;
  dest->pub.term_destination = TermDestination;
  dest->out = &job->out;
  cinfo->dest = &dest->pub;

  const JpegEncodeOptions& opts = *job->options;
  cinfo->image_width = job->width;
  cinfo->image_height = job->height;
  cinfo->input_components = job->channels;
  cinfo->in_color_space = job->channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(cinfo);
  if (opts.optimize_size) cinfo->optimize_coding = TRUE;
  cinfo->density_unit = static_cast<UINT8>(opts.density_unit);
  cinfo->X_density = static_cast<UINT16>(opts.x_density);
  cinfo->Y_density = static_cast<UINT16>(opts.y_density);
  jpeg_set_quality(cinfo, opts.quality, TRUE);
  if (opts.progressive) jpeg_simple_progression(cinfo);
  if (!opts.chroma_downsampling) {
    for (int i = 0; i < cinfo->num_components; ++i) {
      cinfo->comp_info[i].h_samp_factor = 1;
      cinfo->comp_info[i].v_samp_factor = 1;
    }
  }
  jpeg_start_compress(cinfo, TRUE);
  if (!opts.xmp_metadata.empty()) {
    // APP1: the XMP namespace, a NUL, then the metadata (libjpeg fails past 65533 bytes).
    static const char kXmpNamespace[] = "http://ns.adobe.com/xap/1.0/";
    const size_t ns = sizeof(kXmpNamespace);  // with its NUL
    const size_t n = ns + opts.xmp_metadata.size();
    jpeg_write_m_header(cinfo, JPEG_APP0 + 1, static_cast<unsigned int>(n));
    for (size_t i = 0; i < ns; ++i) jpeg_write_m_byte(cinfo, kXmpNamespace[i]);
    for (char ch : opts.xmp_metadata) jpeg_write_m_byte(cinfo, static_cast<uint8_t>(ch));
  }
  const size_t stride = static_cast<size_t>(job->width) * job->channels;
  while (cinfo->next_scanline < cinfo->image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(job->pixels + cinfo->next_scanline * stride);
    jpeg_write_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_compress(cinfo);
  jpeg_destroy_compress(cinfo);
  return true;
}

}  // namespace

absl::Status DecodeJpeg(absl::string_view data, const JpegDecodeOptions& options,
                        const OutputAllocator& allocate) {
  if (options.ratio != 1 && options.ratio != 2 && options.ratio != 4 && options.ratio != 8) {
    return errors::InvalidArgument("ratio must be 1, 2, 4, or 8, got ", options.ratio);
  }
  if (options.channels != 0 && options.channels != 1 && options.channels != 3) {
    return errors::InvalidArgument("JPEG decoding gives 0, 1 or 3 channels, not ",
                                   options.channels);
  }
  if (data.empty()) return errors::InvalidArgument("Invalid JPEG data: empty input");
  if (options.crop && (options.crop_height > INT32_MAX || options.crop_width > INT32_MAX ||
                       options.crop_y > INT32_MAX || options.crop_x > INT32_MAX)) {
    return errors::InvalidArgument("Invalid JPEG data or crop window: crop window too large");
  }
  DecodeJob job;
  job.data = data;
  job.options = options;
  job.allocate = &allocate;
  switch (RunDecode(&job)) {
    case DecodeResult::kOk:
      break;
    case DecodeResult::kAllocFailed:
      return job.alloc_status;
    case DecodeResult::kLibjpegError:
    case DecodeResult::kBadImage:
      return errors::InvalidArgument("Invalid JPEG data or crop window: ", job.err.message);
  }
  if (job.truncated) {
    // TensorFlow's rule: enough rows (acceptable_fraction, at most 1) and the rest black.
    const float fraction = static_cast<float>(job.rows_read) / job.height;
    if (fraction < std::min(1.0f, options.acceptable_fraction)) {
      return errors::InvalidArgument("Invalid JPEG data: truncated after ", job.rows_read,
                                     " of ", job.height, " rows");
    }
    const size_t stride = static_cast<size_t>(job.width) * job.channels;
    std::memset(job.pixels + job.rows_read * stride, 0, (job.height - job.rows_read) * stride);
  }
  return absl::OkStatus();
}

absl::StatusOr<JpegShape> ReadJpegShape(absl::string_view data) {
  DecodeJob job;
  job.data = data;
  if (data.empty() || !RunShape(&job)) {
    return errors::InvalidArgument("Invalid JPEG data, size ", data.size());
  }
  return JpegShape{job.height, job.width, job.channels};
}

absl::StatusOr<std::string> EncodeJpeg(const uint8_t* pixels, int64_t height, int64_t width,
                                       int channels, const JpegEncodeOptions& options) {
  if (height <= 0 || width <= 0 || height * width >= (int64_t{1} << 29)) {
    return errors::InvalidArgument("cannot encode a JPEG of ", height, "x", width, " pixels");
  }
  if (channels != 1 && channels != 3) {
    return errors::InvalidArgument("JPEG encoding takes 1 or 3 channels, not ", channels);
  }
  if (options.quality < 0 || options.quality > 100) {
    return errors::InvalidArgument("quality must be in [0,100], got ", options.quality);
  }
  EncodeJob job;
  job.pixels = pixels;
  job.height = static_cast<int>(height);
  job.width = static_cast<int>(width);
  job.channels = channels;
  job.options = &options;
  if (!RunEncode(&job)) {
    return errors::InvalidArgument("JPEG encoding failed: ", job.err.message);
  }
  return std::move(job.out);
}

}  // namespace image
}  // namespace sg
