// GIF decoding on giflib, composing frames as TensorFlow's gif_io.cc does: the canvas is as large
// as the largest frame; each frame starts as a copy of the previous one (black for the first),
// and its pixels are drawn where it lies on the canvas except its transparent color.
//
// The frames are read with giflib's record functions rather than DGifSlurp, for two reasons:
// TensorFlow patches its giflib so that a frame counts only once its pixels are read (Debian's
// giflib 5.2.1 keeps a frame half read), and DGifSlurp's size check divides by a zero height.
#include <gif_lib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/framework/status.h"
#include "core/kernels/image_codecs.h"

namespace sg {
namespace image {
namespace {

struct Reader {
  const uint8_t* next;
  size_t left;
};

// giflib's read callback: fewer bytes than asked at the end, which giflib reports as an error.
int ReadBytes(GifFileType* gif, GifByteType* out, int n) {
  auto* reader = static_cast<Reader*>(gif->UserData);
  if (reader == nullptr || n <= 0) return 0;
  const size_t count = std::min<size_t>(static_cast<size_t>(n), reader->left);
  std::memcpy(out, reader->next, count);
  reader->next += count;
  reader->left -= count;
  return static_cast<int>(count);
}

const char* ErrorText(int code) {
  const char* text = GifErrorString(code);
  return text != nullptr ? text : "Unknown error";
}

struct GifCloser {
  void operator()(GifFileType* gif) const {
    int error = D_GIF_SUCCEEDED;
    DGifCloseFile(gif, &error);
  }
};

// Frames larger than this are refused as if their pixels could not be allocated.
constexpr int64_t kMaxFramePixels = int64_t{1} << 31;

struct Frame {
  GifImageDesc desc;
  int saved_index;  // in gif->SavedImages: where giflib keeps the frame's local color table
  GraphicsControlBlock gcb;
  std::unique_ptr<GifByteType[]> pixels;  // desc.Width * desc.Height color indices
};

// The frames of the file, as DGifSlurp with TensorFlow's patch reads them. Returns false when the
// reading stopped at an error; `frames` then holds the frames read whole before it.
bool ReadFrames(GifFileType* gif, std::vector<Frame>* frames) {
  GraphicsControlBlock pending;  // from the first graphics control extension since the last frame
  bool have_pending = false;
  GifRecordType type;
  do {
    if (DGifGetRecordType(gif, &type) == GIF_ERROR) return false;
    if (type == IMAGE_DESC_RECORD_TYPE) {
      if (DGifGetImageDesc(gif) == GIF_ERROR) return false;
      Frame frame;
      frame.desc = gif->Image;
      frame.desc.ColorMap = nullptr;
      frame.saved_index = gif->ImageCount - 1;
      const int64_t w = frame.desc.Width, h = frame.desc.Height;
      if (w <= 0 || h <= 0 || w > INT_MAX / h || w * h > kMaxFramePixels) return false;
      frame.pixels.reset(new (std::nothrow) GifByteType[w * h]);
      if (frame.pixels == nullptr) return false;
      if (frame.desc.Interlace) {
        // Rows 0, 8, 16 ...; 4, 12 ...; 2, 6 ...; 1, 3 ...
        static const int kStart[] = {0, 4, 2, 1}, kStep[] = {8, 8, 4, 2};
        for (int pass = 0; pass < 4; ++pass) {
          for (int64_t y = kStart[pass]; y < h; y += kStep[pass]) {
            if (DGifGetLine(gif, frame.pixels.get() + y * w, static_cast<int>(w)) == GIF_ERROR) {
              return false;
            }
          }
        }
      } else if (DGifGetLine(gif, frame.pixels.get(), static_cast<int>(w * h)) == GIF_ERROR) {
        return false;
      }
      frame.gcb.DisposalMode = DISPOSAL_UNSPECIFIED;
      frame.gcb.UserInputFlag = false;
      frame.gcb.DelayTime = 0;
      frame.gcb.TransparentColor = NO_TRANSPARENT_COLOR;
      if (have_pending) frame.gcb = pending;
      have_pending = false;
      frames->push_back(std::move(frame));
    } else if (type == EXTENSION_RECORD_TYPE) {
      int function = 0;
      GifByteType* block = nullptr;
      if (DGifGetExtension(gif, &function, &block) == GIF_ERROR) return false;
      if (block != nullptr && function == GRAPHICS_EXT_FUNC_CODE && !have_pending) {
        // A malformed block leaves the defaults, as DGifSavedExtensionToGCB does.
        pending.DisposalMode = DISPOSAL_UNSPECIFIED;
        pending.UserInputFlag = false;
        pending.DelayTime = 0;
        pending.TransparentColor = NO_TRANSPARENT_COLOR;
        DGifExtensionToGCB(block[0], block + 1, &pending);
        have_pending = true;
      }
      while (block != nullptr) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return false;
      }
    }
  } while (type != TERMINATE_RECORD_TYPE);
  if (frames->empty()) {
    gif->Error = D_GIF_ERR_NO_IMAG_DSCR;
    return false;
  }
  return true;
}

}  // namespace

absl::Status DecodeGif(absl::string_view data, bool all_frames, const OutputAllocator& allocate) {
  Reader reader{reinterpret_cast<const uint8_t*>(data.data()), data.size()};
  int error = D_GIF_SUCCEEDED;
  std::unique_ptr<GifFileType, GifCloser> gif(DGifOpen(&reader, ReadBytes, &error));
  if (gif == nullptr || error != D_GIF_SUCCEEDED) {
    return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                   "), failed to open gif file: ", ErrorText(error));
  }
  std::vector<Frame> frames;
  if (!ReadFrames(gif.get(), &frames)) {
    // As TensorFlow: a damaged file gives the frames read whole before the damage, if any.
    if (frames.empty()) {
      return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                     "), failed to slurp gif file: ", ErrorText(gif->Error));
    }
  }
  int64_t width = 0, height = 0;
  for (const Frame& f : frames) {
    width = std::max<int64_t>(width, f.desc.Width);
    height = std::max<int64_t>(height, f.desc.Height);
  }
  const int64_t count = all_frames ? static_cast<int64_t>(frames.size()) : 1;
  absl::StatusOr<void*> buffer = allocate(count, height, width, 3);
  if (!buffer.ok()) return buffer.status();
  uint8_t* out = static_cast<uint8_t*>(*buffer);
  const size_t frame_bytes = static_cast<size_t>(height * width * 3);

  for (int64_t k = 0; k < count; ++k) {
    uint8_t* canvas = out + k * frame_bytes;
    const Frame& frame = frames[k];
    const GifImageDesc& desc = frame.desc;
    if (k > 0) {
      std::memcpy(canvas, canvas - frame_bytes, frame_bytes);
    } else if (desc.Left != 0 || desc.Top != 0 || desc.Width != width || desc.Height != height) {
      std::memset(canvas, 0, frame_bytes);
    }
    const ColorMapObject* local = gif->SavedImages[frame.saved_index].ImageDesc.ColorMap;
    const ColorMapObject* colors = local != nullptr ? local : gif->SColorMap;
    if (colors == nullptr) {
      return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                     "), missing color map for frame ", k);
    }
    // The part of the frame on the canvas.
    const int64_t top = std::max<int64_t>(desc.Top, 0), left = std::max<int64_t>(desc.Left, 0);
    const int64_t bottom = std::min<int64_t>(int64_t{desc.Top} + desc.Height, height);
    const int64_t right = std::min<int64_t>(int64_t{desc.Left} + desc.Width, width);
    for (int64_t y = top; y < bottom; ++y) {
      const GifByteType* src = frame.pixels.get() + (y - desc.Top) * desc.Width;
      uint8_t* dst = canvas + y * width * 3;
      for (int64_t x = left; x < right; ++x) {
        const int index = src[x - desc.Left];
        if (index == frame.gcb.TransparentColor) {
          if (k == 0) std::memset(dst + 3 * x, 0, 3);
          continue;
        }
        if (index >= colors->ColorCount) {
          return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                         "), found color index ", index,
                                         " outside of color map range ", colors->ColorCount);
        }
        const GifColorType& c = colors->Colors[index];
        dst[3 * x] = c.Red;
        dst[3 * x + 1] = c.Green;
        dst[3 * x + 2] = c.Blue;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace image
}  // namespace sg
