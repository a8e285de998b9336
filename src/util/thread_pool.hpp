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
  // Reentrant and concurrent: a task may call run() on the same pool (nested fork-join, as the
  // witness synthesis of a circuit's pieces does), and callers on different threads share the
  // workers. A caller runs its own indices first, then helps with other calls' indices while
  // its last ones finish elsewhere, so nesting never leaves a thread waiting idle.
  void run(size_t count, const std::function<void(size_t)>& task);

  // Splits [0, n) into about `size() * chunks_per_thread` contiguous ranges (each at least
  // min_chunk long) and calls body(begin, end) for each in parallel.
  void parallel_for(size_t n, const std::function<void(size_t, size_t)>& body, size_t min_chunk = 1,
                    size_t chunks_per_thread = 4);

 private:
  struct Job {
    const std::function<void(size_t)>* task;
    size_t count;
    size_t next = 0, finished = 0;
    std::exception_ptr error;
  };
  void worker_loop();
  // Runs index i of `job` without the lock held; `lock` is held on entry and on return.
  void execute(Job& job, size_t i, std::unique_lock<std::mutex>& lock);
  // A job with an unclaimed index (the oldest), or null. Caller holds mu_.
  Job* open_job() const;

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;  // a job with unclaimed indices was added
  std::condition_variable done_;  // an index finished
  std::vector<Job*> open_;        // jobs with unclaimed indices, oldest first
  bool stop_ = false;
};

}  // namespace cuzk
