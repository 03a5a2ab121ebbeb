#include "core/runtime/threadpool.h"

#include <algorithm>
#include <thread>

namespace sg {

ThreadPool::ThreadPool(int num_threads, bool spin)
    : num_threads_(num_threads > 0 ? num_threads
                                   : std::max(1u, std::thread::hardware_concurrency())),
      pool_(std::make_unique<Eigen::ThreadPool>(num_threads_, spin)) {}

ThreadPool::~ThreadPool() = default;

int InterOpThreadsFor(int configured, int intra_threads) {
  if (configured != 0) return configured;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / std::max(1, intra_threads));
}

void ThreadPool::Schedule(std::function<void()> fn) { pool_->Schedule(std::move(fn)); }

}  // namespace sg
