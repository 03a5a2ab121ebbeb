#include "core/framework/host_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"

#if defined(__SANITIZE_ADDRESS__)
#define SG_HOST_MEMORY_HEAP_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SG_HOST_MEMORY_HEAP_ONLY 1
#endif
#endif

namespace sg {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kDefaultCacheMiB = 256;

size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Blocks above the small lists' sizes (64 KiB) and below kLargeBlockBytes come from the heap
// and are cached like large ones: a 1-thread MobileNetV2 step at batch 1 has dozens of
// activations of 100-600 KiB, and giving them back to the C heap cost it page faults and heap
// consolidation every step (about a tenth of its time in perf).
[[maybe_unused]] constexpr size_t kMidMinBytes = (size_t{64} << 10) + 1;

// The rounded size of a cached block: a whole number of huge pages for a large (mapped) block;
// for a mid-size (heap) block, four sizes per power of two.
size_t CachedSize(size_t bytes) {
  if (bytes >= kLargeBlockBytes) return RoundUp(bytes, kHugePage);
  const int shift = 63 - __builtin_clzll(static_cast<unsigned long long>(bytes - 1));
  return RoundUp(bytes, (size_t{1} << shift) / 4);
}

bool UseCache(size_t bytes) {
#ifdef SG_HOST_MEMORY_HEAP_ONLY
  (void)bytes;
  return false;
#else
  return bytes >= kMidMinBytes;
#endif
}

// Gives a block of CachedSize `size` back: unmapped when large, to the heap when mid-size.
void ReleaseBlock(void* p, size_t size) {
  if (size >= kLargeBlockBytes) {
    munmap(p, size);
  } else {
    std::free(p);
  }
}

// Maps `size` bytes (a multiple of kHugePage) at a kHugePage boundary.
void* MapAligned(size_t size) {
  const size_t span = size + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = RoundUp(start, kHugePage);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + span;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, size, MADV_HUGEPAGE);  // advice only: without THP the block still works
  return p;
}

// SG_TENSOR_CACHE_MB in bytes, when it is set to a number.
std::optional<size_t> CapacityFromEnvironment() {
  const char* v = std::getenv("SG_TENSOR_CACHE_MB");
  if (v == nullptr || *v == '\0') return std::nullopt;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return n > (SIZE_MAX >> 20) ? SIZE_MAX : static_cast<size_t>(n) << 20;
}

class BlockCache {
 public:
  BlockCache() : capacity_(CapacityFromEnvironment().value_or(kDefaultCacheMiB << 20)) {}

  // A cached block of exactly `size` bytes, or nullptr.
  void* Take(size_t size) {
    absl::MutexLock lock(&mu_);
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      if (it->first == size) {
        void* p = it->second;
        blocks_.erase(std::next(it).base());
        held_ -= size;
        return p;
      }
    }
    return nullptr;
  }

  // Keeps the block, unmapping the oldest ones beyond the capacity.
  void Put(void* p, size_t size) {
    std::deque<std::pair<size_t, void*>> evicted;
    {
      absl::MutexLock lock(&mu_);
      if (size > capacity_) {
        evicted.push_back({size, p});
      } else {
        blocks_.push_back({size, p});
        held_ += size;
        Evict(&evicted);
      }
    }
    for (const auto& [n, q] : evicted) ReleaseBlock(q, n);
  }

  // The environment variable, when set, wins over what the program asks for.
  void SetCapacity(size_t bytes) {
    std::deque<std::pair<size_t, void*>> evicted;
    {
      absl::MutexLock lock(&mu_);
      capacity_ = CapacityFromEnvironment().value_or(bytes);
      Evict(&evicted);
    }
    for (const auto& [n, q] : evicted) ReleaseBlock(q, n);
  }

  size_t capacity() {
    absl::MutexLock lock(&mu_);
    return capacity_;
  }

  size_t held() {
    absl::MutexLock lock(&mu_);
    return held_;
  }

 private:
  void Evict(std::deque<std::pair<size_t, void*>>* evicted) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    while (held_ > capacity_) {
      evicted->push_back(blocks_.front());
      held_ -= blocks_.front().first;
      blocks_.pop_front();
    }
  }

  absl::Mutex mu_;
  size_t capacity_ ABSL_GUARDED_BY(mu_);
  std::deque<std::pair<size_t, void*>> blocks_ ABSL_GUARDED_BY(mu_);  // oldest first
  size_t held_ ABSL_GUARDED_BY(mu_) = 0;
};

BlockCache& Cache() {
  static BlockCache* cache = new BlockCache;  // never destroyed: buffers may die at exit
  return *cache;
}

// Small blocks: per-thread free lists by size class, in front of the C heap. A step allocates
// and frees the same small sizes again and again (an LSTM's gates, a dense layer's activations);
// the heap's own paths for them (aligned allocation, coalescing, consolidating fast bins before
// a larger request) took about a fifth of a 1-thread LSTM step in perf. A block freed on another
// thread joins that thread's lists.
constexpr size_t kSmallAlignment = 64;
[[maybe_unused]] constexpr size_t kSmallMaxBytes = size_t{64} << 10;
// Up to 1 KiB in steps of 64 bytes (16 classes), then four classes per power of two up to
// 64 KiB (24 classes).
constexpr int kSmallClasses = 40;
constexpr size_t kSmallPerClass = 16;          // blocks kept per class and thread
constexpr size_t kSmallBytesPerThread = 1 << 20;  // bytes kept per thread

