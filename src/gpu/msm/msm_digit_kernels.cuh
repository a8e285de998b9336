// Device kernels of the scalar side of Pippenger (signed digits, counting-sort scatter or the
// radix sort's payload and placement, task counts); only msm_digits.cu includes this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu/arith/fields.cuh"
#include "gpu/arith/fr_io.cuh"

namespace cuzk::gpu::msm_detail {

// Signed digit w of a canonical scalar (8 limbs), given the carry out of digit w - 1:
// raw = bits [wc, wc + c) + carry; raw > 2^(c-1) becomes raw - 2^c with a carry into w + 1.
// Returns |digit| << 1 | sign (0 for a zero digit).
__device__ __forceinline__ uint32_t signed_digit(const uint32_t (&s)[8], unsigned w, unsigned c,
                                                 uint32_t& carry) {
  const unsigned off = w * c;
  const unsigned limb = off / 32, sh = off % 32;
  uint64_t v = 0;
#pragma unroll
  for (unsigned i = 0; i < 8; ++i) {
    // Registers, not local memory: the limb is selected without a run-time array index.
    if (i == limb) v |= s[i];
    if (i == limb + 1) v |= static_cast<uint64_t>(s[i]) << 32;
  }
  uint32_t raw = static_cast<uint32_t>((v >> sh) & ((1u << c) - 1)) + carry;
  const uint32_t half = 1u << (c - 1);
  if (raw > half) {
    carry = 1;
    const uint32_t mag = (1u << c) - raw;  // 0 when raw = 2^c: a zero digit with a carry
    return mag == 0 ? 0 : (mag << 1) | 1u;
  }
  carry = 0;
  return raw << 1;
}

// digits[w n + i] = signed digit w of scalar i for w < windows, 0 for the padding windows up to
// sets x copies; counts[(w / copies) B + |d| - 1] += 1 for non-zero digits.
__global__ void digits_kernel(const FrD* __restrict__ scalars, size_t n, unsigned c,
                              unsigned windows, unsigned copies, unsigned sets,
                              uint32_t* __restrict__ digits, uint32_t* __restrict__ counts) {
  const uint32_t buckets = 1u << (c - 1);
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    const FrD k = FrD::mul(load_fr(scalars + i), FrD::raw_one());  // canonical limbs
    uint32_t carry = 0;
    for (unsigned w = 0; w < windows; ++w) {
      const uint32_t d = signed_digit(k.l, w, c, carry);
      digits[w * n + i] = d;
      if (d != 0) atomicAdd(&counts[(w / copies) * buckets + (d >> 1) - 1], 1u);
    }
    for (unsigned w = windows; w < sets * copies; ++w)
      digits[w * n + i] = 0;
  }
}

// Counting-sort scatter: entry = table index << 1 | sign, placed in its bucket's range.
__global__ void scatter_kernel(const uint32_t* __restrict__ digits,
                               const uint32_t* __restrict__ index, size_t n, unsigned c,
                               unsigned windows, unsigned copies, size_t stride,
                               uint32_t* __restrict__ cursor, uint32_t* __restrict__ entries) {
  const uint32_t buckets = 1u << (c - 1);
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    const uint32_t base = index != nullptr ? index[i] : static_cast<uint32_t>(i);
    for (unsigned w = 0; w < windows; ++w) {
      const uint32_t d = digits[w * n + i];
      if (d == 0) continue;
      const uint32_t pos = atomicAdd(&cursor[(w / copies) * buckets + (d >> 1) - 1], 1u);
      const uint32_t at = static_cast<uint32_t>((w % copies) * stride) + base;
      entries[pos] = (at << 1) | (d & 1);
    }
  }
}

// The radix sort's payload for one bucket set (copies windows of n digits): vals[j n + i] = the
// table index of digit window j of scalar i, j stride + base(i).
__global__ void base_index_kernel(const uint32_t* __restrict__ index, size_t n, unsigned copies,
                                  size_t stride, uint32_t* __restrict__ vals) {
  for (size_t t = blockIdx.x * size_t{blockDim.x} + threadIdx.x; t < n * copies;
       t += size_t{gridDim.x} * blockDim.x) {
    const size_t j = t / n, i = t % n;
    vals[t] = static_cast<uint32_t>(j * stride) +
              (index != nullptr ? index[i] : static_cast<uint32_t>(i));
  }
}

