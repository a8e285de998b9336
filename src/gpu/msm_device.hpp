// The device halves of the MSM (msm_impl.cuh, msm_classify.cu), callable from msm.cpp. They
// return the device's XYZZ sums as host Xyzz values (same bytes) and leave all host field
// arithmetic to the .cpp side (see ntt_launch.hpp for why).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ec/affine.hpp"
#include "ec/xyzz.hpp"
#include "ff/fr.hpp"
#include "gpu/msm.hpp"

namespace cuzk::gpu::msm_detail {

// Exclusive prefix sum of m counts (CUB), scratch in ws.cub_temp.
void exclusive_scan(const uint32_t* d_in, uint32_t* d_out, size_t m, MsmWorkspace& ws,
                    cudaStream_t s);

// Steps 1-3 (scalar side) of msm.hpp: ws.entries holds, bucket by bucket (windows x 2^(c-1)
// buckets; bucket b of a window has weight b + 1), entries base index << 1 | sign; ws.offsets and
// ws.counts give each bucket's range, ws.task_offsets / ws.task_counts its tasks of at most
// task_len entries. Synchronises s (to read the task count).
struct BucketPlan {
  unsigned windows = 0;
  uint32_t buckets_per_window = 0;
  uint32_t task_len = 0;  // L, entries per task at most
  uint32_t num_tasks = 0;
  uint32_t max_tasks = 0;     // tasks of the fullest bucket
  bool radix_sorted = false;  // by CUB's radix sort per window (else the counting-sort scatter)
  const uint32_t* task_order = nullptr;  // device: the task of accumulation thread j (or j)
};
BucketPlan sort_into_buckets(const Fr* d_scalars, const uint32_t* d_index, size_t n, unsigned c,
                             MsmWorkspace& ws, cudaStream_t s);

// Steps 1-4 of msm.hpp with window width c: the ceil(256/c) window sums, lowest first.
// With stats, the phase times (CUDA events) are filled in.
template <class Curve>
std::vector<Xyzz<Curve>> pippenger_window_sums(const Affine<Curve>* d_bases, const Fr* d_scalars,
                                               const uint32_t* d_index, size_t n, unsigned c,
                                               MsmWorkspace& ws, cudaStream_t s, MsmStats* stats);

// Sum of d_bases[i] over the set bits i < n of d_bits (packed 32-bit words).
template <class Curve>
Xyzz<Curve> batch_add_sum(const Affine<Curve>* d_bases, const uint32_t* d_bits, size_t n,
                          MsmWorkspace& ws, cudaStream_t s);

// Sorts n scalars into ws.ones_bits (scalar 1, by base index), the tail ws.tail_scalars /
// ws.tail_index (every other non-zero scalar) and nothing (0 or unused by the density).
struct SplitCounts {
  uint32_t tail = 0, ones = 0;
};
SplitCounts classify(const Fr* d_scalars, size_t n, const uint64_t* d_density, MsmWorkspace& ws,
                     cudaStream_t s);

}  // namespace cuzk::gpu::msm_detail
