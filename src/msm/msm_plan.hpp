// MsmPlan: how a bucket-method MSM is cut up (window width, chunks per window, bucket mode),
// chosen from a cost model of the work in units of one mixed point addition.
#pragma once

#include <cstddef>

#include "msm/msm_config.hpp"

namespace cuzk {

struct MsmPlan {
  unsigned window_bits = 1;
  unsigned chunks = 1;  // each window's points are split into this many ranges, one task each
  BucketMode buckets = BucketMode::kXyzz;
};

// Relative costs, in units of one XYZZ bucket addition of a point (G1 ~300 ns, G2 ~1.05 us on
// the development machine), of the steps the planner weighs. Fitted to bench/msm
// Compare_*_Window, which runs single windows at two point counts so that per-point and
// per-bucket costs separate; G1 and G2 came out within noise of each other, so one table serves
// both.
struct MsmCostModel {
  double xyzz_point = 1.0;           // one bucket addition of a point, XYZZ mixed
  double batch_affine_point = 0.85;  // the same in batch-affine form, amortised (G2: ~0.8)
  double full_add = 0.8;             // XYZZ + XYZZ: one per bucket, two for a filled bucket
  // Batch-affine needs buckets enough that batches rarely collide (c >= 10: at c = 8 it lost to
  // XYZZ) and points enough per task to fill its batches.
  unsigned batch_affine_min_window_bits = 10;
  size_t batch_affine_min_points = 1 << 12;
  // Once a task's bucket array outgrows the cache, bucket updates miss even with prefetching.
  // Measured on G1 at c = 16 against c = 13-14: XYZZ (6 MiB of buckets) +24% per point, affine
  // (3.4 MiB) +4% (2^20 points: c = 16 took 4.86 s of CPU, c = 14 5.55 s). Modelled as a penalty
  // per doubling of the array beyond cache_bytes.
  size_t cache_bytes = size_t{1} << 20;
  double xyzz_cache_penalty = 0.09;
  double affine_cache_penalty = 0.02;
  size_t xyzz_bucket_bytes = 192;    // sizeof(Xyzz<G1Curve>); the caller sets its curve's
  size_t affine_bucket_bytes = 100;  // sizeof(Affine<G1Curve>) + the pending-batch stamp
};

// n: scalars that reach the windows; scalar_bits: their largest bit length (<= 255);
// threads: the pool size. Honours the fixed choices in cfg (window_bits, chunks, buckets).
MsmPlan plan_msm(size_t n, unsigned scalar_bits, unsigned threads, const MsmConfig& cfg,
                 const MsmCostModel& model = {});

}  // namespace cuzk
