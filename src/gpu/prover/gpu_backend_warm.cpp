// GpuBackend's warm steps: the set's runs of bases copied to the device by bounded pieces
// through the pinned staging slots (host copies on the pool, or points read from the set's
// PointSource and decoded into the slot), between which the engine proves a partition of
// higher priority; and a source set read whole before a proof (read_source_locked).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpu/device/cuda_check.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "gpu/prover/resident_runs.hpp"

namespace cuzk::gpu {

namespace {

// Pinned staging slots of a warm step's copies (a few of them per step).
constexpr size_t kWarmSlotBytes = size_t{256} << 20;

}  // namespace

bool GpuBackend::warm_locked(const groth16::Parameters& params, const groth16::PartitionInput& in,
                             uint64_t budget) {
  const ResidentRuns r = resident_runs(params, in);
  // The slots: 256 MiB each uncapped; under a cap, what the set's bases not yet on the device
  // leave of it (a plan that streams nothing has no ring; a tiny test cap has a few MB).
  size_t slot = kWarmSlotBytes;
  if (options_.memory_limit != 0) {
    const uint64_t set = set_of(params);
    const uint64_t held = (g1_bases_.bytes() - g1_bases_.bytes_except(set)) +
                          (g2_bases_.bytes() - g2_bases_.bytes_except(set));
    const uint64_t whole = groth16::points_bytes(groth16::section_counts(params));
    const uint64_t slots = std::min<uint64_t>(cap_.in_use(), 2 * streamer_.slot_bytes());
    const uint64_t used = cap_.in_use() - slots + (whole > held ? whole - held : 0);
    const uint64_t room = options_.memory_limit > used ? options_.memory_limit - used : 0;
    slot = std::max<size_t>(std::min<uint64_t>(kWarmSlotBytes, room / 2 / 4096 * 4096),
                            sizeof(G2Affine));
  }
  warm_slot_bytes_ = slot;
  bool copied = false;
  for (const auto& run : {r.h, r.l, r.a_inputs, r.a_aux, r.b1_inputs, r.b1_aux})
    copied |= warm_run<G1Curve>(g1_bases_, run, budget);
  for (const auto& run : {r.b2_inputs, r.b2_aux})
    copied |= warm_run<G2Curve>(g2_bases_, run, budget);
  return copied;
}

template <class Curve>
const Affine<Curve>* GpuBackend::device_copy(BasesCache<Curve>& cache, const PointRun<Curve>& run) {
  if (!run.sourced()) return cache.get(run.host, stream_->get());
  return cache.whole(run.source);  // read_source_locked made it at the proof's start
}

void GpuBackend::read_source_locked(const groth16::Parameters& params,
                                    const groth16::PartitionInput& in) {
  if (params.source != nullptr) warm_locked(params, in, UINT64_MAX);
}

// The planned and batch paths' instances (gpu_backend_planned.cpp, gpu_backend_batch.cpp).
template const G1Affine* GpuBackend::device_copy<G1Curve>(BasesCache<G1Curve>&,
                                                          const PointRun<G1Curve>&);
template const G2Affine* GpuBackend::device_copy<G2Curve>(BasesCache<G2Curve>&,
                                                          const PointRun<G2Curve>&);

template <class Curve>
bool GpuBackend::warm_run(BasesCache<Curve>& cache, const PointRun<Curve>& run, uint64_t& budget) {
  using Point = Affine<Curve>;
  if (run.size() == 0) return false;
  bool copied = false;
  while (budget >= sizeof(Point)) {
    const auto copy = [&](Point* dst, size_t offset, size_t n) {
      // Through the pinned slots: host copies on the pool (8.4 GB/s from pageable memory
      // against 55 GB/s pinned on the H200, gpu-anchors: ~5.6 s against ~1 s for PoRep's
      // 47 GB), or points decoded from the source into the slot on the pool.
      if (streamer_.slot_bytes() < warm_slot_bytes_) streamer_.reserve(warm_slot_bytes_);
      const size_t per = streamer_.slot_bytes() / sizeof(Point);
      const size_t pieces = (n + per - 1) / per;
      const auto points = [&](size_t k) { return std::min(per, n - k * per); };
      const cudaStream_t s = stream_->get();
      const auto consume = [&](size_t k, const uint8_t* d) {
        CUZK_CUDA_CHECK(cudaMemcpyAsync(dst + k * per, d, points(k) * sizeof(Point),
                                        cudaMemcpyDeviceToDevice, s));
      };
      if (run.sourced()) {
        const SourceRun& from = run.source;
        streamer_.stream_produced(
            pieces, [&](size_t k) { return points(k) * sizeof(Point); },
            [&](size_t k, uint8_t* slot) {
              const std::span<Point> out(reinterpret_cast<Point*>(slot), points(k));
              const uint64_t first = from.first + offset + k * per;
              if constexpr (std::is_same_v<Curve, G1Curve>) {
                from.source->read_g1(from.section, first, out, options_.pool);
              } else {
                from.source->read_g2(from.section, first, out, options_.pool);
              }
            },
            consume, s);
      } else {
        streamer_.stream(
            pieces,
            [&](size_t k) {
              const std::span<const Point> piece = run.host.subspan(offset + k * per, points(k));
              return BaseStreamer::HostRanges{
                  {reinterpret_cast<const uint8_t*>(piece.data()), piece.size_bytes()}};
            },
            consume, s);
      }
      CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
      budget -= n * sizeof(Point);
    };
    const size_t most = budget / sizeof(Point);
    const bool whole =
        run.sourced() ? cache.fill(run.source, most, copy) : cache.fill(run.host, most, copy);
    if (whole) break;
    copied = true;
  }
  return copied;
}

}  // namespace cuzk::gpu
