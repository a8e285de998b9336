// The NTT's device kernels: one pass of up to kMaxTileLog radix-2 stages in shared memory (DIF or
// DIT), the in-place bit reversal, and the elementwise scalings. Only ntt_launch.cu includes this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu/arith/fields.cuh"
#include "gpu/arith/fr_io.cuh"
#include "gpu/ntt/ntt_launch.hpp"

namespace cuzk::gpu::ntt_detail {

// 128 threads per tile of 2^10 elements (4 butterflies each per stage), so many small blocks share
// an SM. The passes are bound by the multiplier pipe, and a block's barriers make its warps
// multiply in bursts together; more independent blocks overlap the bursts (H200 2026-11-30, 2^24
// forward: tiles of 2^11 with 512 threads 5.28 ms, with 256 threads 4.96; tiles of 2^10 with 256
// threads 4.84, with 128 threads 4.70; tiles of 2^9 with 256 threads 4.95).
constexpr int kPassThreads = 128;

// Elements of one tile: row t (0 <= t < 2^k) and column c (0 <= c < 2^log_c) sit at
//   low0 + c + (t << s0) + (high << (s0 + k)),
// so the stages of half-size 2^(s0 + b), b < k, pair rows t and t | 2^b. The twiddle of a pair is
// omega_{2h}^j = omega^(j n / 2h) with j the element's index modulo h = 2^(s0 + b).
struct TileGeometry {
  const FrD* tw;
  int log_n, s0, log_c;
  size_t low0;
  // The twiddle of row t (bit b clear) in stage b, column c.
  __device__ __forceinline__ FrD twiddle(int t, int b, int c) const {
    const size_t j = low0 + c + (static_cast<size_t>(t & ((1 << b) - 1)) << s0);
    return load_fr(tw + (j << (log_n - 1 - s0 - b)));
  }
};

template <bool kDif>
__device__ __forceinline__ void butterfly(FrD& u, FrD& v, const FrD& w) {
  if constexpr (kDif) {
    const FrD d = u - v;
    u = u + v;
    v = d * w;
  } else {
    const FrD vw = v * w;
    v = u - vw;
    u = u + vw;
  }
}

// A tile in shared memory as two planes of 16-byte halves (limbs 0-3 of element e at lo[e], limbs
// 4-7 at hi[e]): a warp reading consecutive elements then reads consecutive 16-byte words, 4
// wavefronts per load instead of the 8 that 32-byte elements take (their 16-byte halves fall on
// the same banks every 4 lanes).
struct SharedTile {
  uint4* lo;
  uint4* hi;
  __device__ __forceinline__ FrD load(int e) const {
    const uint4 a = lo[e], b = hi[e];
    FrD r;
    r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
    r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
    return r;
  }
  __device__ __forceinline__ void store(int e, const FrD& v) const {
    lo[e] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
    hi[e] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
  }
};

template <bool kDif>
__device__ __forceinline__ void radix2_step(const SharedTile& sm, const TileGeometry& g, int k,
                                            int b) {
  const int cols = 1 << g.log_c;
  const int elems = 1 << (k + g.log_c);
  for (int q = threadIdx.x; q < elems / 2; q += blockDim.x) {
    const int c = q & (cols - 1), r = q >> g.log_c;
    const int t0 = ((r >> b) << (b + 1)) | (r & ((1 << b) - 1));
    const int e0 = (t0 << g.log_c) + c, e1 = ((t0 | (1 << b)) << g.log_c) + c;
    FrD u = sm.load(e0), v = sm.load(e1);
    butterfly<kDif>(u, v, g.twiddle(t0, b, c));
    sm.store(e0, u);
    sm.store(e1, v);
  }
}

// Two stages per barrier: stages b + 1 and b on four rows t0, t0 + 2^b, t0 + 2^(b+1), t0 + 3 2^b
// held in registers (DIF runs b + 1 first, DIT b first). Stage b's two pairs share one twiddle
// (it depends on t mod 2^b only), so three twiddle loads serve four products.
template <bool kDif>
__device__ __forceinline__ void radix4_step(const SharedTile& sm, const TileGeometry& g, int k,
                                            int b) {
  const int cols = 1 << g.log_c;
  const int quads = 1 << (k - 2 + g.log_c);
  for (int q = threadIdx.x; q < quads; q += blockDim.x) {
    const int c = q & (cols - 1), r = q >> g.log_c;
    const int t0 = ((r >> b) << (b + 2)) | (r & ((1 << b) - 1));
    const int e0 = (t0 << g.log_c) + c, step = 1 << (b + g.log_c);
    FrD x0 = sm.load(e0), x1 = sm.load(e0 + step), x2 = sm.load(e0 + 2 * step),
        x3 = sm.load(e0 + 3 * step);
    const FrD w_lo = g.twiddle(t0, b, c);
    if constexpr (kDif) {
      butterfly<true>(x0, x2, g.twiddle(t0, b + 1, c));
      butterfly<true>(x1, x3, g.twiddle(t0 | (1 << b), b + 1, c));
      butterfly<true>(x0, x1, w_lo);
      butterfly<true>(x2, x3, w_lo);
    } else {
      butterfly<false>(x0, x1, w_lo);
      butterfly<false>(x2, x3, w_lo);
      butterfly<false>(x0, x2, g.twiddle(t0, b + 1, c));
      butterfly<false>(x1, x3, g.twiddle(t0 | (1 << b), b + 1, c));
    }
    sm.store(e0, x0);
    sm.store(e0 + step, x1);
    sm.store(e0 + 2 * step, x2);
    sm.store(e0 + 3 * step, x3);
  }
}

// Stages 1 and 0 of a transform's first pass (s0 = 0, one column, low0 = 0): stage 0's twiddle is
// 1, stage 1's are 1 (row 4r) and omega^(n/4) (row 4r + 1), so one product per four rows.
template <bool kDif>
__device__ __forceinline__ void radix4_unit_step(const SharedTile& sm, const TileGeometry& g,
                                                 int k) {
  const FrD w4 = g.twiddle(1, 1, 0);
  for (int r = threadIdx.x; r < (1 << (k - 2)); r += blockDim.x) {
    FrD x0 = sm.load(4 * r), x1 = sm.load(4 * r + 1), x2 = sm.load(4 * r + 2),
        x3 = sm.load(4 * r + 3);
    // (u, v) -> (u + v, u - v): a butterfly whose twiddle is 1.
    auto sum_diff = [](FrD& u, FrD& v) {
      const FrD d = u - v;
      u = u + v;
      v = d;
    };
    if constexpr (kDif) {
      sum_diff(x0, x2);
      sum_diff(x1, x3);
      x3 = x3 * w4;
      sum_diff(x0, x1);
      sum_diff(x2, x3);
    } else {
      sum_diff(x0, x1);
      sum_diff(x2, x3);
      x3 = x3 * w4;
      sum_diff(x0, x2);
      sum_diff(x1, x3);
    }
    sm.store(4 * r, x0);
    sm.store(4 * r + 1, x1);
    sm.store(4 * r + 2, x2);
    sm.store(4 * r + 3, x3);
  }
}

// The stage of half-size 1 (s0 = b = 0: rows 2r and 2r + 1 of one column) has the twiddle 1
// throughout: u + v and u - v, no product. A loop of its own: a branch on the product inside
// radix2_step's loop slowed every stage (2^24 forward 5.40 -> 5.84 ms, H200 2026-11-30).
__device__ __forceinline__ void radix2_unit_step(const SharedTile& sm, int k) {
  for (int r = threadIdx.x; r < (1 << (k - 1)); r += blockDim.x) {
    const FrD u = sm.load(2 * r), v = sm.load(2 * r + 1);
    sm.store(2 * r, u + v);
    sm.store(2 * r + 1, u - v);
  }
}

// The powers c g^e = lo[e mod 2^12] hi[e >> 12] of a pass that scales what it loads: e = i, or
// bitrev(i) when exponent_reversed, for the element at index i.
struct LoadScaling {
  const FrD* lo;
  const FrD* hi;
  bool exponent_reversed;
};

__device__ __forceinline__ size_t bitrev(size_t i, int log_n) {
  return log_n == 0 ? 0 : static_cast<size_t>(__brevll(i) >> (64 - log_n));
}

// c g^e from the power tables (see LoadScaling).
__device__ __forceinline__ FrD power_of(const FrD* lo, const FrD* hi, size_t e) {
  return load_fr(lo + (e & ((size_t{1} << kPowLoBits) - 1))) * load_fr(hi + (e >> kPowLoBits));
}

// The stages 2^s0 .. 2^(s0 + k - 1) of a tile in shared memory (loaded and synchronised by the
// caller; synchronised again on return), DIT upwards, DIF downwards. kRadix4: two stages per
// barrier (radix4_step), grouped from the bottom: stages 0 and 1 as one product-light step when
// kUnitStage (s0 = 0), then pairs, then one single stage when the count is odd. Otherwise one
// radix-2 stage per barrier (the launcher's choice for tiles of fewer than 4 elements per thread).
// The DIF branch runs the DIT branch's steps in the reverse order, so their lines repeat.
template <bool kDif, bool kUnitStage, bool kRadix4>
__device__ __forceinline__ void run_stages(const SharedTile& sm, const TileGeometry& g, int k) {
  if constexpr (kRadix4) {
    const int unit = kUnitStage && k >= 2 ? 2 : 0;
    const int pairs = (k - unit) / 2, single = (k - unit) % 2;
    if constexpr (!kDif) {
      if (unit != 0) {
        radix4_unit_step<false>(sm, g, k);
        __syncthreads();
      } else if (kUnitStage) {
        radix2_unit_step(sm, k);
        __syncthreads();
      }
      for (int p = 0; p < pairs; ++p) {
        radix4_step<false>(sm, g, k, unit + 2 * p);
        __syncthreads();
      }
      if (single != 0 && !(kUnitStage && unit == 0)) {
        radix2_step<false>(sm, g, k, k - 1);
        __syncthreads();
      }
    } else {
      if (single != 0 && !(kUnitStage && unit == 0)) {
        radix2_step<true>(sm, g, k, k - 1);
        __syncthreads();
      }
      for (int p = pairs; p-- > 0;) {
        radix4_step<true>(sm, g, k, unit + 2 * p);
        __syncthreads();
      }
      if (unit != 0) {
        radix4_unit_step<true>(sm, g, k);
        __syncthreads();
      } else if (kUnitStage) {
        radix2_unit_step(sm, k);
        __syncthreads();
      }
    }
  } else {
    constexpr int kLowest = kUnitStage ? 1 : 0;  // the lowest stage of the loop
    if constexpr (kUnitStage && !kDif) {
      radix2_unit_step(sm, k);
      __syncthreads();
    }
    for (int step = 0; step < k - kLowest; ++step) {
      radix2_step<kDif>(sm, g, k, kDif ? k - 1 - step : kLowest + step);
      __syncthreads();
    }
    if constexpr (kUnitStage && kDif) {
      radix2_unit_step(sm, k);
      __syncthreads();
    }
  }
}

// Where block blockIdx.x's tile of a pass lies: element e (row t = e >> log_c, column e mod
// 2^log_c) at base + c + (t << s0).
struct TilePlace {
  size_t base;
  int s0, log_c;
  __device__ __forceinline__ size_t index(int e) const {
    return base + (e & ((1 << log_c) - 1)) + (static_cast<size_t>(e >> log_c) << s0);
  }
};

__device__ __forceinline__ TilePlace tile_place(int s0, int k, int log_c) {
  const size_t groups = size_t{1} << (s0 - log_c);
  const size_t low0 = (blockIdx.x % groups) << log_c;
  return {low0 + ((blockIdx.x / groups) << (s0 + k)), s0, log_c};
}

__device__ __forceinline__ TileGeometry tile_geometry(const FrD* tw, int log_n, int s0, int log_c) {
  const size_t groups = size_t{1} << (s0 - log_c);
  return {tw, log_n, s0, log_c, (blockIdx.x % groups) << log_c};
}

__device__ __forceinline__ void store_tile(const SharedTile& sm, FrD* data, const TilePlace& at,
                                           int elems) {
  for (int e = threadIdx.x; e < elems; e += blockDim.x)
    store_fr(data + at.index(e), sm.load(e));
}

// One pass: stages 2^s0 .. 2^(s0 + k - 1) on tiles of 2^k x 2^log_c elements in shared memory
// (run_stages). With kScaleLoads each element is multiplied by its power as it is loaded (the
// coset shift fused into the first pass).
// Two stages per barrier (kRadix4) against one, same binary, H200 2026-12-02 (two alternating
// rounds, CUDA-event medians): 2^27 forward 41.58 -> 39.62 ms, coset forward 46.12 -> 44.23, H
// chain 2^27 296.05 -> 282.03; 2^20 forward 0.30 -> 0.28; but 2^24 forward 4.67 -> 4.71, whose
// last pass (2^6 x 4 columns) left half the threads idle in a radix-4 step. With that pass back on
// radix-2 steps (the launcher's rule, next lease): 2^24 forward 4.49 ms, H chain 2^24 33.28 ->
// 31.98. (With 512 threads per 2^11 tile, 2026-11-30, two stages per barrier had measured slower:
// 67.5 -> 75.5 ms at 2^27.)
template <bool kDif, bool kScaleLoads, bool kUnitStage, bool kRadix4>
__global__ void __launch_bounds__(kPassThreads)
    ntt_pass(FrD* __restrict__ data, const FrD* __restrict__ tw, int log_n, int s0, int k,
             int log_c, LoadScaling ls) {
  extern __shared__ uint4 smem_raw[];
  const int elems = 1 << (k + log_c);
  const SharedTile sm{smem_raw, smem_raw + elems};
  const TilePlace at = tile_place(s0, k, log_c);
  for (int e = threadIdx.x; e < elems; e += blockDim.x) {
    const size_t i = at.index(e);
    FrD v = load_fr(data + i);
    if constexpr (kScaleLoads)
      v = v * power_of(ls.lo, ls.hi, ls.exponent_reversed ? bitrev(i, log_n) : i);
    sm.store(e, v);
  }
  __syncthreads();
  run_stages<kDif, kUnitStage, kRadix4>(sm, tile_geometry(tw, log_n, s0, log_c), k);
  store_tile(sm, data, at, elems);
}

__global__ void bit_reverse_kernel(FrD* __restrict__ d, size_t n, int log_n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    const size_t r = bitrev(i, log_n);
    if (i < r) {
      const FrD a = load_fr(d + i);
      store_fr(d + i, load_fr(d + r));
      store_fr(d + r, a);
    }
  }
}

