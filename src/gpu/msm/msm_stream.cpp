#include "gpu/msm/msm_stream.hpp"

#include <algorithm>
#include <cstring>
#include <future>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/msm/msm_chunks.hpp"

namespace cuzk::gpu {

void BaseStreamer::make_streams() {
  if (copy_ != nullptr) return;
  copy_ = std::make_unique<Stream>();
  for (int k = 0; k < 2; ++k) {
    copied_[k] = std::make_unique<Event>();
    consumed_[k] = std::make_unique<Event>();
  }
}

void BaseStreamer::reserve(size_t slot_bytes) {
  make_streams();
  if (d_slot_[0].size() < slot_bytes) prefetched_ = nullptr;  // made again: its copy is gone
  for (int k = 0; k < 2; ++k)
    d_slot_[k].reserve(slot_bytes);
  slot_bytes_ = std::min(d_slot_[0].size(), d_slot_[1].size());
}

void BaseStreamer::reserve_first(size_t slot_bytes) {
  make_streams();
  if (d_slot_[0].size() < slot_bytes) prefetched_ = nullptr;
  d_slot_[0].reserve(slot_bytes);
}

void BaseStreamer::reserve_host_slots() {
  for (int k = 0; k < 2; ++k) {
    if (h_slot_[k].size() >= slot_bytes_) continue;
    // An upload from the old slot may still be in flight (a call returns once its copies are
    // queued before the compute stream); the old one goes first: host memory for the new one.
    if (used_[k]) copied_[k]->sync();
    h_slot_[k] = PinnedBuffer<uint8_t>();
    h_slot_[k] = PinnedBuffer<uint8_t>(slot_bytes_);
  }
}

void BaseStreamer::release_device() {
  for (auto& d : d_slot_)
    d.release();
  slot_bytes_ = 0;
  prefetched_ = nullptr;
}

void BaseStreamer::release() {
  release_device();
  for (auto& h : h_slot_)
    h = PinnedBuffer<uint8_t>();
}

void BaseStreamer::host_copy(void* dst, const void* src, size_t bytes) const {
  if (pool_ == nullptr || bytes < (size_t{8} << 20)) {
    std::memcpy(dst, src, bytes);
    return;
  }
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  pool_->parallel_for(
      bytes, [&](size_t b, size_t e) { std::memcpy(d + b, s + b, e - b); }, size_t{4} << 20, 1);
}

void BaseStreamer::stream(size_t count, const std::function<HostRanges(size_t)>& ranges,
                          const std::function<void(size_t, const uint8_t*)>& consume,
                          cudaStream_t compute, bool pinned_source) {
  std::vector<size_t> sizes(count);
  for (size_t k = 0; k < count; ++k) {
    for (const auto& r : ranges(k))
      sizes[k] += r.size();
  }
  const auto stage = [&](size_t k, uint8_t* dst) {
    for (const auto& r : ranges(k)) {
      host_copy(dst, r.data(), r.size());
      dst += r.size();
    }
  };
  pipeline(sizes, pinned_source ? Stage() : Stage(stage), pinned_source ? &ranges : nullptr,
           consume, compute);
}

void BaseStreamer::stream_produced(size_t count, const std::function<size_t(size_t)>& size,
                                   const Stage& produce,
                                   const std::function<void(size_t, const uint8_t*)>& consume,
                                   cudaStream_t compute) {
  std::vector<size_t> sizes(count);
  for (size_t k = 0; k < count; ++k)
    sizes[k] = size(k);
  pipeline(sizes, produce, nullptr, consume, compute);
}

void BaseStreamer::pipeline(const std::vector<size_t>& sizes, const Stage& stage,
                            const std::function<HostRanges(size_t)>* direct,
                            const std::function<void(size_t, const uint8_t*)>& consume,
                            cudaStream_t compute) {
  const size_t count = sizes.size();
  if (count == 0) return;
  for (const size_t bytes : sizes) {
    if (copy_ == nullptr || bytes > slot_bytes_) {
      throw std::invalid_argument("host stream: a piece of " + std::to_string(bytes) +
                                  " bytes, the streamer's slots hold " +
                                  std::to_string(slot_bytes_));
    }
  }
  if (direct == nullptr) reserve_host_slots();
  const cudaStream_t copy = copy_->get();
  // Piece k into pinned slot k % 2, once that slot's previous upload is done (piece k - 2, or the
  // last piece of an earlier call through this slot).
  const auto fill = [&](size_t k) {
    if (direct != nullptr) return;  // copied from where it lies (upload)
    CUZK_CUDA_CHECK(cudaSetDevice(device_));
    if (k >= 2 || used_[k % 2]) copied_[k % 2]->sync();
    stage(k, h_slot_[k % 2].get());
  };
  // Piece 0 already in device slot 0 by prefetch_first (its copy queued, copied_[0] recorded
  // after it): not copied again. Any other piece, or a later call, copies as always.
  bool first_prefetched = false;
  if (direct != nullptr && prefetched_ != nullptr) {
    const HostRanges r = (*direct)(0);
    first_prefetched =
        r.size() == 1 && r[0].data() == prefetched_ && r[0].size() == prefetched_bytes_;
  }
  prefetched_ = nullptr;
  const auto upload = [&](size_t k) {
    if (k == 0 && first_prefetched) return;
    // The device slot's previous piece (k - 2, or an earlier call's) was consumed on `compute`
    // first: a consumer that only queued its kernels may still be reading it (the H200 run of
    // 2026-12-04: the row-block SpMV of B overwrote A's last block under its kernel).
    if (k >= 2 || used_[k % 2]) {
      CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy, consumed_[k % 2]->get(), 0));
    }
    if (direct != nullptr) {
      uint8_t* dst = d_slot_[k % 2].get();
      for (const auto& r : (*direct)(k)) {
        CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, r.data(), r.size(), cudaMemcpyHostToDevice, copy));
        dst += r.size();
      }
    } else {
      CUZK_CUDA_CHECK(cudaMemcpyAsync(d_slot_[k % 2].get(), h_slot_[k % 2].get(), sizes[k],
                                      cudaMemcpyHostToDevice, copy));
    }
    copied_[k % 2]->record(copy);
    uploaded_ += sizes[k];
  };
  fill(0);
  upload(0);
  std::future<void> next;
  if (count > 1) next = std::async(std::launch::async, fill, size_t{1});
  for (size_t k = 0; k < count; ++k) {
    if (k + 1 < count) {
      next.get();
      upload(k + 1);
      if (k + 2 < count) next = std::async(std::launch::async, fill, k + 2);
    }
    CUZK_CUDA_CHECK(cudaStreamWaitEvent(compute, copied_[k % 2]->get(), 0));
    consume(k, d_slot_[k % 2].get());
    consumed_[k % 2]->record(compute);
    used_[k % 2] = true;
  }
  // Every copy was waited for on `compute`; nothing is in flight on `copy` after the last.
}

