#include "util/bit_count.hpp"

#include <bit>

namespace cuzk {

// Every prover entry point's fit check counts a partition's densities (DensityTracker::popcount,
// groth16/partition_proof.cpp): five times a partition on a capped device, two 2^27-bit bitmaps
// each at 32 GiB. The portable bit count costs 8.9 ms a bitmap, the POPCNT instruction 1.4 ms
// (bench_circuits BM_DensityPopcount*, medians of 5, 2026-12-06); the loader picks the POPCNT clone
// where the CPU has it (GCC; clang 14 compiles the clones into one POPCNT body, so it keeps the
// portable one).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CUZK_BIT_COUNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define CUZK_BIT_COUNT_CLONES
#endif

CUZK_BIT_COUNT_CLONES size_t count_set_bits(std::span<const uint64_t> words) {
  size_t n = 0;
  for (const uint64_t w : words)
    n += static_cast<size_t>(std::popcount(w));
  return n;
}

}  // namespace cuzk