// The permutation by tiles, so that reads and writes are whole rows: with i = (h, m, l), h and l
// of kRevTileBits bits, rev(i) = (rev(l), rev(m), rev(h)). The block of middle part m (m <=
// rev(m)) loads the tiles {(h, m, l)} and {(h, rev(m), l)} (rows of contiguous l) and writes each
// to the other's place, where a row (fixed rev(l)) is contiguous in rev(h) again. Optionally the
// element landing at natural index e is scaled: by c (kMode 1) or by lo[e mod 2^12] hi[e >> 12]
// (kMode 2), the scalings of the inverse transforms fused into their permutation.
constexpr int kRevTileBits = 4;
constexpr int kRevTile = 1 << (2 * kRevTileBits);  // elements per tile, one per thread

template <int kMode>
__global__ void __launch_bounds__(kRevTile)
    bit_reverse_tiles_kernel(FrD* __restrict__ d, int log_n, FrD c, const FrD* __restrict__ lo,
                             const FrD* __restrict__ hi) {
  __shared__ uint4 smem[2 * kRevTile * sizeof(FrD) / sizeof(uint4)];
  FrD* tiles = reinterpret_cast<FrD*>(smem);
  constexpr int kSide = 1 << kRevTileBits;
  const int mid_bits = log_n - 2 * kRevTileBits;
  const size_t mids[2] = {blockIdx.x, bitrev(blockIdx.x, mid_bits)};
  if (mids[0] > mids[1]) return;  // the partner block moves this pair
  const int count = mids[0] == mids[1] ? 1 : 2;
  const int high_shift = log_n - kRevTileBits;
  const int e = threadIdx.x;
  for (int t = 0; t < count; ++t) {
    const int h = e >> kRevTileBits, l = e & (kSide - 1);
    store_fr(tiles + t * kRevTile + e,
             load_fr(d + ((size_t{static_cast<unsigned>(h)} << high_shift) |
                          (mids[t] << kRevTileBits) | static_cast<unsigned>(l))));
  }
  __syncthreads();
  for (int t = 0; t < count; ++t) {
    const size_t dst_mid = mids[count - 1 - t];  // rev(mids[t])
    const int r = e >> kRevTileBits, col = e & (kSide - 1);
    const int h = static_cast<int>(__brev(static_cast<unsigned>(col)) >> (32 - kRevTileBits));
    const int l = static_cast<int>(__brev(static_cast<unsigned>(r)) >> (32 - kRevTileBits));
    FrD v = load_fr(tiles + t * kRevTile + (h << kRevTileBits) + l);
    const size_t idx = (size_t{static_cast<unsigned>(r)} << high_shift) |
                       (dst_mid << kRevTileBits) | static_cast<unsigned>(col);
    if constexpr (kMode == 1) v = v * c;
    if constexpr (kMode == 2) v = v * power_of(lo, hi, idx);
    store_fr(d + idx, v);
  }
}

