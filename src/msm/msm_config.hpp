// MsmConfig: the knobs of the CPU multi-scalar multiplication. The defaults are what the prover
// uses; the other settings exist so that tests can force each path and benchmarks can compare them.
#pragma once

namespace cuzk {

// How the buckets of the bucket method accumulate points.
enum class BucketMode {
  kAuto,         // chosen by the planner from the problem size
  kXyzz,         // one mixed XYZZ addition per point (8M + 2S); the simple twin
  kBatchAffine,  // affine additions whose inversions are shared by a batch (Montgomery's trick)
};

struct MsmConfig {
  // Window width c in bits, 1..kMaxWindowBits (std::invalid_argument above); 0 lets the
  // planner choose from the number of scalars that reach the windows, their bit length and the
  // thread count.
  unsigned window_bits = 0;
  BucketMode buckets = BucketMode::kAuto;
  // Scalars equal to 0 are dropped and scalars equal to 1 are summed directly instead of going
  // through the windows (most Filecoin witness values are bits). Off: every scalar takes the
  // windows, which is only useful to measure what the fast path buys.
  bool trivial_fast_path = true;
  // Split each window's points into this many chunks (each with its own buckets); 0 lets the
  // planner choose. Exposed for tests of the chunked path on small inputs; chunks beyond the
  // number of points are simply empty.
  unsigned chunks = 0;

  static constexpr unsigned kMaxWindowBits = 20;
};

}  // namespace cuzk
