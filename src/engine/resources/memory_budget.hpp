// Admission by a byte budget: every large allocation of the engine (loaded parameters, a
// partition's working set, a prepared job) reserves its estimate first and waits while it does
// not fit, so the sum of reservations never exceeds the budget.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

namespace cuzk::engine {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit_bytes);  // 0: unlimited

  // Waits until `bytes` fit. Returns false, reserving nothing, when `abandon` turns true
  // (polled every 50 ms, without this object's lock held) or when `bytes` exceeds capacity()
  // (it would never fit).
  bool reserve(uint64_t bytes, const std::function<bool()>& abandon);
  bool try_reserve(uint64_t bytes);
  void release(uint64_t bytes);

  // Reserves `bytes` for good (a share the owner manages itself); false when it does not fit.
  bool pin(uint64_t bytes);
  uint64_t limit() const { return limit_; }
  // What one reservation can ever get: the limit less the pinned shares (0: unlimited).
  uint64_t capacity() const;
  uint64_t in_use() const;
  uint64_t peak() const;  // highest in_use() so far

 private:
  const uint64_t limit_;
  mutable std::mutex mu_;
  std::condition_variable freed_;
  uint64_t in_use_ = 0, peak_ = 0, pinned_ = 0;
};

// A reservation released on destruction (move-only).
class Reservation {
 public:
  Reservation() = default;
  Reservation(MemoryBudget* budget, uint64_t bytes) : budget_(budget), bytes_(bytes) {}
  Reservation(Reservation&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_) { o.bytes_ = 0; }
  Reservation& operator=(Reservation&& o) noexcept {
    if (this != &o) {
      reset();
      budget_ = o.budget_;
      bytes_ = o.bytes_;
      o.bytes_ = 0;
    }
    return *this;
  }
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { reset(); }

  void reset() {
    if (budget_ != nullptr && bytes_ != 0) budget_->release(bytes_);
    bytes_ = 0;
  }
  uint64_t bytes() const { return bytes_; }
  // Gives back what exceeds `bytes` (an estimate settled on a measured size).
  void shrink_to(uint64_t bytes) {
    if (budget_ != nullptr && bytes < bytes_) budget_->release(bytes_ - bytes);
    if (bytes < bytes_) bytes_ = bytes;
  }
  // Takes over `other` (same budget).
  void merge(Reservation&& other) {
    if (budget_ == nullptr) budget_ = other.budget_;
    bytes_ += other.bytes_;
    other.bytes_ = 0;
  }

 private:
  MemoryBudget* budget_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace cuzk::engine
