// GIF decoding on giflib, composing frames as TensorFlow's gif_io.cc does: the canvas is as large
// as the largest frame; each frame starts as a copy of the previous one (black for the first),
// and its pixels are drawn where it lies on the canvas except its transparent color.
#include <gif_lib.h>

#include <algorithm>
#include <cstring>
#include <memory>

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
  return text != nullptr ? text : "unknown error";
}

struct GifCloser {
  void operator()(GifFileType* gif) const {
    int error = D_GIF_SUCCEEDED;
    DGifCloseFile(gif, &error);
  }
};

}  // namespace

absl::Status DecodeGif(absl::string_view data, bool all_frames, const OutputAllocator& allocate) {
  Reader reader{reinterpret_cast<const uint8_t*>(data.data()), data.size()};
  int error = D_GIF_SUCCEEDED;
  std::unique_ptr<GifFileType, GifCloser> gif(DGifOpen(&reader, ReadBytes, &error));
  if (gif == nullptr || error != D_GIF_SUCCEEDED) {
    return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                   "), failed to open gif file: ", ErrorText(error));
  }
  if (DGifSlurp(gif.get()) != GIF_OK) {
    // As TensorFlow: go on with the frames read unless none was, the last one has no pixels,
    // or the file ended early.
    const int count = gif->ImageCount;
    if (count <= 0 || gif->SavedImages[count - 1].RasterBits == nullptr ||
        gif->Error == D_GIF_ERR_EOF_TOO_SOON) {
      return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                     "), failed to slurp gif file: ", ErrorText(gif->Error));
    }
  }
  if (gif->ImageCount <= 0) {
    return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                   "), gif file does not contain any image");
  }
  int64_t width = 0, height = 0;
  for (int k = 0; k < gif->ImageCount; ++k) {
    width = std::max<int64_t>(width, gif->SavedImages[k].ImageDesc.Width);
    height = std::max<int64_t>(height, gif->SavedImages[k].ImageDesc.Height);
  }
  const int frames = all_frames ? gif->ImageCount : 1;
  absl::StatusOr<void*> buffer = allocate(frames, height, width, 3);
  if (!buffer.ok()) return buffer.status();
  uint8_t* out = static_cast<uint8_t*>(*buffer);
  const size_t frame_bytes = static_cast<size_t>(height * width * 3);

  for (int k = 0; k < frames; ++k) {
    uint8_t* canvas = out + k * frame_bytes;
    const SavedImage& image = gif->SavedImages[k];
    const GifImageDesc& desc = image.ImageDesc;
    GraphicsControlBlock gcb;
    DGifSavedExtensionToGCB(gif.get(), k, &gcb);  // defaults when the frame has none
    if (k > 0) {
      std::memcpy(canvas, canvas - frame_bytes, frame_bytes);
    } else if (desc.Left != 0 || desc.Top != 0 || desc.Width != width || desc.Height != height) {
      std::memset(canvas, 0, frame_bytes);
    }
    const ColorMapObject* colors = desc.ColorMap != nullptr ? desc.ColorMap : gif->SColorMap;
    if (colors == nullptr) {
      return errors::InvalidArgument("Invalid GIF data (size ", data.size(),
                                     "), missing color map for frame ", k);
    }
    if (image.RasterBits == nullptr && desc.Width > 0 && desc.Height > 0) {
      return errors::InvalidArgument("Invalid GIF data (size ", data.size(), "), frame ", k,
                                     " has no pixels");
    }
    // The part of the frame on the canvas.
    const int64_t top = std::max<int64_t>(desc.Top, 0), left = std::max<int64_t>(desc.Left, 0);
    const int64_t bottom = std::min<int64_t>(int64_t{desc.Top} + desc.Height, height);
    const int64_t right = std::min<int64_t>(int64_t{desc.Left} + desc.Width, width);
    for (int64_t y = top; y < bottom; ++y) {
      const GifByteType* src = image.RasterBits + (y - desc.Top) * desc.Width;
      uint8_t* dst = canvas + y * width * 3;
      for (int64_t x = left; x < right; ++x) {
        const int index = src[x - desc.Left];
        if (index == gcb.TransparentColor) {
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
