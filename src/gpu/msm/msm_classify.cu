// The 0/1 split of the device MSM: density ranks and classification of scalars.
#include <cstddef>
#include <cstdint>

#include "gpu/arith/fields.cuh"
#include "gpu/arith/fr_io.cuh"
#include "gpu/device/cuda_check.hpp"
#include "gpu/msm/msm_device.hpp"

namespace cuzk::gpu::msm_detail {

namespace {

constexpr unsigned kThreads = 256;

// counts[k] = popcount(density word k).
__global__ void density_popcount_kernel(const uint64_t* __restrict__ density, size_t words,
                                        uint32_t* __restrict__ counts) {
  for (size_t k = blockIdx.x * size_t{blockDim.x} + threadIdx.x; k < words;
       k += size_t{gridDim.x} * blockDim.x)
    counts[k] = static_cast<uint32_t>(__popcll(density[k]));
}

// Scalar i (used iff its density bit is set, when there is a density) goes to base
// b = rank(i) (or i): 0 is dropped, 1 sets bit b of ones_bits, anything else is appended to the
// tail (scalar, b) with one atomic per warp. counter[0] = tail length, counter[1] = ones.
// The loop runs whole warps (bound checked inside) so that the ballots see every lane.
__global__ void classify_kernel(const FrD* __restrict__ scalars, size_t n,
                                const uint64_t* __restrict__ density,
                                const uint32_t* __restrict__ word_offsets,
                                uint32_t* __restrict__ ones_bits, FrD* __restrict__ tail_scalars,
                                uint32_t* __restrict__ tail_index, uint32_t* __restrict__ counter) {
  const unsigned lane = threadIdx.x % 32;
  for (size_t first = blockIdx.x * size_t{blockDim.x}; first < n;
       first += size_t{gridDim.x} * blockDim.x) {
    const size_t i = first + threadIdx.x;
    bool is_tail = false, is_one = false;
    uint32_t base = 0;
    FrD x;
    if (i < n) {
      bool used = true;
      base = static_cast<uint32_t>(i);
      if (density != nullptr) {
        const uint64_t word = density[i / 64];
        const unsigned bit = i % 64;
        used = (word >> bit) & 1;
        base = word_offsets[i / 64] +
               static_cast<uint32_t>(__popcll(word & ((uint64_t{1} << bit) - 1)));
      }
      if (used) {
        x = load_fr(scalars + i);
        if (x == FrD::one()) {
          is_one = true;
          atomicOr(&ones_bits[base / 32], 1u << (base % 32));
        } else {
          is_tail = !x.is_zero();
        }
      }
    }
    const unsigned tail_mask = __ballot_sync(0xffffffffu, is_tail);
    const unsigned ones_mask = __ballot_sync(0xffffffffu, is_one);
    uint32_t start = 0;
    if (lane == 0 && tail_mask != 0) start = atomicAdd(&counter[0], __popc(tail_mask));
    if (lane == 0 && ones_mask != 0) atomicAdd(&counter[1], __popc(ones_mask));
    start = __shfl_sync(0xffffffffu, start, 0);
    if (is_tail) {
      const uint32_t pos = start + __popc(tail_mask & ((1u << lane) - 1));
      store_fr(tail_scalars + pos, x);
      tail_index[pos] = base;
    }
  }
}

// dst[i] = src[index[i]], elements of `words` words, one word a thread (consecutive threads copy
// consecutive words: the writes coalesce).
__global__ void gather_words_kernel(const uint32_t* __restrict__ src,
                                    const uint32_t* __restrict__ index, size_t count,
                                    unsigned words, uint32_t* __restrict__ dst) {
  const size_t total = count * words;
  for (size_t t = blockIdx.x * size_t{blockDim.x} + threadIdx.x; t < total;
       t += size_t{gridDim.x} * blockDim.x) {
    const size_t i = t / words, w = t % words;
    dst[t] = src[size_t{index[i]} * words + w];
  }
}

}  // namespace

void gather_words(const void* d_src, const uint32_t* d_index, size_t count, unsigned words,
                  void* d_dst, cudaStream_t s) {
  if (count == 0) return;
  gather_words_kernel<<<grid_for(count * words, kThreads), kThreads, 0, s>>>(
      static_cast<const uint32_t*>(d_src), d_index, count, words, static_cast<uint32_t*>(d_dst));
  CUZK_CUDA_CHECK_LAUNCH();
}

SplitCounts classify(const Fr* d_scalars, size_t n, const uint64_t* d_density, MsmWorkspace& ws,
                     cudaStream_t s) {
  const size_t words64 = (n + 63) / 64;
  const size_t words32 = (n + 31) / 32;
  if (d_density != nullptr) {
    ws.word_offsets.reserve(words64);
    ws.cursor.reserve(words64);
    density_popcount_kernel<<<grid_for(words64, kThreads), kThreads, 0, s>>>(d_density, words64,
                                                                             ws.cursor.get());
    CUZK_CUDA_CHECK_LAUNCH();
    exclusive_scan(ws.cursor.get(), ws.word_offsets.get(), words64, ws, s);
  }
  ws.ones_bits.reserve(words32);
  ws.ones_bits.zero(s, 0, words32);
  ws.counter.reserve(2);
  ws.counter.zero(s, 0, 2);
  ws.tail_scalars.reserve(n);
  ws.tail_index.reserve(n);
  classify_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(
      reinterpret_cast<const FrD*>(d_scalars), n, d_density,
      d_density != nullptr ? ws.word_offsets.get() : nullptr, ws.ones_bits.get(),
      reinterpret_cast<FrD*>(ws.tail_scalars.get()), ws.tail_index.get(), ws.counter.get());
  CUZK_CUDA_CHECK_LAUNCH();
  uint32_t counts[2];
  CUZK_CUDA_CHECK(
      cudaMemcpyAsync(counts, ws.counter.get(), sizeof(counts), cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  return {counts[0], counts[1]};
}

}  // namespace cuzk::gpu::msm_detail
