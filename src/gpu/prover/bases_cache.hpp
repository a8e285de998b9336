// BasesCache<Curve>: proving-key points kept resident on the device across MSM calls.
//
// A run of host points is keyed by (host address, length, fingerprint): the fingerprint hashes 64
// evenly spaced points, so a new key that the allocator placed at a freed key's address (same
// length) is still told apart. Upload is a plain copy of the host array (the device layout is the
// host layout), whole (get) or by pieces (fill: the backend's warm steps, between which the engine
// may prove a partition of higher priority). A run read from a set's PointSource (a .params file:
// no host copy of the points) is keyed by the source's identity, section and range, and only
// fill() steps copy it: a proof reads it whole (whole()). Each entry belongs to the parameter set
// current when it was made (use_set): a device may keep several sets across circuit switches, and
// the backend drops the others when a plan needs their room. When an allocation runs out of device
// memory, the other sets' entries are dropped and the allocation retried, then every entry and once
// more.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/affine.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "groth16/point_source.hpp"

namespace cuzk::gpu {

// FNV-1a over up to 64 evenly spaced elements of `bytes` split into `count` elements of `size`.
uint64_t sample_fingerprint(const void* data, size_t count, size_t size);

// Points [first, first + count) of one section of a set whose points a PointSource reads.
struct SourceRun {
  const groth16::PointSource* source = nullptr;
  groth16::Section section = groth16::Section::kH;
  uint64_t first = 0, count = 0;
};
// What keys a source run's entry: FNV-1a over the source's identity, the section and the range.
uint64_t source_run_key(const SourceRun& run);

// A run of one set's points as a cache entry holds it: host points, or a source run (a set read
// from its source: `host` empty).
template <class Curve>
struct PointRun {
  std::span<const Affine<Curve>> host;
  SourceRun source;
  bool sourced() const { return source.source != nullptr; }
  size_t size() const { return sourced() ? source.count : host.size(); }
};
// Points [first, first + count) of `section` of `params` (of Curve's points).
template <class Curve>
PointRun<Curve> point_run(const groth16::Parameters& params, groth16::Section section,
                          uint64_t first, uint64_t count) {
  if (params.source != nullptr) return {{}, {params.source.get(), section, first, count}};
  return {groth16::host_points<Affine<Curve>>(params, section).subspan(first, count), {}};
}

template <class Curve>
class BasesCache {
 public:
  // Device copy of `host` (uploaded, or its rest after fill() steps, on a miss; synchronises
  // `stream` then).
  const Affine<Curve>* get(std::span<const Affine<Curve>> host, cudaStream_t stream) {
    Entry& e = entry(host);
    if (e.filled < e.count) {
      e.d_points.upload(host.subspan(e.filled), stream, e.filled);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
      e.filled = e.count;
    }
    return e.d_points.get();
  }

  // One step of a copy made by pieces: allocates `host`'s device copy (on a miss) and hands
  // copy(device destination, offset, n) up to `max_points` more of it, in order: points
  // [offset, offset + n) of the run go there. Returns whether the copy is whole (then nothing is
  // handed over). get() completes a partial copy.
  template <class Copy>
  bool fill(std::span<const Affine<Curve>> host, size_t max_points, Copy&& copy) {
    return fill_entry(entry(host), max_points, copy);
  }

  // The device copy of `run`, which fill() steps made whole; std::logic_error otherwise (a
  // proof never reads a part, and only the warm steps read the source).
  const Affine<Curve>* whole(const SourceRun& run) {
    Entry& e = entry(nullptr, run.count, source_run_key(run));
    if (e.filled < e.count) {
      throw std::logic_error("bases cache: a run of " + std::to_string(run.count) + " points of " +
                             groth16::section_name(run.section) + " from " + run.source->name() +
                             " is read before its copy is whole");
    }
    return e.d_points.get();
  }

  // fill() for a source run (the only way its copy is made).
  template <class Read>
  bool fill(const SourceRun& run, size_t max_points, Read&& read) {
    return fill_entry(entry(nullptr, run.count, source_run_key(run)), max_points, read);
  }

  // Entries made from now on belong to `set` (0: none, the single-MSM entry points).
  void use_set(uint64_t set) { set_ = set; }
  // Whether `set` has entries here and every one of them is whole.
  bool holds(uint64_t set) const {
    bool any = false;
    for (const Entry& e : entries_) {
      if (e.set != set) continue;
      if (e.filled < e.count) return false;
      any = true;
    }
    return any;
  }
  void drop_except(uint64_t set) {
    std::erase_if(entries_, [&](const Entry& e) { return e.set != set; });
  }
  void clear() { entries_.clear(); }
  size_t bytes() const {
    return bytes_if([](const Entry&) { return true; });
  }
  size_t bytes_except(uint64_t set) const {
    return bytes_if([&](const Entry& e) { return e.set != set; });
  }

 private:
  struct Entry {
    const void* host;
    size_t count;
    uint64_t fingerprint;
    uint64_t set;
    DeviceBuffer<Affine<Curve>> d_points;
    size_t filled = 0;  // points copied so far (fill() steps, or all)
  };

  template <class Copy>
  static bool fill_entry(Entry& e, size_t max_points, Copy& copy) {
    if (e.filled == e.count) return true;
    const size_t n = std::min(std::max<size_t>(max_points, 1), e.count - e.filled);
    copy(e.d_points.get() + e.filled, e.filled, n);
    e.filled += n;
    return false;
  }

  template <class Pred>
  size_t bytes_if(Pred&& pred) const {
    size_t b = 0;
    for (const Entry& e : entries_)
      if (pred(e)) b += e.d_points.bytes();
    return b;
  }

  // The entry of `host`, allocated (nothing copied) on a miss.
  Entry& entry(std::span<const Affine<Curve>> host) {
    return entry(host.data(), host.size(),
                 sample_fingerprint(host.data(), host.size(), sizeof(Affine<Curve>)));
  }
  // The entry of (host, count, fingerprint); host null: a source run's.
  Entry& entry(const void* host, size_t count, uint64_t fp) {
    for (Entry& e : entries_) {
      if (e.host == host && e.count == count && e.fingerprint == fp) return e;
    }
    Entry e{host, count, fp, set_, {}};
    // The cache outlives a front's arena (device_arena.hpp), which is reset each partition: its
    // points are never taken from one (the H200 run of 2026-12-07 caught a resident h that was).
    const DeviceArena::Scope no_arena(nullptr);
    try {
      e.d_points.allocate(count);
    } catch (const CudaError& err) {
      if (!err.out_of_memory() || entries_.empty()) throw;
      const size_t before = entries_.size();
      drop_except(set_);
      if (entries_.size() == before) entries_.clear();
      try {
        e.d_points.allocate(count);
      } catch (const CudaError& again) {
        if (!again.out_of_memory() || entries_.empty()) throw;
        entries_.clear();
        e.d_points.allocate(count);
      }
    }
    entries_.push_back(std::move(e));
    return entries_.back();
  }

  std::vector<Entry> entries_;
  uint64_t set_ = 0;
};

}  // namespace cuzk::gpu
