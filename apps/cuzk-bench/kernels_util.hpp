// Helpers the `cuzk-bench kernels` tables share (kernels_cmd.cpp, msm_chunk_rows.cpp): the host
// twin of the device's random scalars, the CPU check of an MSM over tiled bases, the phase split.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "ec/affine.hpp"
#include "ff/fr.hpp"
#include "gpu/msm/msm.hpp"
#include "msm/msm.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::bench {

inline std::string phases(const gpu::MsmStats& st) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "sort %.1f + accumulate %.1f + reduce %.1f ms", st.sort_ms,
                st.accumulate_ms, st.reduce_ms);
  return buf;
}

inline std::string pow2(unsigned log) {
  return "2^" + std::to_string(log);
}

// The host twin of gpu::fill_random_fr (same splitmix64 stream).
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline Fr host_random_fr(size_t i, uint64_t seed) {
  const uint64_t base = splitmix64(seed ^ (i * 4));
  BigInt<4> v;
  for (int k = 0; k < 4; ++k)
    v.w[k] = splitmix64(base + k);
  v.w[3] >>= 2;
  return Fr::from_mont(v);
}

// sum_i s_i P_(i mod D) = sum_j (sum_{i = j mod D} s_i) P_j: the CPU check of a tiled MSM.
template <class Curve>
Affine<Curve> folded_cpu_msm(const std::vector<Affine<Curve>>& distinct, size_t n, uint64_t seed,
                             ThreadPool& pool) {
  const size_t d = distinct.size();
  std::vector<Fr> folded(d);
  pool.parallel_for(d, [&](size_t lo, size_t hi) {
    for (size_t j = lo; j < hi; ++j)
      for (size_t i = j; i < n; i += d)
        folded[j] += host_random_fr(i, seed);
  });
  const size_t used = std::min(n, d);
  return msm_pippenger<Curve>(std::span(distinct).first(used), std::span(folded).first(used), pool)
      .to_affine();
}

}  // namespace cuzk::bench