// Set w's digits sorted by magnitude (keys, zero digits first) with their table indices (vals)
// become its entries, table index << 1 | sign, from offsets[w B] on. The set's non-zero count
// comes from the scanned counts, so the host needs no copy of it.
__global__ void place_sorted_kernel(const uint32_t* __restrict__ keys,
                                    const uint32_t* __restrict__ vals, size_t n, unsigned w,
                                    uint32_t buckets, size_t m,
                                    const uint32_t* __restrict__ offsets,
                                    const uint32_t* __restrict__ counts,
                                    uint32_t* __restrict__ entries) {
  const size_t first = size_t{w} * buckets, next = first + buckets;
  const uint32_t start = offsets[first];
  const uint32_t end = next < m ? offsets[next] : offsets[m - 1] + counts[m - 1];
  const size_t nonzero = end - start, zeros = n - nonzero;
  for (size_t j = blockIdx.x * size_t{blockDim.x} + threadIdx.x; j < nonzero;
       j += size_t{gridDim.x} * blockDim.x)
    entries[start + j] = (vals[zeros + j] << 1) | (keys[zeros + j] & 1u);
}

// Each task's length (its bucket's count cut into runs of L) as the key and the task as the
// value, for ordering tasks by length.
__global__ void task_length_kernel(const uint32_t* __restrict__ counts,
                                   const uint32_t* __restrict__ task_offsets,
                                   const uint32_t* __restrict__ task_counts, size_t m, uint32_t L,
                                   uint32_t* __restrict__ lengths, uint32_t* __restrict__ tasks) {
  for (size_t g = blockIdx.x * size_t{blockDim.x} + threadIdx.x; g < m;
       g += size_t{gridDim.x} * blockDim.x) {
    const uint32_t first = task_offsets[g], count = counts[g];
    for (uint32_t i = 0; i < task_counts[g]; ++i) {
      lengths[first + i] = min(L, count - i * L);
      tasks[first + i] = first + i;
    }
  }
}

// task_bucket[t] = the bucket of task t, so that an accumulation thread needs no search over the
// task offsets (a chunk of 2^24 scalars at c = 20 has 6.8 M buckets: 23 dependent loads).
__global__ void task_bucket_kernel(const uint32_t* __restrict__ task_offsets,
                                   const uint32_t* __restrict__ task_counts, size_t m,
                                   uint32_t* __restrict__ task_bucket) {
  for (size_t g = blockIdx.x * size_t{blockDim.x} + threadIdx.x; g < m;
       g += size_t{gridDim.x} * blockDim.x) {
    const uint32_t first = task_offsets[g];
    for (uint32_t i = 0; i < task_counts[g]; ++i)
      task_bucket[first + i] = static_cast<uint32_t>(g);
  }
}

// Tasks per bucket: ceil(count / L); *max_tasks = the largest (one atomic per warp; the loop
// runs whole warps so that the warp reduction sees every lane).
__global__ void task_count_kernel(const uint32_t* __restrict__ counts, size_t m, uint32_t L,
                                  uint32_t* __restrict__ task_counts,
                                  uint32_t* __restrict__ max_tasks) {
  for (size_t first = blockIdx.x * size_t{blockDim.x}; first < m;
       first += size_t{gridDim.x} * blockDim.x) {
    const size_t g = first + threadIdx.x;
    uint32_t tc = 0;
    if (g < m) {
      tc = (counts[g] + L - 1) / L;
      task_counts[g] = tc;
    }
    const uint32_t most = __reduce_max_sync(0xffffffffu, tc);
    if (threadIdx.x % 32 == 0 && most != 0) atomicMax(max_tasks, most);
  }
}

}  // namespace cuzk::gpu::msm_detail
