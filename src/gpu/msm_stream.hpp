// The chunked split MSM of a capped device (memory_plan.hpp): scalars in device memory, taken
// chunk_scalars at a time (a multiple of 64, so that a density bitmap chunk starts on a word);
// each chunk is the existing msm_split over the chunk's scalars and the bases they use, and the
// chunks' sums are added. The bases are either resident (a device pointer: only the MSM scratch
// is bounded) or streamed from host memory through two pinned host slots and two device slots:
//   host copy of chunk k+2 (pool threads)  |  copy of chunk k+1 to the device (copy stream)  |
//   the MSM of chunk k (compute stream, waiting on chunk k's copy event).
// The pinned slots are the backend's own (cudaHostAlloc'd once): the proving key's host vectors
// are never page-locked, so an evicted parameter set leaves nothing registered behind (pinning
// 51 GB would also cost ~2.4 s per registration; gpu-anchors: 21 GB/s).
//
// The sum equals msm_split over the whole array as a group element (tests/gpu/msm_stream_test).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

// The bases and density of one MSM: host_bases always (streamed from them, and their count);
// d_bases non-null when they are resident on the device. density: null, or the host bitmap whose
// device copy is d_density (packed 64-bit words; scalar i uses base rank(i)).
template <class Curve>
struct ChunkedMsmInput {
  std::span<const Affine<Curve>> host_bases;
  const Affine<Curve>* d_bases = nullptr;
  const Fr* d_scalars = nullptr;
  size_t n = 0;
  std::span<const uint64_t> density;  // empty: no density
  const uint64_t* d_density = nullptr;
};

class BaseStreamer {
 public:
  // device: the ordinal (the host-copy threads make it current for their event waits); pool:
  // threads for the host copies (null: the copying thread alone).
  BaseStreamer(int device, ThreadPool* pool) : device_(device), pool_(pool) {}

  // Two device and two pinned slots of `slot_bytes` each (device ones charged to the current
  // DeviceMemoryCap). Kept across calls until release().
  void reserve(size_t slot_bytes);
  // Frees the device slots (the pinned ones stay: cudaHostAlloc costs ~0.5 s per GiB).
  void release_device();
  void release();
  size_t slot_bytes() const { return slot_bytes_; }

  // sum_i scalars[i] * bases[rank(i) or i] in chunks of `chunk` scalars (a multiple of 64).
  // std::invalid_argument for a chunk that is not, or slots too small for a streamed chunk.
  template <class Curve>
  Jacobian<Curve> msm(const ChunkedMsmInput<Curve>& in, size_t chunk, MsmWorkspace& ws,
                      cudaStream_t compute, MsmStats* stats);

 private:
  // Copies `bytes` from src to dst (pinned) on the pool.
  void host_copy(void* dst, const void* src, size_t bytes) const;

  int device_;
  ThreadPool* pool_;
  size_t slot_bytes_ = 0;
  DeviceBuffer<uint8_t> d_slot_[2];
  PinnedBuffer<uint8_t> h_slot_[2];
  std::unique_ptr<Stream> copy_;
  std::unique_ptr<Event> copied_[2];
};

}  // namespace cuzk::gpu
