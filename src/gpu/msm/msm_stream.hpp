// The chunked split MSM of a capped device (memory_plan.hpp): scalars in device memory, taken
// chunk_scalars at a time (a multiple of 64, so that a density bitmap chunk starts on a word);
// each chunk's scalars go into an MsmAccumulator (msm.hpp) with the bases they use: one set of
// buckets, of the whole count's window width, kept across the chunks and reduced once. The
// bases are either resident (a device pointer: only the MSM scratch
// is bounded) or streamed from host memory through two pinned host slots and two device slots:
//   host copy of piece k+2 (pool threads)  |  copy of piece k+1 to the device (copy stream)  |
//   piece k's work (compute stream, waiting on piece k's copy event).
// The same staging carries any host data a capped device reads once per use (stream(): the
// recorded matrices' row blocks), and for_each_chunk() hands each chunk's bases to a caller that
// sums them for several partitions (a batch's aux MSMs) before the next chunk's copy is used.
// The pinned slots are the backend's own (cudaHostAlloc'd once). Bases that already lie in
// page-locked memory (the engine locks a streamed parameter set in place, once per load:
// ProverBackend::lock_streamed_points) skip the slots' host copy and go to the device slots
// directly (H100, 2026-12-06: 24 GiB 19.60 -> 19.15 s/proof, the H MSM 1.097 -> 1.071 s a
// partition; docs/perf-log.md).
//
// The sum equals msm_split over the whole array as a group element (tests/gpu/msm_stream_test).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ff/fr.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/msm/msm.hpp"
#include "gpu/msm/msm_chunks.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::gpu {

// The bases and density of one MSM: host_bases (streamed from them, and their count); d_bases
// non-null when they are resident on the device, with resident_count their count when there are
// no host bases (a set read from its source). density: null, or the host bitmap whose device
// copy is d_density (packed 64-bit words; scalar i uses base rank(i)).
template <class Curve>
struct ChunkedMsmInput {
  std::span<const Affine<Curve>> host_bases;
  const Affine<Curve>* d_bases = nullptr;
  size_t resident_count = 0;
  size_t bases() const { return host_bases.empty() ? resident_count : host_bases.size(); }
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

  // Two device slots of `slot_bytes` each (charged to the current DeviceMemoryCap), kept across
  // calls until release(). The two pinned host slots are made at the first call that stages a
  // piece (not one whose source is page-locked: the engine locks a capped device's streamed
  // points and the backend pins its matrices, so in steady state nothing is staged, and the
  // slots, up to 2 x 3.2 GiB for 2^24 G2 points at ~0.5 s per GiB of cudaHostAlloc, are never
  // made).
  void reserve(size_t slot_bytes);
  // Device slot 0 alone of `slot_bytes` at least (made in the caller's arena scope), for a
  // prefetch_first before the other slot is made.
  void reserve_first(size_t slot_bytes);
  // The first chunk of `in`'s streamed bases copied into device slot 0 now, on the copy stream,
  // for the next msm() or for_each_chunk() over the same bases and chunk, which then does not
  // copy it again: the H MSM's first chunk during the H chain (where the copy had been waited
  // for at the H MSM's start; H100, 24 GiB, 2026-12-07: msm_h -40 ms a partition, the chain
  // +29 ms beside the copy). Only for page-locked bases (pageable ones would stage through the
  // host slots) that fit slot 0; whether it copied.
  template <class Curve>
  bool prefetch_first(const ChunkedMsmInput<Curve>& in, size_t chunk);
  // Frees the device slots (the pinned ones stay: cudaHostAlloc costs ~0.5 s per GiB).
  void release_device();
  void release();
  size_t slot_bytes() const { return slot_bytes_; }
  // Host bytes of the pinned slots (kept across release_device(); 0 until a piece is staged).
  size_t pinned_bytes() const { return h_slot_[0].size() + h_slot_[1].size(); }

  // sum_i scalars[i] * bases[rank(i) or i] in chunks of `chunk` scalars (a multiple of 64).
  // std::invalid_argument for a chunk that is not, or slots too small for a streamed chunk.
  template <class Curve>
  Jacobian<Curve> msm(const ChunkedMsmInput<Curve>& in, size_t chunk, MsmWorkspace& ws,
                      cudaStream_t compute, MsmStats* stats);

  // The chunks of `in` (its scalars are not read): visit(device bases of the chunk, the chunk)
  // on the calling thread, in order, with the chunk's bases on the device (resident, or copied
  // into a slot and waited for on `compute`). The visit must have finished reading the bases
  // when it returns, or have queued its reads on `compute` (then `compute` orders them before the
  // slot's next copy).
  template <class Curve>
  void for_each_chunk(const ChunkedMsmInput<Curve>& in, size_t chunk, cudaStream_t compute,
                      const std::function<void(const Affine<Curve>*, const MsmChunk&)>& visit);

  // Pieces of host memory through the slots: piece k is the concatenation of ranges(k) (at most
  // slot_bytes() in all); consume(k, its device copy) runs on the calling thread once the copy
  // is queued before `compute` (work it queues on `compute` is ordered before the slot's reuse).
  // With `pinned_source` the ranges are page-locked (RegisteredHostBuffer, PinnedBuffer) and are
  // copied to the device slot directly, with no staging copy through the pinned host slots.
  using HostRanges = std::vector<std::span<const uint8_t>>;
  void stream(size_t count, const std::function<HostRanges(size_t)>& ranges,
              const std::function<void(size_t, const uint8_t*)>& consume, cudaStream_t compute,
              bool pinned_source = false);

  // stream() for pieces made in the pinned host slots: produce(k, slot) writes piece k's size(k)
  // bytes (at most slot_bytes()) there, on a thread of its own while the piece before is copied
  // (points decoded from a parameter file: a device filled with no host copy of the points).
  using Stage = std::function<void(size_t, uint8_t*)>;
  void stream_produced(size_t count, const std::function<size_t(size_t)>& size,
                       const Stage& produce,
                       const std::function<void(size_t, const uint8_t*)>& consume,
                       cudaStream_t compute);

  // Bytes copied to the device through the slots since construction.
  uint64_t uploaded_bytes() const { return uploaded_; }

 private:
  // The copy stream and the slots' events, once.
  void make_streams();
  // The pinned host slots at slot_bytes_ each (made or grown here, on the calling thread).
  void reserve_host_slots();
  // The two-slot pipeline of stream() and stream_produced(): piece k (sizes[k] bytes) staged
  // into a pinned slot by stage(k, slot), or, with `direct`, copied from the page-locked ranges
  // direct(k) with no staging.
  void pipeline(const std::vector<size_t>& sizes, const Stage& stage,
                const std::function<HostRanges(size_t)>* direct,
                const std::function<void(size_t, const uint8_t*)>& consume, cudaStream_t compute);
  // Copies `bytes` from src to dst (pinned) on the pool.
  void host_copy(void* dst, const void* src, size_t bytes) const;

  int device_;
  ThreadPool* pool_;
  size_t slot_bytes_ = 0;
  uint64_t uploaded_ = 0;
  DeviceBuffer<uint8_t> d_slot_[2];
  PinnedBuffer<uint8_t> h_slot_[2];
  std::unique_ptr<Stream> copy_;
  std::unique_ptr<Event> copied_[2], consumed_[2];
  bool used_[2] = {false, false};  // slot k has copied_ and consumed_ events recorded
  // The host bytes prefetch_first copied into device slot 0 (null: none since), and how many.
  const void* prefetched_ = nullptr;
  size_t prefetched_bytes_ = 0;
};

}  // namespace cuzk::gpu
