// RAII owners of device memory, pinned host memory, streams and events: the only places in cuzk
// where cudaMalloc, cudaFree, cudaHostAlloc, cudaHostRegister, cudaStreamCreate and
// cudaEventCreate appear.
// Inside a DeviceArena::Scope a DeviceBuffer takes its bytes from the arena while it has room.
// Allocation failures throw CudaError (out_of_memory() true for cudaErrorMemoryAllocation) and
// carry the requested size. A DeviceBuffer allocated inside a DeviceMemoryCap::Scope is charged
// to that cap ([gpus] memory_limit) and refunds it when freed.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <utility>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_arena.hpp"
#include "gpu/device/device_memory_cap.hpp"
#include "util/clock.hpp"

namespace cuzk::gpu {

// n elements of T in device memory (uninitialised). Movable, not copyable.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) { allocate(n); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : d_ptr_(std::exchange(o.d_ptr_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        cap_(std::exchange(o.cap_, nullptr)),
        arena_(std::exchange(o.arena_, nullptr)),
        arena_end_(o.arena_end_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      d_ptr_ = std::exchange(o.d_ptr_, nullptr);
      size_ = std::exchange(o.size_, 0);
      cap_ = std::exchange(o.cap_, nullptr);
      arena_ = std::exchange(o.arena_, nullptr);
      arena_end_ = o.arena_end_;
    }
    return *this;
  }

  // Reallocates only when n exceeds the current size (contents are then lost).
  void reserve(size_t n) {
    if (n > size_) allocate(n);
  }
  void allocate(size_t n) {
    release();
    if (n == 0) return;
    if (DeviceArena* const arena = DeviceArena::current(); arena != nullptr) {
      const DeviceArena::End end = DeviceArena::current_end();
      if (void* const p = arena->take(n * sizeof(T), end); p != nullptr) {
        d_ptr_ = static_cast<T*>(p);
        size_ = n;
        arena_ = arena;
        arena_end_ = end;
        return;
      }
    }
    DeviceMemoryCap* const cap = DeviceMemoryCap::current();
    if (cap != nullptr) cap->charge(n * sizeof(T));  // throws past the cap
    void* p = nullptr;
    const auto t0 = SteadyClock::now();
    try {
      CUZK_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
    } catch (...) {
      if (cap != nullptr) cap->refund(n * sizeof(T));
      throw;
    }
    if (cap != nullptr) cap->add_allocation_seconds(seconds_since(t0));
    d_ptr_ = static_cast<T*>(p);
    size_ = n;
    cap_ = cap;
  }
  void release() noexcept {
    if (arena_ != nullptr) {
      arena_->give_back(arena_end_);  // the block's bytes stay until its reset
    } else if (d_ptr_ != nullptr) {
      const auto t0 = SteadyClock::now();
      cudaFree(d_ptr_);
      if (cap_ != nullptr) {
        cap_->refund(bytes());
        cap_->add_allocation_seconds(seconds_since(t0));
      }
    }
    d_ptr_ = nullptr;
    size_ = 0;
    cap_ = nullptr;
    arena_ = nullptr;
  }

  T* get() const { return d_ptr_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }

  void upload(std::span<const T> host, cudaStream_t stream, size_t offset = 0) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(d_ptr_ + offset, host.data(), host.size_bytes(),
                                    cudaMemcpyHostToDevice, stream));
  }
  void download(std::span<T> host, cudaStream_t stream, size_t offset = 0) const {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(host.data(), d_ptr_ + offset, host.size_bytes(),
                                    cudaMemcpyDeviceToHost, stream));
  }
  void zero(cudaStream_t stream, size_t offset = 0, size_t count = SIZE_MAX) {
    if (count == SIZE_MAX) count = size_ - offset;
    if (count == 0) return;
    CUZK_CUDA_CHECK(cudaMemsetAsync(d_ptr_ + offset, 0, count * sizeof(T), stream));
  }

 private:
  T* d_ptr_ = nullptr;
  size_t size_ = 0;
  DeviceMemoryCap* cap_ = nullptr;  // charged with bytes() while allocated
  DeviceArena* arena_ = nullptr;    // taken from it (then not charged, not freed)
  DeviceArena::End arena_end_ = DeviceArena::End::kBottom;  // the end it was taken from
};

