// How the chunked MSM (msm_stream.hpp) cuts n scalars: chunks of `chunk` scalars (a multiple of
// 64, so that a density chunk starts on a bitmap word) and, for each, the run of bases its
// scalars use: [s0, s1) without a density, [rank(s0), rank(s1)) with one. Host-only, so that
// the cut is checked against the CPU MSM without a device (gpu_plan_tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::gpu {

struct MsmChunk {
  size_t s0 = 0, s1 = 0;  // scalars [s0, s1)
  size_t b0 = 0, b1 = 0;  // the bases they use, [b0, b1)
};

// density: empty, or at least ceil(n / 64) words (bits past n ignored). std::invalid_argument
// when chunk is not a positive multiple of 64, the density is short, or the scalars use more
// than `bases` bases.
std::vector<MsmChunk> msm_chunks(size_t n, size_t chunk, std::span<const uint64_t> density,
                                 size_t bases);

}  // namespace cuzk::gpu