template <class Curve>
void BaseStreamer::for_each_chunk(
    const ChunkedMsmInput<Curve>& in, size_t chunk, cudaStream_t compute,
    const std::function<void(const Affine<Curve>*, const MsmChunk&)>& visit) {
  using Point = Affine<Curve>;
  if (in.n == 0 || in.bases() == 0) return;
  const std::vector<MsmChunk> chunks = msm_chunks(in.n, chunk, in.density, in.bases());
  if (in.d_bases != nullptr) {
    for (const MsmChunk& c : chunks)
      visit(in.d_bases + c.b0, c);
    return;
  }
  const auto bytes = [&](size_t k) {
    const MsmChunk& c = chunks[k];
    return HostRanges{{reinterpret_cast<const uint8_t*>(in.host_bases.data() + c.b0),
                       (c.b1 - c.b0) * sizeof(Point)}};
  };
  stream(
      chunks.size(), bytes,
      [&](size_t k, const uint8_t* d) { visit(reinterpret_cast<const Point*>(d), chunks[k]); },
      compute, is_page_locked(in.host_bases.data()));
}

template <class Curve>
bool BaseStreamer::prefetch_first(const ChunkedMsmInput<Curve>& in, size_t chunk) {
  prefetched_ = nullptr;
  if (in.n == 0 || in.d_bases != nullptr || in.host_bases.empty() || copy_ == nullptr) return false;
  if (!is_page_locked(in.host_bases.data())) return false;
  const MsmChunk c = msm_chunks(in.n, chunk, in.density, in.bases()).front();
  const Affine<Curve>* const src = in.host_bases.data() + c.b0;
  const size_t bytes = (c.b1 - c.b0) * sizeof(Affine<Curve>);
  if (bytes == 0 || bytes > d_slot_[0].size()) return false;
  const cudaStream_t copy = copy_->get();
  // (as the pipeline's upload: the slot's previous piece consumed first)
  if (used_[0]) CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy, consumed_[0]->get(), 0));
  CUZK_CUDA_CHECK(cudaMemcpyAsync(d_slot_[0].get(), src, bytes, cudaMemcpyHostToDevice, copy));
  copied_[0]->record(copy);
  uploaded_ += bytes;
  prefetched_ = src;
  prefetched_bytes_ = bytes;
  return true;
}

template <class Curve>
Jacobian<Curve> BaseStreamer::msm(const ChunkedMsmInput<Curve>& in, size_t chunk, MsmWorkspace& ws,
                                  cudaStream_t compute, MsmStats* stats) {
  // One set of buckets for all chunks, at the window width of the whole count (MsmAccumulator).
  MsmAccumulator<Curve> acc(in.n, ws, compute);
  for_each_chunk<Curve>(in, chunk, compute, [&](const Affine<Curve>* d_bases, const MsmChunk& c) {
    const uint64_t* d_density = in.d_density != nullptr ? in.d_density + c.s0 / 64 : nullptr;
    acc.add(d_bases, in.d_scalars + c.s0, c.s1 - c.s0, d_density);
  });
  const Jacobian<Curve> sum = acc.sum();
  if (stats != nullptr) *stats = acc.stats();
  return sum;
}

template Jacobian<G1Curve> BaseStreamer::msm<G1Curve>(const ChunkedMsmInput<G1Curve>&, size_t,
                                                      MsmWorkspace&, cudaStream_t, MsmStats*);
template Jacobian<G2Curve> BaseStreamer::msm<G2Curve>(const ChunkedMsmInput<G2Curve>&, size_t,
                                                      MsmWorkspace&, cudaStream_t, MsmStats*);
template bool BaseStreamer::prefetch_first<G1Curve>(const ChunkedMsmInput<G1Curve>&, size_t);
template bool BaseStreamer::prefetch_first<G2Curve>(const ChunkedMsmInput<G2Curve>&, size_t);
template void BaseStreamer::for_each_chunk<G1Curve>(
    const ChunkedMsmInput<G1Curve>&, size_t, cudaStream_t,
    const std::function<void(const Affine<G1Curve>*, const MsmChunk&)>&);
template void BaseStreamer::for_each_chunk<G2Curve>(
    const ChunkedMsmInput<G2Curve>&, size_t, cudaStream_t,
    const std::function<void(const Affine<G2Curve>*, const MsmChunk&)>&);

}  // namespace cuzk::gpu