// n elements of T in page-locked host memory (cudaHostAlloc): copies to and from the device run
// at the link's speed (55 GB/s on the H200's PCIe Gen5 against 8-13 GB/s pageable). Movable.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t n) {
    if (n == 0) return;
    void* p = nullptr;
    CUZK_CUDA_CHECK(cudaHostAlloc(&p, n * sizeof(T), cudaHostAllocDefault));
    p_ = static_cast<T*>(p);
    size_ = n;
  }
  ~PinnedBuffer() {
    if (p_ != nullptr) cudaFreeHost(p_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      if (p_ != nullptr) cudaFreeHost(p_);
      p_ = std::exchange(o.p_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  T* get() const { return p_; }
  size_t size() const { return size_; }
  std::span<T> span() const { return {p_, size_}; }

 private:
  T* p_ = nullptr;
  size_t size_ = 0;
};

// n bytes of host memory of our own, page-locked by cudaHostRegister (0.20 s per 4 GiB on the
// H200's host against 1.89 s for cudaHostAlloc; gpu-anchors.md): data kept for copies at the
// link's speed with no staging copy. Movable.
class RegisteredHostBuffer {
 public:
  RegisteredHostBuffer() = default;
  explicit RegisteredHostBuffer(size_t n) {
    if (n == 0) return;
    p_ = static_cast<uint8_t*>(std::malloc(n));
    if (p_ == nullptr) throw std::bad_alloc();
    const cudaError_t e = cudaHostRegister(p_, n, cudaHostRegisterDefault);
    if (e != cudaSuccess) {
      std::free(p_);
      p_ = nullptr;
      cudaGetLastError();  // not sticky: a later launch check must not see it
      CUZK_CUDA_CHECK(e);
    }
    size_ = n;
  }
  ~RegisteredHostBuffer() { reset(); }
  // (moves as PinnedBuffer's do; only the release differs: unregister, then free)
  RegisteredHostBuffer(const RegisteredHostBuffer&) = delete;
  RegisteredHostBuffer& operator=(const RegisteredHostBuffer&) = delete;
  RegisteredHostBuffer(RegisteredHostBuffer&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  RegisteredHostBuffer& operator=(RegisteredHostBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  uint8_t* get() const { return p_; }
  size_t size() const { return size_; }

 private:
  void reset() noexcept {
    if (p_ == nullptr) return;
    cudaHostUnregister(p_);
    std::free(p_);
    p_ = nullptr;
    size_ = 0;
  }
  uint8_t* p_ = nullptr;
  size_t size_ = 0;
};

// Host memory owned elsewhere, page-locked in place (cudaHostRegister, portable: every device
// sees it page-locked) from construction to destruction, so that copies from it run at the
// link's pinned rate with no staging copy. The owner keeps the memory alive until this is gone:
// a range freed while still registered would leave the driver copying from the old pages.
// Construction throws CudaError when the driver refuses (the error is not left sticky).
class HostPageLock {
 public:
  HostPageLock(const void* p, size_t n) {
    if (n == 0) return;
    const cudaError_t e = cudaHostRegister(const_cast<void*>(p), n, cudaHostRegisterPortable);
    if (e != cudaSuccess) {
      cudaGetLastError();
      CUZK_CUDA_CHECK(e);
    }
    p_ = p;
    size_ = n;
  }
  ~HostPageLock() {
    // (a failure here, nothing registered any more, must not surface at a later launch check)
    if (p_ != nullptr && cudaHostUnregister(const_cast<void*>(p_)) != cudaSuccess) {
      cudaGetLastError();
    }
  }
  HostPageLock(const HostPageLock&) = delete;
  HostPageLock& operator=(const HostPageLock&) = delete;
  size_t size() const { return size_; }

 private:
  const void* p_ = nullptr;
  size_t size_ = 0;
};

// Whether `p` lies in page-locked host memory (registered or allocated so): false for pageable
// or device memory, and when CUDA cannot tell.
inline bool is_page_locked(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

class Stream {
 public:
  Stream() { CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s_ != nullptr) cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  void sync() const { CUZK_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() { CUZK_CUDA_CHECK(cudaEventCreate(&e_)); }
  ~Event() {
    if (e_ != nullptr) cudaEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }
  void record(cudaStream_t s) { CUZK_CUDA_CHECK(cudaEventRecord(e_, s)); }
  void sync() const { CUZK_CUDA_CHECK(cudaEventSynchronize(e_)); }
  // Milliseconds from `start` to this event (both recorded and completed).
  float ms_since(const Event& start) const {
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace cuzk::gpu
