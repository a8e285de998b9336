// Multi-scalar multiplication on the device, G1 and G2 (host halves in msm.cpp, device halves in
// msm_digits.cu, msm_classify.cu and msm_impl.cuh, instantiated in msm_g1.cu and msm_g2.cu).
//
// Pippenger with signed c-bit digits (2^(c-1) buckets per window, c chosen by msm_window_bits):
//   1. digits: each scalar leaves Montgomery form and is recoded into ceil(256/c) signed digits;
//      bucket sizes are counted with atomics;
//   2. sort: an exclusive scan of the counts gives each bucket's range, and a scatter (counting
//      sort) writes (base index, sign) entries bucket by bucket; from 2^22 scalars a radix sort
//      per window by digit magnitude does (msm_radix_sort: the scatter's atomics bind it there);
//   3. accumulate: buckets are cut into tasks of at most L entries (load balance when scalars
//      repeat), each task sums its points with mixed XYZZ additions (from 2^20 scalars the
//      tasks are handed out longest first, so a warp's lanes finish together), and a bucket
//      sums its tasks;
//   4. reduce: each window's buckets are split into segments (128 buckets, shorter for small
//      inputs so that ~2^15 threads run); a segment's weighted sum is a running sum plus
//      (first weight) x (segment sum); segments are added by a halving tree;
//   5. the host combines the ceil(256/c) window sums by doubling.
// With a table of precomputed multiples (MsmBaseTable: copy j holds 2^(j c) P), k consecutive
// windows share one set of buckets: digit j of a group multiplies copy j, so a group is one window
// over k n points, and the host combines ceil(W / k) group sums by doubling k c times.
// The 0/1 split (msm_split) classifies scalars on the device: 0 is dropped, 1 sets a bit in a
// packed bitmap that batch_add sums (one mixed addition per set bit, then a halving tree), and
// the rest are compacted with their base index for Pippenger. Density bitmaps (bellperson's
// DensityTracker) are applied in the same pass: scalar i uses base rank(i) among the set bits.
//
// Results equal the CPU MSM as group elements (bucket order may differ between runs, the point
// does not); identity bases are allowed anywhere.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/xyzz.hpp"
#include "ff/fr.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/msm/msm_window.hpp"

namespace cuzk::gpu {

// Reusable device scratch of the MSMs (grows, never shrinks; release() frees it).
struct MsmWorkspace {
  DeviceBuffer<uint32_t> digits, entries, counts, offsets, cursor, task_counts, task_offsets;
  DeviceBuffer<uint32_t> sort_keys, sort_vals;  // the radix sort's second keys, payload pair
  DeviceBuffer<uint32_t> task_order;            // tasks by length: keys and values, twice
  DeviceBuffer<uint8_t> partials, buckets, segments, cub_temp;
  DeviceBuffer<Fr> tail_scalars;
  DeviceBuffer<uint32_t> tail_index, word_offsets, ones_bits, counter, task_max;
  DeviceBuffer<uint64_t> density;

