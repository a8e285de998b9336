// DeviceArena: one block of device memory a backend keeps across its proofs. DeviceBuffers a
// thread allocates inside a Scope take their bytes from it (bump allocation, 256-byte aligned)
// instead of cudaMalloc while it has room, and fall back to cudaMalloc (charged to the cap as
// always) when it has none. A capped proof frees and allocates ~10 GB each partition (the
// chain's b and c, then the H MSM's scratch and slots): memory allocated anew cost ~80 ms a
// partition even from a CUDA pool (session 24); from the arena the H200's 24 GiB PoRep ran its
// H MSM in 0.947 s a partition against 1.002 (perf-log 2026-12-07, session 25). Giving a buffer
// back does not free its bytes; reset() waits for the device, as cudaFree does, and makes the
// whole block free again. Not thread-safe: one backend uses it, under its lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace cuzk::gpu {

template <class T>
class DeviceBuffer;

class DeviceArena {
 public:
  DeviceArena();
  ~DeviceArena();
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  // A block of `bytes` at least (made again when smaller, charged to the thread's
  // DeviceMemoryCap). std::logic_error while a buffer taken from it is alive.
  void reserve(size_t bytes);
  // Frees the block. std::logic_error while a buffer taken from it is alive.
  void release();
  size_t bytes() const;
  // Buffers taken and not given back.
  size_t live() const { return live_.load(); }

  // `bytes` of the block after what was taken since the last reset, or null when it has no room.
  void* take(size_t bytes) noexcept;
  void give_back() noexcept { live_.fetch_sub(1); }
  // Waits for the device, then makes the whole block free again. std::logic_error while a
  // buffer taken from it is alive (its bytes would be handed out twice).
  void reset();

  // The arena allocations on this thread take from (null: none).
  static DeviceArena* current();

  class Scope {
   public:
    explicit Scope(DeviceArena* arena);  // null: none (an arena's own block is made so)
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    DeviceArena* previous_;
  };

 private:
  void check_none_live(const char* what) const;

  std::unique_ptr<DeviceBuffer<uint8_t>> block_;
  size_t offset_ = 0;
  std::atomic<size_t> live_{0};
};

}  // namespace cuzk::gpu
