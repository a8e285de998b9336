// BasesCache<Curve>: proving-key points kept resident on the device across MSM calls.
//
// Keyed by (host address, length, fingerprint): the fingerprint hashes 64 evenly spaced points,
// so a new key that the allocator placed at a freed key's address (same length) is still told
// apart. Upload is a plain copy of the host array (the device layout is the host layout). When an
// upload runs out of device memory, the other entries are dropped and the upload retried once.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "gpu/device/device_buffer.hpp"

namespace cuzk::gpu {

// FNV-1a over up to 64 evenly spaced elements of `bytes` split into `count` elements of `size`.
uint64_t sample_fingerprint(const void* data, size_t count, size_t size);

template <class Curve>
class BasesCache {
 public:
  // Device copy of `host` (uploaded on a miss; synchronises `stream` then).
  const Affine<Curve>* get(std::span<const Affine<Curve>> host, cudaStream_t stream) {
    const uint64_t fp = sample_fingerprint(host.data(), host.size(), sizeof(Affine<Curve>));
    for (Entry& e : entries_) {
      if (e.host == host.data() && e.count == host.size() && e.fingerprint == fp) {
        return e.d_points.get();
      }
    }
    Entry e{host.data(), host.size(), fp, {}};
    try {
      e.d_points.allocate(host.size());
    } catch (const CudaError& err) {
      if (!err.out_of_memory() || entries_.empty()) throw;
      entries_.clear();
      e.d_points.allocate(host.size());
    }
    e.d_points.upload(host, stream);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    entries_.push_back(std::move(e));
    return entries_.back().d_points.get();
  }
  void clear() { entries_.clear(); }
  size_t bytes() const {
    size_t b = 0;
    for (const Entry& e : entries_)
      b += e.d_points.bytes();
    return b;
  }

 private:
  struct Entry {
    const void* host;
    size_t count;
    uint64_t fingerprint;
    DeviceBuffer<Affine<Curve>> d_points;
  };
  std::vector<Entry> entries_;
};

}  // namespace cuzk::gpu
