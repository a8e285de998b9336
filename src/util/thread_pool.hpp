// ThreadPool: a fixed set of workers for fork-join data parallelism (FFT, MSM, setup, synthesis).
// Owned by whoever runs the work (a prover, the engine, a test); there is no global pool.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk {

class ThreadPool {
 public:
  // threads == 0: one per hardware thread.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }  // + the caller

  // Runs task(i) for i in [0, count) across the workers and the calling thread; returns when all
  // are done. The first exception thrown by a task is rethrown here (the rest still run).
  // Callers on different threads take turns (the engine's workers share pools); not reentrant:
  // a task must not call run() on the same pool.
  void run(size_t count, const std::function<void(size_t)>& task);

  // Splits [0, n) into about `size() * chunks_per_thread` contiguous ranges (each at least
  // min_chunk long) and calls body(begin, end) for each in parallel.
  void parallel_for(size_t n, const std::function<void(size_t, size_t)>& body, size_t min_chunk = 1,
                    size_t chunks_per_thread = 4);

 private:
  void worker_loop();
  void drain();  // runs tasks of the current job until none are left

  std::vector<std::thread> workers_;
  std::mutex run_mu_;  // one run() at a time
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::function<void(size_t)>* task_ = nullptr;
  size_t count_ = 0, next_ = 0, finished_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace cuzk