// d[i] *= lo[i mod 2^12] hi[i >> 12].
__global__ void scale_powers_kernel(FrD* __restrict__ d, size_t n, const FrD* __restrict__ lo,
                                    const FrD* __restrict__ hi) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    store_fr(d + i, load_fr(d + i) * power_of(lo, hi, i));
}

// out[i] = lo[i mod 2^12] hi[i >> 12] for i < count.
__global__ void expand_powers_kernel(FrD* __restrict__ out, size_t count,
                                     const FrD* __restrict__ lo, const FrD* __restrict__ hi) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count;
       i += size_t{gridDim.x} * blockDim.x) {
    store_fr(out + i, power_of(lo, hi, i));
  }
}

__global__ void scale_kernel(FrD* __restrict__ d, size_t n, FrD c) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    store_fr(d + i, load_fr(d + i) * c);
}

// a[i] = a[i] b[i] - c[i]: the numerator of the quotient on the coset.
__global__ void ab_minus_c_kernel(FrD* __restrict__ a, const FrD* __restrict__ b,
                                  const FrD* __restrict__ c, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    store_fr(a + i, load_fr(a + i) * load_fr(b + i) - load_fr(c + i));
}

// The same product in two steps, for a chain that holds two vectors: a[i] *= b[i], then
// a[i] -= c[i] (the same field operations, so the same result).
__global__ void mul_kernel(FrD* __restrict__ a, const FrD* __restrict__ b, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    store_fr(a + i, load_fr(a + i) * load_fr(b + i));
}
__global__ void sub_kernel(FrD* __restrict__ a, const FrD* __restrict__ c, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    store_fr(a + i, load_fr(a + i) - load_fr(c + i));
}

}  // namespace cuzk::gpu::ntt_detail
