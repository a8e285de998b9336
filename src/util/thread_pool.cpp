#include "util/thread_pool.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace cuzk {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads - 1);
  for (unsigned i = 0; i + 1 < threads; ++i)
    workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_)
    t.join();
}

void ThreadPool::drain() {
  std::unique_lock<std::mutex> lock(mu_);
  while (task_ != nullptr && next_ < count_) {
    const size_t i = next_++;
    const auto* task = task_;
    lock.unlock();
    try {
      (*task)(i);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      lock.unlock();
    }
    lock.lock();
    if (++finished_ == count_) done_.notify_all();
  }
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || (generation_ != seen && task_ != nullptr); });
      if (stop_) return;
      seen = generation_;
    }
    drain();
  }
}

void ThreadPool::run(size_t count, const std::function<void(size_t)>& task) {
  if (count == 0) return;
  std::lock_guard<std::mutex> turn(run_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    task_ = &task;
    count_ = count;
    next_ = finished_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  drain();
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return finished_ == count_; });
  task_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ThreadPool::parallel_for(size_t n, const std::function<void(size_t, size_t)>& body,
                              size_t min_chunk, size_t chunks_per_thread) {
  if (n == 0) return;
  size_t chunks = std::max<size_t>(1, size() * chunks_per_thread);
  chunks = std::min(chunks, std::max<size_t>(1, n / std::max<size_t>(1, min_chunk)));
  const size_t step = (n + chunks - 1) / chunks;
  chunks = (n + step - 1) / step;
  run(chunks, [&](size_t c) { body(c * step, std::min(n, (c + 1) * step)); });
}

}  // namespace cuzk
