// Host memory for tensor buffers.
//
// Small blocks come from the C heap (aligned_alloc), through per-thread free lists for blocks up
// to 64 KiB: a freed block of up to 64 KiB is kept by the freeing thread (at most 16 per size
// class and 1 MiB per thread) for its next allocation of that class, and the rest go back to the
// heap when the thread ends. Larger blocks go, when freed, to a bounded process-wide cache instead
// of back to the heap or the kernel, and the next tensor of the same rounded size reuses one:
//   - up to kLargeBlockBytes, heap blocks aligned to 4 KiB, four sizes per power of two (a
//     convolution network's activations at batch 1, which the heap otherwise hands back to the
//     kernel and faults in again every step);
//   - from kLargeBlockBytes, blocks mapped with mmap, aligned to 2 MiB and advised to use
//     transparent huge pages (the next step's RecvTensor reply, activation or gradient reuses
//     pages that are already mapped, instead of faulting in and zeroing fresh ones: for a 64 MiB
//     tensor that is 16384 page faults, about a third of the cost of receiving it over loopback).
//
// The cache holds at most 256 MiB by default, oldest blocks released first. A session or server
// made with ConfigProto.experimental.sg_tensor_cache_mb sets the limit for the process
// (SetHostMemoryCacheMiB); the environment variable SG_TENSOR_CACHE_MB (MiB; 0 turns the cache
// off) overrides both. Builds with AddressSanitizer use the heap for every size,
// so that the sanitizer still sees every buffer.
//
// Thread safety: both functions may be called from any thread.
#ifndef SG_CORE_FRAMEWORK_HOST_MEMORY_H_
#define SG_CORE_FRAMEWORK_HOST_MEMORY_H_

#include <cstddef>
#include <cstdint>

namespace sg {

// Blocks of at least this many bytes are mapped (1 MiB); smaller ones above 64 KiB are heap blocks.
constexpr size_t kLargeBlockBytes = size_t{1} << 20;

// Returns `bytes` (> 0) of uninitialized memory aligned to `alignment` (a power of two, at most
// 4096), or nullptr when the memory cannot be had. Free it with FreeHostMemory(p, bytes, alignment).
void* AllocateHostMemory(size_t bytes, size_t alignment);

// Frees a block from AllocateHostMemory, passing the same `bytes` and `alignment`. nullptr is a
// no-op.
void FreeHostMemory(void* p, size_t bytes, size_t alignment);

// Tensor memory the calling thread took from AllocateHostMemory and gave back to FreeHostMemory
// since its last ResetThreadHostMemoryUsage(), in requested bytes: total allocated, live now
// (allocated minus freed; negative when the thread freed older blocks) and the peak of live. A
// traced step reports these per node (NodeExecStats.memory, core/runtime/executor.cc), as
// TensorFlow's AllocatorMemoryUsed. Thread safety: each thread sees its own counters.
struct HostMemoryUsage {
  int64_t total_bytes = 0;
  int64_t live_bytes = 0;
  int64_t peak_bytes = 0;
};
void ResetThreadHostMemoryUsage();
HostMemoryUsage ThreadHostMemoryUsage();

// What the cache of blocks above 64 KiB holds now, in bytes (for tests and benchmarks).
size_t CachedHostMemoryBytes();

// Sets how much the large-block cache may hold, in MiB (0 or less turns it off), unmapping the
// oldest blocks beyond it; for the whole process. When the environment variable
// SG_TENSOR_CACHE_MB is set, its value is used instead: it overrides what programs configure.
void SetHostMemoryCacheMiB(int64_t mib);
// The cache's limit now, in bytes.
size_t HostMemoryCacheCapacity();

// False in builds that use the heap for every size (AddressSanitizer) or when the cache's limit
// is 0.
bool HostMemoryCacheEnabled();

// Whether small blocks go through the per-thread free lists: false in builds that use the heap
// for every size (AddressSanitizer).
bool SmallBlockCacheEnabled();

}  // namespace sg

#endif  // SG_CORE_FRAMEWORK_HOST_MEMORY_H_
