// Host memory for tensor buffers: alignment, and the recycling of large blocks (the cache that
// keeps a 64 MiB RecvTensor reply from faulting in fresh pages every step).
#include "core/framework/host_memory.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/framework/tensor.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

bool Aligned(const void* p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

TEST(HostMemory, SmallAndLargeBlocksAreAlignedAndWritable) {
  for (size_t bytes : {size_t{1}, size_t{100}, size_t{4096}, size_t{65537}, size_t{100000},
                       kLargeBlockBytes - 1,
                       kLargeBlockBytes, size_t{3} << 20}) {
    void* p = AllocateHostMemory(bytes, kTensorAlignment);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_TRUE(Aligned(p, kTensorAlignment)) << bytes;
    std::memset(p, 0xab, bytes);
    EXPECT_EQ(static_cast<unsigned char*>(p)[bytes - 1], 0xab);
    FreeHostMemory(p, bytes, kTensorAlignment);
  }
  FreeHostMemory(nullptr, 10, kTensorAlignment);  // a no-op
}

TEST(HostMemory, SmallBlocksOfEverySizeClassAreAlignedAndWritable) {
  // Both sides of each class boundary: 64-byte steps to 1 KiB, quarter powers of two beyond.
  for (size_t bytes : {size_t{63}, size_t{64}, size_t{65}, size_t{1023}, size_t{1024},
                       size_t{1025}, size_t{1280}, size_t{1281}, size_t{2048}, size_t{2049},
                       size_t{49152}, size_t{49153}, size_t{65535}, size_t{65536},
                       size_t{65537}}) {
    std::vector<void*> blocks;
    for (int i = 0; i < 3; ++i) {  // the second and third may come from the free list
      void* p = AllocateHostMemory(bytes, kTensorAlignment);
      ASSERT_NE(p, nullptr) << bytes;
      EXPECT_TRUE(Aligned(p, kTensorAlignment)) << bytes;
      std::memset(p, i, bytes);
      blocks.push_back(p);
    }
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(static_cast<unsigned char*>(blocks[i])[bytes - 1], i) << bytes;
      FreeHostMemory(blocks[i], bytes, kTensorAlignment);
    }
  }
}

TEST(HostMemory, AFreedSmallBlockIsReusedByItsThreadForTheSameSizeClass) {
  if (!SmallBlockCacheEnabled()) GTEST_SKIP() << "the small-block lists are off in this build";
  void* p = AllocateHostMemory(1000, kTensorAlignment);
  FreeHostMemory(p, 1000, kTensorAlignment);
  void* q = AllocateHostMemory(961, kTensorAlignment);  // 961 and 1000 both round to 1024
  EXPECT_EQ(q, p);
  // Another class does not take q's block, although it is free on this thread's list.
  FreeHostMemory(q, 961, kTensorAlignment);
  void* other = AllocateHostMemory(1100, kTensorAlignment);
  EXPECT_NE(other, q);
  FreeHostMemory(other, 1100, kTensorAlignment);
  EXPECT_EQ(AllocateHostMemory(1000, kTensorAlignment), q);  // still there for its own class
  FreeHostMemory(q, 1000, kTensorAlignment);

  // Another thread's free list is its own: a block this thread freed is not handed to it.
  void* mine = AllocateHostMemory(3000, kTensorAlignment);
  FreeHostMemory(mine, 3000, kTensorAlignment);
  void* theirs = nullptr;
  std::thread([&] {
    theirs = AllocateHostMemory(3000, kTensorAlignment);
    FreeHostMemory(theirs, 3000, kTensorAlignment);  // kept until the thread ends, then freed
  }).join();
  EXPECT_NE(theirs, mine);
  EXPECT_EQ(AllocateHostMemory(3000, kTensorAlignment), mine);
  FreeHostMemory(mine, 3000, kTensorAlignment);
}

TEST(HostMemory, AThreadKeepsAtMostSixteenBlocksOfAClass) {
  if (!SmallBlockCacheEnabled()) GTEST_SKIP() << "the small-block lists are off in this build";
  constexpr size_t kBytes = 5000;
  std::vector<void*> freed;
  for (int i = 0; i < 20; ++i) freed.push_back(AllocateHostMemory(kBytes, kTensorAlignment));
  for (void* p : freed) FreeHostMemory(p, kBytes, kTensorAlignment);
  // The first 16 freed were kept, and come back last kept first; the other 4 went to the heap.
  std::vector<void*> again;
  for (int i = 0; i < 16; ++i) again.push_back(AllocateHostMemory(kBytes, kTensorAlignment));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(again[i], freed[15 - i]) << i;
  for (void* p : again) FreeHostMemory(p, kBytes, kTensorAlignment);
}

TEST(HostMemory, AFreedLargeBlockIsReusedForTheSameSize) {
  if (!HostMemoryCacheEnabled()) GTEST_SKIP() << "the large-block cache is off in this build";
  const size_t bytes = (size_t{5} << 20) + 123;  // rounds to 6 MiB
  const size_t before = CachedHostMemoryBytes();
  void* p = AllocateHostMemory(bytes, kTensorAlignment);
  ASSERT_NE(p, nullptr);
  static_cast<char*>(p)[0] = 7;
  FreeHostMemory(p, bytes, kTensorAlignment);
  EXPECT_EQ(CachedHostMemoryBytes(), before + (size_t{6} << 20));
  // Any size that rounds to the same block gets it back, contents as they were.
  void* q = AllocateHostMemory((size_t{6} << 20) - 5, kTensorAlignment);
  EXPECT_EQ(q, p);
  EXPECT_EQ(static_cast<char*>(q)[0], 7);
  EXPECT_EQ(CachedHostMemoryBytes(), before);
  // Another size does not.
  void* r = AllocateHostMemory(size_t{9} << 20, kTensorAlignment);
  EXPECT_NE(r, p);
  FreeHostMemory(q, (size_t{6} << 20) - 5, kTensorAlignment);
  FreeHostMemory(r, size_t{9} << 20, kTensorAlignment);
  EXPECT_EQ(CachedHostMemoryBytes(), before + (size_t{16} << 20));  // 6 + 9 rounded to 10
}

