// DeviceArena: one block of device memory a backend keeps across its proofs. DeviceBuffers a
// thread allocates inside a Scope take their bytes from it (bump allocation, 256-byte aligned)
// instead of cudaMalloc while it has room, and fall back to cudaMalloc (charged to the cap as
// always) when it has none. A capped proof frees and allocates ~10 GB each partition (the
// chain's b and c, then the H MSM's scratch and slots): memory allocated anew cost ~80 ms a
// partition even from a CUDA pool (session 24); from the arena the H200's 24 GiB PoRep ran its
// H MSM in 0.947 s a partition against 1.002 (perf-log 2026-12-07, session 25). Giving a buffer
// back does not free its bytes; reset() waits for the device, as cudaFree does, and makes the
// whole block free again. Buffers are taken from its bottom end upward, or (a Scope of End::kTop)
// from its top end downward: a buffer at the top outlives reset_bottom(), which frees the bottom
// alone (the H MSM's first slot of bases, copied during the chain while b and c lie below it).
// Not thread-safe: one backend uses it, under its lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace cuzk::gpu {

template <class T>
class DeviceBuffer;

class DeviceArena {
 public:
  enum class End { kBottom, kTop };

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
  // Buffers taken and not given back, at both ends or at one.
  size_t live() const { return live_[0] + live_[1]; }
  size_t live(End end) const { return live_[index(end)]; }

  // `bytes` of the block at `end` after what was taken there since its last reset, or null when
  // the block has no room between the two ends.
  void* take(size_t bytes, End end = End::kBottom) noexcept;
  void give_back(End end) noexcept { --live_[index(end)]; }
  // Waits for the device, then makes the whole block free again. std::logic_error while a
  // buffer taken from it is alive (its bytes would be handed out twice).
  void reset();
  // reset() for the bottom end alone: the top's buffers stay. std::logic_error while a buffer
  // taken from the bottom is alive.
  void reset_bottom();

  // The arena allocations on this thread take from (null: none), and the end they take from.
  static DeviceArena* current();
  static End current_end();

  class Scope {
   public:
    // null: none (an arena's own block is made so)
    explicit Scope(DeviceArena* arena, End end = End::kBottom);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    DeviceArena* previous_;
    End previous_end_;
  };

 private:
  static size_t index(End end) { return end == End::kTop ? 1 : 0; }
  void check_none_live(const char* what, size_t live) const;

  std::unique_ptr<DeviceBuffer<uint8_t>> block_;
  size_t bottom_ = 0;  // the bottom end's next free byte
  size_t top_ = 0;     // the top end's lowest byte taken (the block's size when none)
  size_t live_[2] = {0, 0};
};

}  // namespace cuzk::gpu
