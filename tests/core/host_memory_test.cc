// Host memory for tensor buffers: alignment, and the recycling of large blocks (the cache that
// keeps a 64 MiB RecvTensor reply from faulting in fresh pages every step).
#include "core/framework/host_memory.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "core/framework/tensor.h"
#include "core/runtime/session.h"

namespace sg {
namespace {

bool Aligned(const void* p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

TEST(HostMemory, SmallAndLargeBlocksAreAlignedAndWritable) {
  for (size_t bytes : {size_t{1}, size_t{100}, size_t{4096}, kLargeBlockBytes - 1,
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