TEST(HostMemory, AFreedMidSizeBlockIsReusedForTheSameSizeClass) {
  if (!HostMemoryCacheEnabled()) GTEST_SKIP() << "the block cache is off in this build";
  // Above the small lists (64 KiB) and below kLargeBlockBytes: four sizes per power of two, so
  // 300000 and 320000 bytes both round to 320 KiB (327680).
  const size_t before = CachedHostMemoryBytes();
  void* p = AllocateHostMemory(300000, kTensorAlignment);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(Aligned(p, 4096));
  static_cast<char*>(p)[299999] = 9;
  FreeHostMemory(p, 300000, kTensorAlignment);
  EXPECT_EQ(CachedHostMemoryBytes(), before + 327680);
  void* q = AllocateHostMemory(320000, 4096);
  EXPECT_EQ(q, p);
  EXPECT_EQ(static_cast<char*>(q)[299999], 9);
  EXPECT_EQ(CachedHostMemoryBytes(), before);
  // The next class up (384 KiB) does not take it.
  FreeHostMemory(q, 320000, 4096);
  void* r = AllocateHostMemory(330000, kTensorAlignment);
  EXPECT_NE(r, p);
  FreeHostMemory(r, 330000, kTensorAlignment);
  EXPECT_EQ(CachedHostMemoryBytes(), before + 327680 + 393216);
}

TEST(HostMemory, TheCacheIsBoundedOldestBlocksGoFirst) {
  if (!HostMemoryCacheEnabled()) GTEST_SKIP() << "the large-block cache is off in this build";
  // The default bound is 256 MiB: freeing 40 blocks of 8 MiB keeps at most that much.
  std::vector<void*> blocks;
  for (int i = 0; i < 40; ++i) blocks.push_back(AllocateHostMemory(size_t{8} << 20, 64));
  for (void* p : blocks) FreeHostMemory(p, size_t{8} << 20, 64);
  EXPECT_LE(CachedHostMemoryBytes(), size_t{256} << 20);
  EXPECT_GE(CachedHostMemoryBytes(), size_t{256 - 8} << 20);
}

TEST(HostMemory, LargeTensorsRecycleTheirBuffers) {
  if (!HostMemoryCacheEnabled()) GTEST_SKIP() << "the large-block cache is off in this build";
  const void* first;
  {
    Tensor t(DT_FLOAT, TensorShape({3 << 20}));  // 12 MiB
    first = t.data<float>();
    t.data<float>()[0] = 1.5f;
  }
  Tensor u(DT_INT32, TensorShape({3 << 20}));  // same byte size, another dtype
  EXPECT_EQ(static_cast<const void*>(u.data<int32_t>()), first);
  EXPECT_TRUE(Aligned(u.data<int32_t>(), kTensorAlignment));
}

// The cache's limit is an option (SetHostMemoryCacheMiB, which a session or server made with
// ConfigProto.experimental.sg_tensor_cache_mb calls), and SG_TENSOR_CACHE_MB, when set, overrides
// it. Lowering the limit unmaps what is beyond it. Runs last: it ends with the default limit.
TEST(HostMemoryLimit, IsAnOptionThatTheEnvironmentOverrides) {
  ASSERT_EQ(std::getenv("SG_TENSOR_CACHE_MB"), nullptr) << "the test sets it itself";
  SetHostMemoryCacheMiB(16);
  EXPECT_EQ(HostMemoryCacheCapacity(), size_t{16} << 20);
  if (HostMemoryCacheEnabled()) {
    std::vector<void*> blocks;
    for (int i = 0; i < 4; ++i) blocks.push_back(AllocateHostMemory(size_t{8} << 20, 64));
    for (void* p : blocks) FreeHostMemory(p, size_t{8} << 20, 64);
    EXPECT_LE(CachedHostMemoryBytes(), size_t{16} << 20);
    SetHostMemoryCacheMiB(8);
    EXPECT_LE(CachedHostMemoryBytes(), size_t{8} << 20);
  }
  SetHostMemoryCacheMiB(-5);
  EXPECT_EQ(HostMemoryCacheCapacity(), 0u);
  EXPECT_FALSE(HostMemoryCacheEnabled());
  EXPECT_EQ(CachedHostMemoryBytes(), 0u);
  // A session's config sets it for the process.
  SessionOptions options;
  options.config.mutable_experimental()->set_sg_tensor_cache_mb(32);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(options, &session).ok());
  EXPECT_EQ(HostMemoryCacheCapacity(), size_t{32} << 20);
  // The environment wins over what programs set.
  ASSERT_EQ(setenv("SG_TENSOR_CACHE_MB", "64", 1), 0);
  SetHostMemoryCacheMiB(4);
  EXPECT_EQ(HostMemoryCacheCapacity(), size_t{64} << 20);
  unsetenv("SG_TENSOR_CACHE_MB");
  SetHostMemoryCacheMiB(256);
  EXPECT_EQ(HostMemoryCacheCapacity(), size_t{256} << 20);
}

}  // namespace
}  // namespace sg
