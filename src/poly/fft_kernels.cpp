#include "poly/fft_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>

#include "poly/butterfly.hpp"

namespace cuzk::fft_detail {

namespace {

// Grain of the parallel loops: a chunk costs far more than a pool hand-off.
constexpr size_t kMinChunk = 1024;

size_t log2_exact(size_t n) {
  return static_cast<size_t>(std::countr_zero(n));
}

uint64_t reverse_bits(uint64_t x, size_t bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
  return __builtin_bswap64(x) >> (64 - bits);
}

// Butterflies (x, y) <- (x + t y, x - t y) on two runs; group 0 has t = 1 and skips the product.
void butterflies(Fr* x, Fr* y, size_t count, const Fr& t, bool unit) {
  if (unit) {
    for (size_t j = 0; j < count; ++j)
      add_sub(x[j], y[j], x[j], y[j]);
  } else {
    for (size_t j = 0; j < count; ++j)
      add_sub(x[j], y[j] * t, x[j], y[j]);
  }
}

// One stage over the whole array: pairs at distance len, group g (of 2 len elements) uses tw[g].
void stage_pass(std::span<Fr> a, size_t len, const Fr* tw, ThreadPool& pool) {
  const size_t ll = log2_exact(len);
  pool.parallel_for(
      a.size() / 2,
      [&](size_t lo, size_t hi) {
        for (size_t b = lo; b < hi;) {  // b numbers the butterflies: group b / len, offset b % len
          const size_t g = b >> ll, j = b & (len - 1);
          const size_t run = std::min(hi - b, len - j);
          Fr* x = a.data() + (g << (ll + 1)) + j;
          butterflies(x, x + len, run, tw[g], g == 0);
          b += run;
        }
      },
      kMinChunk);
}

// The stages of distance < B inside block `index` of B elements (cache resident); the groups of
// distance len in it are the global groups index * B / 2len + local.
void block_stages(Fr* blk, size_t B, size_t index, const Fr* tw) {
  for (size_t len = B / 2; len >= 1; len /= 2) {
    const size_t groups = B / (2 * len);
    const Fr* t = tw + index * groups;
    for (size_t lg = 0; lg < groups; ++lg) {
      Fr* x = blk + lg * 2 * len;
      butterflies(x, x + len, len, t[lg], index == 0 && lg == 0);
    }
  }
}

}  // namespace

std::vector<Fr> twiddle_table(const Fr& root, size_t n, ThreadPool& pool) {
  std::vector<Fr> tw(n / 2);
  if (tw.empty()) return tw;
  // bitrev(g + 2^s) = bitrev(g) + 2^(k-2-s) for g < 2^s (k - 1 bits), so each doubling of the
  // prefix is one independent product per entry: Tbr[g + 2^s] = Tbr[g] root^(2^(k-2-s)).
  // (A chain of powers, then the permutation: 19 ms at n = 2^20 on one core; this: 6 ms.)
  const size_t bits = log2_exact(tw.size());
  tw[0] = Fr::one();
  for (size_t s = 0; s < bits; ++s) {
    Fr step = root;
    for (size_t i = s + 1; i < bits; ++i)
      step = step.sqr();
    const size_t half = size_t{1} << s;
    pool.parallel_for(
        half,
        [&](size_t lo, size_t hi) {
          for (size_t g = lo; g < hi; ++g)
            tw[g + half] = tw[g] * step;
        },
        kMinChunk * 4);
  }
  return tw;
}

void dft_natural_to_bitrev(std::span<Fr> a, const std::vector<Fr>& tw, ThreadPool& pool,
                           Plan plan) {
  const size_t n = a.size();
  if (n < 2) return;
  const size_t B = plan.blocked ? std::min(n, size_t{1} << plan.log_block) : 1;
  for (size_t len = n / 2; len >= B; len /= 2)  // distances n/2, ..., B: passes over the array
    stage_pass(a, len, tw.data(), pool);
  if (B > 1) {
    pool.run(n / B, [&](size_t i) { block_stages(a.data() + i * B, B, i, tw.data()); });
  }
}

// Tiled so that both sides of the swaps stay in L1: write i = (hi, mid, lo) with hi and lo of
// kTileBits bits each; then bitrev(i) = (rev lo, rev mid, rev hi), so the 2^(2 kTileBits)
// elements with middle bits mid swap with those with middle bits rev(mid), 2^kTileBits rows of
// 2^kTileBits contiguous elements on each side. Each pair is swapped once: by the tile with the
// smaller middle part, or inside a self-paired tile by the smaller index. One core, n = 2^20:
// 20 ms for the plain swap loop, 7 ms tiled.
void bit_reverse(std::span<Fr> a, ThreadPool& pool) {
  constexpr size_t kTileBits = 4;
  const size_t bits = log2_exact(a.size());
  if (bits < 2 * kTileBits + 1) {
    for (size_t i = 0; i < a.size(); ++i) {
      const size_t r = reverse_bits(i, bits);
      if (i < r) std::swap(a[i], a[r]);
    }
    return;
  }
  const size_t mid_bits = bits - 2 * kTileBits;
  const size_t side = size_t{1} << kTileBits;
  const size_t hi_shift = bits - kTileBits;
  pool.parallel_for(
      size_t{1} << mid_bits,
      [&](size_t lo, size_t hi) {
        for (size_t m = lo; m < hi; ++m) {
          const size_t rm = reverse_bits(m, mid_bits);
          if (m > rm) continue;
          for (size_t h = 0; h < side; ++h) {
            const size_t rh = reverse_bits(h, kTileBits);
            for (size_t l = 0; l < side; ++l) {
              const size_t i = (h << hi_shift) | (m << kTileBits) | l;
              const size_t r = (reverse_bits(l, kTileBits) << hi_shift) | (rm << kTileBits) | rh;
              if (m < rm || i < r) std::swap(a[i], a[r]);
            }
          }
        }
      },
      16);
}

void scale(std::span<Fr> values, const Fr& c, ThreadPool& pool) {
  pool.parallel_for(
      values.size(),
      [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i)
          values[i] *= c;
      },
      kMinChunk);
}

// Four interleaved chains of powers (step g^4): one chain alone waits on each product's latency.
void distribute_powers(std::span<Fr> values, const Fr& g, const Fr& c, ThreadPool& pool) {
  constexpr size_t kChains = 4;
  const Fr step = g.pow(kChains);
  pool.parallel_for(
      values.size(),
      [&](size_t lo, size_t hi) {
        Fr x[kChains];
        x[0] = c * g.pow(lo);
        for (size_t k = 1; k < kChains; ++k)
          x[k] = x[k - 1] * g;
        size_t i = lo;
        for (; i + kChains <= hi; i += kChains) {
          for (size_t k = 0; k < kChains; ++k) {
            values[i + k] *= x[k];
            x[k] *= step;
          }
        }
        for (size_t k = 0; i < hi; ++i, ++k)
          values[i] *= x[k];
      },
      kMinChunk);
}

}  // namespace cuzk::fft_detail
