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

ThreadPool::Job* ThreadPool::open_job() const {
  return open_.empty() ? nullptr : open_.front();
}

void ThreadPool::execute(Job& job, size_t i, std::unique_lock<std::mutex>& lock) {
  if (job.next == job.count) open_.erase(std::find(open_.begin(), open_.end(), &job));
  const auto* task = job.task;
  lock.unlock();
  std::exception_ptr error;
  try {
    (*task)(i);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  if (error && !job.error) job.error = error;
  if (++job.finished == job.count) done_.notify_all();
}

void ThreadPool::worker_loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || open_job() != nullptr; });
    if (stop_) return;
    Job& job = *open_job();
    execute(job, job.next++, lock);
  }
}

void ThreadPool::run(size_t count, const std::function<void(size_t)>& task) {
  if (count == 0) return;
  Job job{&task, count, 0, 0, nullptr};
  std::unique_lock<std::mutex> lock(mu_);
  open_.push_back(&job);
  if (count > 1) {
    wake_.notify_all();
    done_.notify_all();  // callers waiting on their last indices can help too
  }
  while (job.next < job.count)
    execute(job, job.next++, lock);
  while (job.finished < job.count) {
    if (Job* other = open_job()) {
      execute(*other, other->next++, lock);
    } else {
      done_.wait(lock);
    }
  }
  if (job.error) std::rethrow_exception(job.error);
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
