#include "engine/resources/memory_budget.hpp"

#include <algorithm>
#include <chrono>

namespace cuzk::engine {

MemoryBudget::MemoryBudget(uint64_t limit_bytes) : limit_(limit_bytes) {}

bool MemoryBudget::pin(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (limit_ != 0 && (bytes > limit_ || in_use_ > limit_ - bytes)) return false;
  in_use_ += bytes;
  pinned_ += bytes;
  peak_ = std::max(peak_, in_use_);
  return true;
}

uint64_t MemoryBudget::capacity() const {
  std::lock_guard<std::mutex> lock(mu_);
  return limit_ == 0 ? 0 : limit_ - pinned_;
}

bool MemoryBudget::try_reserve(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (limit_ != 0 && (bytes > limit_ || in_use_ > limit_ - bytes)) return false;
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
  return true;
}

bool MemoryBudget::reserve(uint64_t bytes, const std::function<bool()>& abandon) {
  if (limit_ != 0 && bytes > capacity()) return false;
  const auto fits = [&] { return limit_ == 0 || in_use_ <= limit_ - bytes; };
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      freed_.wait_for(lock, std::chrono::milliseconds(50), fits);
      if (fits()) {
        in_use_ += bytes;
        peak_ = std::max(peak_, in_use_);
        return true;
      }
    }
    // Outside the lock: `abandon` takes the caller's locks, which are held around release().
    if (abandon && abandon()) return false;
  }
}

void MemoryBudget::release(uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_use_ -= std::min(bytes, in_use_);
  }
  freed_.notify_all();
}

uint64_t MemoryBudget::in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_use_;
}

uint64_t MemoryBudget::peak() const {
  std::lock_guard<std::mutex> lock(mu_);
  return peak_;
}

}  // namespace cuzk::engine
