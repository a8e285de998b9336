// Device kernels of the point side of Pippenger (accumulation, bucket sums, reduction, halving
// tree); templates over the device curve, included by msm_impl.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu/arith/curves.cuh"
#include "gpu/arith/field_inverse.cuh"
#include "gpu/msm/msm_window.hpp"

namespace cuzk::gpu::msm_detail {

// Point kernels hold a whole XYZZ accumulator in registers; 128 threads per block keep G2 (four
// Fp2 coordinates) within the register file without forcing spills.
constexpr unsigned kPointThreads = 128;

// The bucket g whose range holds t (tasks or entries): the last g with offsets[g] <= t; empty
// buckets share their successor's offset, so the last such g is never empty.
__device__ __forceinline__ size_t bucket_of_task(const uint32_t* task_offsets, size_t m,
                                                 uint32_t t) {
  size_t lo = 0, hi = m;  // invariant: task_offsets[lo] <= t, answer in [lo, hi)
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    if (task_offsets[mid] <= t)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Thread j's task t = order[j] (tasks by length, longest first; or j) sums at most L entries of
// one bucket g (task_bucket[t], or found by a binary search where there is no such array) with
// mixed XYZZ additions. The task of a one-task bucket is its whole sum: it writes bucket g itself
// (or with `add` adds to it), the others write partial t for the tree and bucket_sum_kernel.
// (Fixed chunks of K sorted entries per thread, crossing bucket boundaries, balance the warps
// better on paper but measured 1.6x slower at 2^26: the per-boundary flushes and searches
// diverge; H200 2026-11-30.)
template <class CurveD, int kMinBlocks>
__global__ void __launch_bounds__(kPointThreads, kMinBlocks)
    accumulate_kernel(const Affine<CurveD>* __restrict__ bases,
                      const uint32_t* __restrict__ entries, const uint32_t* __restrict__ offsets,
                      const uint32_t* __restrict__ counts,
                      const uint32_t* __restrict__ task_offsets,
                      const uint32_t* __restrict__ task_counts, size_t m, uint32_t num_tasks,
                      uint32_t L, const uint32_t* __restrict__ order,
                      const uint32_t* __restrict__ task_bucket, bool add,
                      Xyzz<CurveD>* __restrict__ partials, Xyzz<CurveD>* __restrict__ buckets) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < num_tasks;
       j += gridDim.x * blockDim.x) {
    const uint32_t t = order != nullptr ? order[j] : j;
    const size_t g = task_bucket != nullptr ? task_bucket[t] : bucket_of_task(task_offsets, m, t);
    const uint32_t start = offsets[g] + (t - task_offsets[g]) * L;
    const uint32_t end = min(offsets[g] + counts[g], start + L);
    const bool whole = task_counts[g] == 1;
    Xyzz<CurveD> acc = whole && add ? buckets[g] : Xyzz<CurveD>::identity();
    for (uint32_t e = start; e < end; ++e) {
      const uint32_t code = entries[e];
      const Affine<CurveD> p = bases[code >> 1];
      acc = acc.add_mixed((code & 1) ? -p : p);
    }
    if (whole)
      buckets[g] = acc;
    else
      partials[t] = acc;
  }
}

// One round of a halving tree inside every bucket's run of task partials: task i of its bucket
// (i a multiple of 2h) adds task i + h. After ceil(log2(max tasks)) rounds each bucket's sum is
// its first task's partial; buckets swollen by repeated scalars thus reduce in log depth.
template <class CurveD>
__global__ void task_tree_kernel(Xyzz<CurveD>* __restrict__ partials,
                                 const uint32_t* __restrict__ task_offsets,
                                 const uint32_t* __restrict__ task_counts,
                                 const uint32_t* __restrict__ task_bucket, size_t m,
                                 uint32_t num_tasks, uint32_t h) {
  for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < num_tasks;
       t += gridDim.x * blockDim.x) {
    const size_t g = task_bucket != nullptr ? task_bucket[t] : bucket_of_task(task_offsets, m, t);
    const uint32_t i = t - task_offsets[g];
    if (i % (2 * h) == 0 && i + h < task_counts[g]) partials[t] = partials[t] + partials[t + h];
  }
}

