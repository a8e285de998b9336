// The batch addition of the bases selected by a packed bitmap (the 0/1 part of the split MSM);
// only msm_impl.cuh includes this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu/arith/curves.cuh"

namespace cuzk::gpu::msm_detail {

// out[t] = sum of bases[i] over the set bits i < n in words [t wpt, (t + 1) wpt) of bits;
// threads past the last word write the identity (the halving tree needs a power of two).
template <class CurveD>
__global__ void batch_add_kernel(const Affine<CurveD>* __restrict__ bases,
                                 const uint32_t* __restrict__ bits, size_t n,
                                 uint32_t words_per_thread, size_t outputs,
                                 Xyzz<CurveD>* __restrict__ out) {
  const size_t words = (n + 31) / 32;
  for (size_t t = blockIdx.x * size_t{blockDim.x} + threadIdx.x; t < outputs;
       t += size_t{gridDim.x} * blockDim.x) {
    Xyzz<CurveD> acc = Xyzz<CurveD>::identity();
    const size_t w_end = min(words, (t + 1) * words_per_thread);
    for (size_t w = t * words_per_thread; w < w_end; ++w) {
      uint32_t word = bits[w];
      while (word != 0) {
        const unsigned b = __ffs(word) - 1;
        word &= word - 1;
        const size_t i = w * 32 + b;
        if (i < n) acc = acc.add_mixed(bases[i]);
      }
    }
    out[t] = acc;
  }
}

}  // namespace cuzk::gpu::msm_detail