// The size class of `bytes` (1 to kSmallMaxBytes) and the size its blocks have.
int SmallClass(size_t bytes, size_t* rounded) {
  if (bytes <= 1024) {
    *rounded = RoundUp(bytes, kSmallAlignment);
    return static_cast<int>(*rounded / kSmallAlignment) - 1;
  }
  const int shift = 63 - __builtin_clzll(static_cast<unsigned long long>(bytes - 1));
  const size_t base = size_t{1} << shift, step = base / 4;
  *rounded = RoundUp(bytes, step);
  return 16 + (shift - 10) * 4 + static_cast<int>((*rounded - base) / step) - 1;
}

struct SmallCache {
  std::vector<void*> lists[kSmallClasses];
  size_t held = 0;
  ~SmallCache() {
    for (auto& list : lists) {
      for (void* p : list) std::free(p);
    }
  }
};

// The thread's cache, made on first use and freed when the thread ends; nullptr after that
// (a tensor freed by a thread-exit or static destructor then goes to the heap).
thread_local bool t_small_cache_gone = false;
struct SmallCacheOwner {
  SmallCache* cache = nullptr;
  ~SmallCacheOwner() {
    delete cache;
    t_small_cache_gone = true;
  }
};
thread_local SmallCacheOwner t_small_cache;

SmallCache* ThreadSmallCache() {
  if (t_small_cache_gone) return nullptr;
  if (t_small_cache.cache == nullptr) t_small_cache.cache = new SmallCache;
  return t_small_cache.cache;
}

bool UseSmallCache(size_t bytes, size_t alignment) {
#ifdef SG_HOST_MEMORY_HEAP_ONLY
  (void)bytes;
  (void)alignment;
  return false;
#else
  return bytes <= kSmallMaxBytes && alignment <= kSmallAlignment;
#endif
}

}  // namespace

namespace {
thread_local HostMemoryUsage t_usage;

void CountAllocation(size_t bytes) {
  t_usage.total_bytes += static_cast<int64_t>(bytes);
  t_usage.live_bytes += static_cast<int64_t>(bytes);
  if (t_usage.live_bytes > t_usage.peak_bytes) t_usage.peak_bytes = t_usage.live_bytes;
}
}  // namespace

void ResetThreadHostMemoryUsage() { t_usage = HostMemoryUsage(); }

HostMemoryUsage ThreadHostMemoryUsage() { return t_usage; }

void* AllocateHostMemory(size_t bytes, size_t alignment) {
  CountAllocation(bytes);
  if (UseSmallCache(bytes, alignment)) {
    size_t rounded;
    const int c = SmallClass(bytes, &rounded);
    if (SmallCache* cache = ThreadSmallCache(); cache != nullptr && !cache->lists[c].empty()) {
      void* p = cache->lists[c].back();
      cache->lists[c].pop_back();
      cache->held -= rounded;
      return p;
    }
    return std::aligned_alloc(kSmallAlignment, rounded);
  }
  if (!UseCache(bytes)) return std::aligned_alloc(alignment, RoundUp(bytes, alignment));
  const size_t size = CachedSize(bytes);
  if (void* p = Cache().Take(size)) return p;
  // Mid-size blocks are page-aligned, so that one block suits every alignment up to 4096.
  return size >= kLargeBlockBytes ? MapAligned(size) : std::aligned_alloc(4096, size);
}

void FreeHostMemory(void* p, size_t bytes, size_t alignment) {
  if (p == nullptr) return;
  t_usage.live_bytes -= static_cast<int64_t>(bytes);
  if (UseSmallCache(bytes, alignment)) {
    size_t rounded;
    const int c = SmallClass(bytes, &rounded);
    SmallCache* cache = ThreadSmallCache();
    if (cache != nullptr && cache->lists[c].size() < kSmallPerClass &&
        cache->held + rounded <= kSmallBytesPerThread) {
      if (cache->lists[c].capacity() == 0) cache->lists[c].reserve(kSmallPerClass);
      cache->lists[c].push_back(p);
      cache->held += rounded;
      return;
    }
    std::free(p);
    return;
  }
  if (!UseCache(bytes)) {
    std::free(p);
    return;
  }
  Cache().Put(p, CachedSize(bytes));
}

size_t CachedHostMemoryBytes() { return Cache().held(); }

void SetHostMemoryCacheMiB(int64_t mib) {
  if (mib <= 0) {
    Cache().SetCapacity(0);
  } else {
    Cache().SetCapacity(static_cast<uint64_t>(mib) > (SIZE_MAX >> 20)
                            ? SIZE_MAX
                            : static_cast<size_t>(mib) << 20);
  }
}

size_t HostMemoryCacheCapacity() { return Cache().capacity(); }

bool SmallBlockCacheEnabled() { return UseSmallCache(1, kSmallAlignment); }

bool HostMemoryCacheEnabled() { return UseCache(kLargeBlockBytes) && Cache().capacity() > 0; }

}  // namespace sg