// Bucket g of more than one task = the sum of its task partials (the first `limit` of them; 1
// after the tree), or with `add` that sum added to bucket g (a chunked MSM's buckets kept across
// its chunks); an empty bucket is the identity (left as it is with `add`). A one-task bucket was
// written by its task (accumulate_kernel).
template <class CurveD>
__global__ void bucket_sum_kernel(const Xyzz<CurveD>* __restrict__ partials,
                                  const uint32_t* __restrict__ task_offsets,
                                  const uint32_t* __restrict__ task_counts, size_t m,
                                  uint32_t limit, bool add, Xyzz<CurveD>* __restrict__ buckets) {
  for (size_t g = blockIdx.x * size_t{blockDim.x} + threadIdx.x; g < m;
       g += size_t{gridDim.x} * blockDim.x) {
    const uint32_t tasks = task_counts[g];
    if (tasks == 1 || (add && tasks == 0)) continue;
    const uint32_t first = task_offsets[g];
    const uint32_t count = min(tasks, limit);
    Xyzz<CurveD> acc = add ? buckets[g] : Xyzz<CurveD>::identity();
    for (uint32_t k = 0; k < count; ++k)
      acc = acc + partials[first + k];
    buckets[g] = acc;
  }
}

// Segment s of window w covers buckets [lo, lo + len) (weights lo + 1 .. lo + len):
//   sum_b (b + 1) B_b = sum_b (b - lo + 1) B_b + lo sum_b B_b,
// the first by a running sum from the top, the second by double-and-add on the segment sum.
template <class CurveD>
__global__ void segment_reduce_kernel(const Xyzz<CurveD>* __restrict__ buckets, unsigned windows,
                                      uint32_t buckets_per_window, uint32_t len,
                                      Xyzz<CurveD>* __restrict__ out) {
  const uint32_t segs = buckets_per_window / len;
  for (size_t idx = blockIdx.x * size_t{blockDim.x} + threadIdx.x; idx < size_t{windows} * segs;
       idx += size_t{gridDim.x} * blockDim.x) {
    const size_t w = idx / segs;
    const uint32_t lo = static_cast<uint32_t>(idx % segs) * len;
    const Xyzz<CurveD>* b = buckets + w * buckets_per_window + lo;
    Xyzz<CurveD> running = Xyzz<CurveD>::identity(), acc = Xyzz<CurveD>::identity();
    for (uint32_t k = len; k-- > 0;) {
      running = running + b[k];
      acc = acc + running;
    }
    Xyzz<CurveD> base = running;
    for (uint32_t e = lo; e != 0; e >>= 1) {
      if (e & 1) acc = acc + base;
      if (e > 1) base = base.dbl();
    }
    out[idx] = acc;
  }
}

// table[j n + i] = 2^(j c) bases[i], j < copies: the doubling chain in XYZZ, then one inversion
// for all copies of the point (Montgomery's trick over their ZZZ; ~570 products against
// (copies - 1) x 3 after it). Identity bases give identity copies. A one-off per parameter set,
// so the copies sit in local memory rather than registers.
template <class CurveD>
__global__ void precompute_kernel(const Affine<CurveD>* __restrict__ bases, size_t n, unsigned c,
                                  unsigned copies, Affine<CurveD>* __restrict__ table) {
  using Field = typename CurveD::Field;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    const Affine<CurveD> p = bases[i];
    table[i] = p;
    if (p.is_identity()) {
      for (unsigned j = 1; j < copies; ++j)
        table[j * n + i] = p;
      continue;
    }
    Xyzz<CurveD> q[kMsmMaxTableCopies];
    Field prefix[kMsmMaxTableCopies];  // prefix[j] = ZZZ_1 ... ZZZ_j
    q[0] = Xyzz<CurveD>::from_affine(p);
    prefix[0] = Field::one();
    for (unsigned j = 1; j < copies; ++j) {
      q[j] = q[j - 1];
      for (unsigned d = 0; d < c; ++d)
        q[j] = q[j].dbl();
      prefix[j] = prefix[j - 1] * q[j].ZZZ;  // never 0: every curve point has odd order
    }
    Field inv = fermat_inverse(prefix[copies - 1]);  // 1 / (ZZZ_1 ... ZZZ_(copies-1))
    for (unsigned j = copies - 1; j >= 1; --j) {
      const Field zzz_inv = inv * prefix[j - 1];
      inv = inv * q[j].ZZZ;
      const Field zz_inv = (zzz_inv * q[j].ZZ).sqr();  // (ZZ / ZZZ)^2 = 1 / ZZ
      table[j * n + i] = Affine<CurveD>::from_xy(q[j].X * zz_inv, q[j].Y * zzz_inv);
    }
  }
}

// One halving step over `segments` runs of 2h points: p[s 2h + i] += p[s 2h + i + h], i < h.
template <class CurveD>
__global__ void halve_kernel(Xyzz<CurveD>* __restrict__ p, size_t stride, size_t h,
                             size_t segments) {
  for (size_t idx = blockIdx.x * size_t{blockDim.x} + threadIdx.x; idx < segments * h;
       idx += size_t{gridDim.x} * blockDim.x) {
    const size_t s = idx / h, i = idx % h;
    Xyzz<CurveD>* q = p + s * stride + i;
    *q = *q + q[h];
  }
}

}  // namespace cuzk::gpu::msm_detail
