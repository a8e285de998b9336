// DeviceMemoryCap: the device bytes one backend may hold ([gpus] memory_limit) and what it holds.
// Every DeviceBuffer allocated on a thread inside a Scope is charged to the scope's cap before
// cudaMalloc is called, and refunds it when freed (the buffer remembers its cap, so it may be
// freed anywhere). A charge past the limit throws the CudaError an exhausted device would
// (cudaErrorMemoryAllocation: out_of_memory() is true, so the callers' fallbacks still work),
// naming the request, the bytes in use and the limit. Limit 0: counted, never refused.
// It also sums the host time its buffers spent in cudaMalloc and cudaFree (which waits for the
// device): what a phase that frees and allocates again pays for it (the capped H MSM's scratch,
// every partition).
// Thread-safe (atomics); the Scope pointer is per thread, set by the backend around each call.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace cuzk::gpu {

class DeviceMemoryCap {
 public:
  explicit DeviceMemoryCap(uint64_t limit = 0) : limit_(limit) {}
  DeviceMemoryCap(const DeviceMemoryCap&) = delete;
  DeviceMemoryCap& operator=(const DeviceMemoryCap&) = delete;

  uint64_t limit() const { return limit_; }
  uint64_t in_use() const { return in_use_.load(); }
  uint64_t peak() const { return peak_.load(); }
  void reset_peak() { peak_.store(in_use_.load()); }

  // Throws CudaError (cudaErrorMemoryAllocation) when bytes more would pass the limit.
  void charge(uint64_t bytes);
  void refund(uint64_t bytes) noexcept { in_use_.fetch_sub(bytes); }

  // Host seconds in cudaMalloc and cudaFree of charged buffers, since construction.
  void add_allocation_seconds(double s) noexcept { allocation_s_.fetch_add(s); }
  double allocation_seconds() const { return allocation_s_.load(); }

  // The cap charged by allocations on this thread (null: none).
  static DeviceMemoryCap* current();

  class Scope {
   public:
    explicit Scope(DeviceMemoryCap& cap);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    DeviceMemoryCap* previous_;
  };

 private:
  uint64_t limit_;
  std::atomic<uint64_t> in_use_{0}, peak_{0};
  std::atomic<double> allocation_s_{0};
};

}  // namespace cuzk::gpu