  void release() { *this = MsmWorkspace(); }
};

// What one MSM did (for logs and benchmarks).
struct MsmStats {
  size_t scalars = 0;    // scalars looked at
  size_t ones = 0;       // summed by batch addition
  size_t pippenger = 0;  // through the windows
  unsigned window_bits = 0;
  unsigned windows = 0;       // digit windows, ceil(256 / c)
  unsigned table_copies = 1;  // windows per bucket set (precomputed bases)
  uint32_t max_tasks = 0;     // tasks of the fullest bucket (repeated scalars make it large)
  bool radix_sorted = false;  // digits sorted by CUB's radix sort (msm_radix_sort), not scattered
  // Pippenger phases, CUDA events (ms): digits + counting sort + tasks, bucket accumulation
  // (tasks, tree, bucket sums), window reduction + download.
  float sort_ms = 0, accumulate_ms = 0, reduce_ms = 0;
};

// Precomputed multiples of n bases for windows of c bits: table[j stride + i] = 2^(j c) bases[i]
// for j < copies (copy 0 is the bases themselves), affine, in device memory.
template <class Curve>
struct MsmBaseTable {
  const Affine<Curve>* table = nullptr;
  size_t stride = 0;  // points per copy (>= the bases indexed)
  unsigned copies = 1;
  unsigned window_bits = 0;
};

// Fills d_table (copies x n points) from the n bases in d_bases: copy j by j c doublings of
// bases[i] (XYZZ), all copies of a point brought to affine by one shared inversion. Synchronises
// `stream`. copies * n < 2^31 (entries carry the table index in 31 bits).
template <class Curve>
MsmBaseTable<Curve> precompute_bases(const Affine<Curve>* d_bases, size_t n, unsigned window_bits,
                                     unsigned copies, Affine<Curve>* d_table, cudaStream_t stream);

// sum_i scalars[i] * bases[index ? index[i] : i] over n scalars (Montgomery form), all arrays in
// device memory. window_bits 0 = msm_window_bits(n); otherwise 2..kMsmMaxWindowBits.
// Synchronises `stream`.
template <class Curve>
Jacobian<Curve> msm_pippenger(const Affine<Curve>* d_bases, const Fr* d_scalars,
                              const uint32_t* d_index, size_t n, MsmWorkspace& ws,
                              cudaStream_t stream, unsigned window_bits = 0,
                              MsmStats* stats = nullptr);

// The same MSM over a precomputed table (window width from the table, up to
// kMsmMaxTableWindowBits); index[i] (if given) indexes a copy.
template <class Curve>
Jacobian<Curve> msm_pippenger(const MsmBaseTable<Curve>& bases, const Fr* d_scalars,
                              const uint32_t* d_index, size_t n, MsmWorkspace& ws,
                              cudaStream_t stream, MsmStats* stats = nullptr);

// Sum of bases[i] over the set bits i < n of the packed bitmap d_bits (32-bit words).
template <class Curve>
Jacobian<Curve> batch_add(const Affine<Curve>* d_bases, const uint32_t* d_bits, size_t n,
                          MsmWorkspace& ws, cudaStream_t stream);

// Where msm_split_ones appends a chunk's tail: room for `capacity` entries of bases and scalars
// from `size` on; it advances size.
template <class Curve>
struct MsmTail {
  Affine<Curve>* bases = nullptr;
  Fr* scalars = nullptr;
  size_t size = 0, capacity = 0;
};

// The 0/1 split of one chunk of a batched MSM: returns the sum of the bases whose scalar is 1,
// and appends every other non-zero scalar with a copy of its base (gathered from d_bases) to
// `tail`, so that the tails of all chunks are summed by one msm_pippenger (over tail.bases,
// without an index): one Pippenger per partition instead of one per chunk. std::logic_error
// when the tail has no room. Synchronises `stream`.
template <class Curve>
Jacobian<Curve> msm_split_ones(const Affine<Curve>* d_bases, const Fr* d_scalars, size_t n,
                               const uint64_t* d_density, MsmWorkspace& ws, cudaStream_t stream,
                               MsmTail<Curve>& tail);

// The split MSM over n scalars in device memory. Without density (d_density null): scalar i
// multiplies bases[i]; with it (packed 64-bit words as DensityTracker::words()): scalar i is used
// iff bit i is set and multiplies bases[rank of i among the set bits].
template <class Curve>
Jacobian<Curve> msm_split(const Affine<Curve>* d_bases, const Fr* d_scalars, size_t n,
                          const uint64_t* d_density, MsmWorkspace& ws, cudaStream_t stream,
                          MsmStats* stats = nullptr);

// The split MSM over scalars that arrive in chunks, each chunk with the bases it uses at its own
// device address (a chunked MSM whose bases stream through staging slots, msm_stream.hpp). A
// chunk's 0/1 part is summed at once; its other scalars go into one set of buckets, of the window
// width for the whole count, that stays in the workspace across the chunks and is reduced once by
// sum(): at 2^27 scalars in chunks of 2^24, c = 20 (13 windows) instead of a chunk's c = 16 (16
// windows and a reduction each). Equal to msm_split over the concatenation as a group element.
// The workspace belongs to the accumulator until sum() (another MSM on it would overwrite the
// buckets).
template <class Curve>
class MsmAccumulator {
 public:
  // total: the scalars of all chunks, which sets the window width (msm_window_bits(total), or
  // window_bits if not 0: 2..kMsmMaxWindowBits).
  MsmAccumulator(size_t total, MsmWorkspace& ws, cudaStream_t stream, unsigned window_bits = 0);

  // Adds n scalars (device memory, Montgomery form): scalar i multiplies d_bases[i], or with a
  // density (packed 64-bit words) is used iff bit i is set and multiplies d_bases[rank(i)].
  // Synchronises the stream.
  void add(const Affine<Curve>* d_bases, const Fr* d_scalars, size_t n, const uint64_t* d_density);

  // The sum of every chunk added; the accumulator is empty again afterwards.
  Jacobian<Curve> sum();

  // Counts and phase times summed over every chunk added since construction (sum() does not
  // reset them): sort_ms and accumulate_ms add up the chunks', reduce_ms is sum()'s; max_tasks is
  // the largest chunk's, radix_sorted the last one's. Each chunk's 0/1 classification and batch
  // addition are in none of the three phases (a caller's total minus them is those and the waits).
  const MsmStats& stats() const { return stats_; }

 private:
  MsmWorkspace& ws_;
  cudaStream_t stream_;
  unsigned c_;
  unsigned sets_ = 0;  // the buckets in ws_.buckets, once written
  uint32_t buckets_per_set_ = 0;
  Jacobian<Curve> ones_;
  MsmStats stats_;
};

}  // namespace cuzk::gpu
