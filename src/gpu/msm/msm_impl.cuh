// The device halves of the MSM (declared in msm_device.hpp); included by msm_g1.cu and msm_g2.cu,
// which instantiate them for one curve each.
#pragma once

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/grid.hpp"
#include "gpu/msm/batch_add.cuh"
#include "gpu/msm/msm_device.hpp"
#include "gpu/msm/msm_point_kernels.cuh"

namespace cuzk::gpu::msm_detail {

constexpr unsigned kThreads = 256;
constexpr uint32_t kSegmentLen = 128;  // buckets per reduction segment
// Blocks of kPointThreads per SM that the accumulation kernel's register use must allow. G1: 4
// (128 registers, 16 warps per SM); measured on the H200 (2026-11-30, earlier product code):
// tighter caps spill and were slower (2^26 accumulate 759 ms at 4, 845 at 5, 1022 at 6), and
// uncapped ptxas took 154 registers (12 warps) and was 10% slower. G2: uncapped (a cap of 3
// spilled and was 3% slower).
template <class CurveD>
constexpr int kAccumulateMinBlocks = std::is_same_v<CurveD, G1CurveD> ? 4 : 1;

template <class T>
T* typed(DeviceBuffer<uint8_t>& buf, size_t n) {
  buf.reserve(n * sizeof(T));
  return reinterpret_cast<T*>(buf.get());
}

// Adds `segments` runs of len points (len a power of two, runs `stride` apart) into their first
// element by halving.
template <class CurveD>
void halve_all(Xyzz<CurveD>* d_p, size_t stride, size_t len, size_t segments, cudaStream_t s) {
  for (size_t h = len / 2; h >= 1; h /= 2) {
    halve_kernel<CurveD>
        <<<grid_for(segments * h, kPointThreads), kPointThreads, 0, s>>>(d_p, stride, h, segments);
    CUZK_CUDA_CHECK_LAUNCH();
  }
}

template <class Curve>
Xyzz<Curve> to_host(const Xyzz<typename DeviceCurveOf<Curve>::type>& p) {
  Xyzz<Curve> h;
  static_assert(sizeof(h) == sizeof(p));
  std::memcpy(static_cast<void*>(&h), &p, sizeof(h));
  return h;
}

template <class Curve>
BucketShape accumulate_buckets(const Affine<Curve>* d_bases_h, const Fr* d_scalars_h,
                               const uint32_t* d_index, size_t n, unsigned c, TableShape table,
                               bool add, MsmWorkspace& ws, cudaStream_t s, MsmStats* stats) {
  using CurveD = typename DeviceCurveOf<Curve>::type;
  using XyzzD = Xyzz<CurveD>;
  const auto* d_bases = reinterpret_cast<const Affine<CurveD>*>(d_bases_h);
  Event e_start, e_sorted, e_accumulated;
  if (stats != nullptr) e_start.record(s);

  // 1-3. digits, counting sort into buckets, tasks (msm_digits.cu).
  const BucketPlan plan = sort_into_buckets(d_scalars_h, d_index, n, c, table, ws, s);
  const BucketShape shape{plan.sets, plan.buckets_per_set};
  const size_t m = shape.buckets();
  const uint32_t num_tasks = plan.num_tasks;
  if (stats != nullptr) e_sorted.record(s);

  XyzzD* d_partials = typed<XyzzD>(ws.partials, std::max<uint32_t>(num_tasks, 1));
  // (the same m for every chunk of a chunked MSM: the buckets are not reallocated under it)
  if (add && ws.buckets.size() < m * sizeof(XyzzD))
    throw std::logic_error("gpu msm: buckets to add to that were never written");
  XyzzD* d_buckets = typed<XyzzD>(ws.buckets, m);
  if (num_tasks != 0) {
    accumulate_kernel<CurveD, kAccumulateMinBlocks<CurveD>>
        <<<grid_for(num_tasks, kPointThreads), kPointThreads, 0, s>>>(
            d_bases, ws.entries.get(), ws.offsets.get(), ws.counts.get(), ws.task_offsets.get(),
            ws.task_counts.get(), m, num_tasks, plan.task_len, plan.task_order, plan.task_bucket,
            add, d_partials, d_buckets);
    CUZK_CUDA_CHECK_LAUNCH();
  }
  // Buckets of many tasks (repeated scalars) reduce by a tree, not one thread. Full-width scalars
  // at c = 20 give the top window (15 bits) ~2^15 buckets of ~10 tasks each: a loop of 10 full
  // additions for those few threads, where the tree's rounds ran over every task (4 launches,
  // 4.6 ms a 2^24 chunk, ncu on the H100, 2026-12-07).
  constexpr uint32_t kLoopTasks = 32;
  const bool tree = plan.max_tasks > kLoopTasks;
  if (tree) {
    for (uint32_t h = 1; h < plan.max_tasks; h *= 2) {
      task_tree_kernel<CurveD><<<grid_for(num_tasks, kPointThreads), kPointThreads, 0, s>>>(
          d_partials, ws.task_offsets.get(), ws.task_counts.get(), plan.task_bucket, m, num_tasks,
          h);
      CUZK_CUDA_CHECK_LAUNCH();
    }
  }
  bucket_sum_kernel<CurveD><<<grid_for(m, kPointThreads), kPointThreads, 0, s>>>(
      d_partials, ws.task_offsets.get(), ws.task_counts.get(), m, tree ? 1u : kLoopTasks, add,
      d_buckets);
  CUZK_CUDA_CHECK_LAUNCH();
  if (stats != nullptr) {
    e_accumulated.record(s);
    e_accumulated.sync();
    stats->max_tasks = std::max(stats->max_tasks, plan.max_tasks);
    stats->radix_sorted = plan.radix_sorted;
    stats->sort_ms += e_sorted.ms_since(e_start);
    stats->accumulate_ms += e_accumulated.ms_since(e_sorted);
  }
  return shape;
}

template <class Curve>
std::vector<Xyzz<Curve>> reduce_buckets(BucketShape shape, MsmWorkspace& ws, cudaStream_t s,
                                        MsmStats* stats) {
  using CurveD = typename DeviceCurveOf<Curve>::type;
  using XyzzD = Xyzz<CurveD>;
  const unsigned windows = shape.sets;  // the reduction's windows: one per bucket set
  const uint32_t B = shape.buckets_per_set;
  if (ws.buckets.size() < shape.buckets() * sizeof(XyzzD))
    throw std::logic_error("gpu msm: reducing buckets that were never written");
  const auto* d_buckets = reinterpret_cast<const XyzzD*>(ws.buckets.get());
  Event e_start, e_done;
  if (stats != nullptr) e_start.record(s);
  // 4. per-window weighted sums: segments, then a halving tree over each window's segments.
  // Segments short enough for ~2^15 threads in all (small MSMs), at most 128 buckets long.
  uint32_t len = kSegmentLen;
  while (len > 4 && size_t{windows} * B / len < (size_t{1} << 15))
    len /= 2;
  len = std::min(len, B);
  const uint32_t segs = B / len;
  XyzzD* d_segments = typed<XyzzD>(ws.segments, size_t{windows} * segs);
  segment_reduce_kernel<CurveD>
      <<<grid_for(size_t{windows} * segs, kPointThreads), kPointThreads, 0, s>>>(
          d_buckets, windows, B, len, d_segments);
  CUZK_CUDA_CHECK_LAUNCH();
  halve_all<CurveD>(d_segments, segs, segs, windows, s);

  std::vector<XyzzD> sums(windows);
  CUZK_CUDA_CHECK(cudaMemcpy2DAsync(sums.data(), sizeof(XyzzD), d_segments, segs * sizeof(XyzzD),
                                    sizeof(XyzzD), windows, cudaMemcpyDeviceToHost, s));
  if (stats != nullptr) e_done.record(s);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  if (stats != nullptr) stats->reduce_ms += e_done.ms_since(e_start);
  std::vector<Xyzz<Curve>> out(windows);
  for (unsigned w = 0; w < windows; ++w)
    out[w] = to_host<Curve>(sums[w]);
  return out;
}

template <class Curve>
std::vector<Xyzz<Curve>> pippenger_window_sums(const Affine<Curve>* d_bases, const Fr* d_scalars,
                                               const uint32_t* d_index, size_t n, unsigned c,
                                               TableShape table, MsmWorkspace& ws, cudaStream_t s,
                                               MsmStats* stats) {
  const BucketShape shape =
      accumulate_buckets<Curve>(d_bases, d_scalars, d_index, n, c, table, false, ws, s, stats);
  return reduce_buckets<Curve>(shape, ws, s, stats);
}

template <class Curve>
void precompute_table(const Affine<Curve>* d_bases, size_t n, unsigned c, unsigned copies,
                      Affine<Curve>* d_table, cudaStream_t s) {
  using CurveD = typename DeviceCurveOf<Curve>::type;
  precompute_kernel<CurveD><<<grid_for(n, kPointThreads), kPointThreads, 0, s>>>(
      reinterpret_cast<const Affine<CurveD>*>(d_bases), n, c, copies,
      reinterpret_cast<Affine<CurveD>*>(d_table));
  CUZK_CUDA_CHECK_LAUNCH();
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
}

template <class Curve>
Xyzz<Curve> batch_add_sum(const Affine<Curve>* d_bases_h, const uint32_t* d_bits, size_t n,
                          MsmWorkspace& ws, cudaStream_t s) {
  using CurveD = typename DeviceCurveOf<Curve>::type;
  using XyzzD = Xyzz<CurveD>;
  const size_t words = (n + 31) / 32;
  // About 256 points (128 additions at half density) per thread before the tree.
  const uint32_t wpt = words >= (size_t{1} << 16) ? 8 : 1;
  const size_t threads = (words + wpt - 1) / wpt;
  size_t outputs = 1;
  while (outputs < threads)
    outputs *= 2;
  XyzzD* d_out = typed<XyzzD>(ws.partials, outputs);
  batch_add_kernel<CurveD><<<grid_for(outputs, kPointThreads), kPointThreads, 0, s>>>(
      reinterpret_cast<const Affine<CurveD>*>(d_bases_h), d_bits, n, wpt, outputs, d_out);
  CUZK_CUDA_CHECK_LAUNCH();
  halve_all<CurveD>(d_out, outputs, outputs, 1, s);
  XyzzD sum;
  CUZK_CUDA_CHECK(cudaMemcpyAsync(&sum, d_out, sizeof(XyzzD), cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  return to_host<Curve>(sum);
}

}  // namespace cuzk::gpu::msm_detail
