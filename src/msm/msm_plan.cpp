#include "msm/msm_plan.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <stdexcept>

namespace cuzk {

namespace {

// Estimated wall time of one plan: the tasks (one per window and chunk) run in rounds of
// `threads`, each adding its points into buckets and then reducing its buckets with one full
// addition per bucket plus one per non-empty bucket (at most one per point); the caller then
// adds the W * chunks partial sums and doubles `bits` times.
double plan_cost(size_t n, unsigned bits, unsigned threads, unsigned c, unsigned chunks,
                 BucketMode mode, const MsmCostModel& m) {
  const double windows = (bits + c) / c;
  const double per_chunk = std::ceil(static_cast<double>(n) / chunks);
  const double buckets = static_cast<double>(size_t{1} << (c - 1));
  const double filled = std::min(buckets, per_chunk);
  const bool affine = mode == BucketMode::kBatchAffine;
  const double bytes =
      buckets * static_cast<double>(affine ? m.affine_bucket_bytes : m.xyzz_bucket_bytes);
  const double spill = std::max(0.0, std::log2(bytes / static_cast<double>(m.cache_bytes)));
  const double point = (affine ? m.batch_affine_point : m.xyzz_point) +
                       (affine ? m.affine_cache_penalty : m.xyzz_cache_penalty) * spill;
  const double task = per_chunk * point + m.full_add * (buckets + filled);
  const double rounds = std::ceil(windows * chunks / threads);
  return rounds * task + m.full_add * windows * chunks + bits;
}

}  // namespace

MsmPlan plan_msm(size_t n, unsigned scalar_bits, unsigned threads, const MsmConfig& cfg,
                 const MsmCostModel& model) {
  if (cfg.window_bits > MsmConfig::kMaxWindowBits)
    throw std::invalid_argument("msm: window_bits above MsmConfig::kMaxWindowBits");
  threads = std::max(1u, threads);
  // Free choices: chunks up to 8 per thread (never more than points), every width.
  const size_t auto_chunks = std::min<size_t>(std::max<size_t>(1, n), size_t{8} * threads);
  const unsigned min_chunks = cfg.chunks != 0 ? cfg.chunks : 1;
  const unsigned max_chunks = cfg.chunks != 0 ? cfg.chunks : static_cast<unsigned>(auto_chunks);
  const unsigned min_c = cfg.window_bits != 0 ? cfg.window_bits : 1;
  const unsigned max_c = cfg.window_bits != 0 ? cfg.window_bits : MsmConfig::kMaxWindowBits;

  MsmPlan best;
  double best_cost = std::numeric_limits<double>::infinity();
  for (BucketMode mode : {BucketMode::kXyzz, BucketMode::kBatchAffine}) {
    if (cfg.buckets != BucketMode::kAuto && cfg.buckets != mode) continue;
    for (unsigned c = min_c; c <= max_c; ++c) {
      for (unsigned chunks = min_chunks; chunks <= max_chunks; ++chunks) {
        // Left to choose, batch-affine needs buckets enough that batches rarely collide and
        // points enough per task to fill its batches; forced, it runs anyway.
        if (mode == BucketMode::kBatchAffine && cfg.buckets == BucketMode::kAuto &&
            (c < model.batch_affine_min_window_bits || n / chunks < model.batch_affine_min_points))
          break;
        const double cost = plan_cost(n, scalar_bits, threads, c, chunks, mode, model);
        if (cost < best_cost) {
          best_cost = cost;
          best = {c, chunks, mode};
        }
      }
    }
  }
  return best;
}

}  // namespace cuzk
