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
#include "gpu/msm/msm.hpp"

namespace cuzk::gpu::msm_detail {

// Exclusive prefix sum of m counts (CUB), scratch in ws.cub_temp.
void exclusive_scan(const uint32_t* d_in, uint32_t* d_out, size_t m, MsmWorkspace& ws,
                    cudaStream_t s);

// Where the entries' base indices point: copy j of a precomputed table starts at j * stride, and
// each bucket set takes `copies` consecutive digit windows (copies = 1: plain bases, one set per
// window).
struct TableShape {
  unsigned copies = 1;
  size_t stride = 0;
};

// Steps 1-3 (scalar side) of msm.hpp: ws.entries holds, bucket by bucket (sets x 2^(c-1)
// buckets; bucket b of a set has weight b + 1), entries table index << 1 | sign, where digit
// window g copies + j of scalar i points at j stride + base(i); ws.offsets and ws.counts give each
// bucket's range, ws.task_offsets / ws.task_counts its tasks of at most task_len entries.
// Synchronises s (to read the task count).
struct BucketPlan {
  unsigned sets = 0;  // bucket sets, ceil(windows / copies)
  uint32_t buckets_per_set = 0;
  uint32_t task_len = 0;  // L, entries per task at most
  uint32_t num_tasks = 0;
  uint32_t max_tasks = 0;     // tasks of the fullest bucket
  bool radix_sorted = false;  // by CUB's radix sort per set (else the counting-sort scatter)
  const uint32_t* task_order = nullptr;   // device: the task of accumulation thread j (or j)
  const uint32_t* task_bucket = nullptr;  // device: the bucket of task t (or a search finds it)
};
BucketPlan sort_into_buckets(const Fr* d_scalars, const uint32_t* d_index, size_t n, unsigned c,
                             TableShape table, MsmWorkspace& ws, cudaStream_t s);

// The buckets of steps 1-3 in ws.buckets: `sets` sets of buckets_per_set XYZZ points.
struct BucketShape {
  unsigned sets = 0;
  uint32_t buckets_per_set = 0;
  size_t buckets() const { return size_t{sets} * buckets_per_set; }
};

// Steps 1-3 of msm.hpp with window width c into ws.buckets: written, or with `add` added to the
// buckets an earlier call of the same c and table left there (a chunked MSM reduces once). With
// stats, the phase times (CUDA events) are added to its sort_ms and accumulate_ms.
template <class Curve>
BucketShape accumulate_buckets(const Affine<Curve>* d_bases, const Fr* d_scalars,
                               const uint32_t* d_index, size_t n, unsigned c, TableShape table,
                               bool add, MsmWorkspace& ws, cudaStream_t s, MsmStats* stats);

// Step 4: the bucket sets' weighted sums, lowest first (one per window without a table); with
// stats, its time added to reduce_ms. Synchronises s.
template <class Curve>
std::vector<Xyzz<Curve>> reduce_buckets(BucketShape shape, MsmWorkspace& ws, cudaStream_t s,
                                        MsmStats* stats);

// Steps 1-4 of msm.hpp with window width c: the bucket sets' weighted sums, lowest first (one
// per window without a table). With stats, the phase times (CUDA events) are filled in.
template <class Curve>
std::vector<Xyzz<Curve>> pippenger_window_sums(const Affine<Curve>* d_bases, const Fr* d_scalars,
                                               const uint32_t* d_index, size_t n, unsigned c,
                                               TableShape table, MsmWorkspace& ws, cudaStream_t s,
                                               MsmStats* stats);

// Fills d_table with `copies` multiples 2^(j c) of the n bases (msm.hpp precompute_bases).
template <class Curve>
void precompute_table(const Affine<Curve>* d_bases, size_t n, unsigned c, unsigned copies,
                      Affine<Curve>* d_table, cudaStream_t s);

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

// dst[i] = src[index[i]] for i < count, elements of `words` 32-bit words (a point's bytes / 4).
void gather_words(const void* d_src, const uint32_t* d_index, size_t count, unsigned words,
                  void* d_dst, cudaStream_t s);

}  // namespace cuzk::gpu::msm_detail
