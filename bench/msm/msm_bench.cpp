// CPU MSM: whole MSMs at the sizes the prover meets (G1 2^16 on one and all threads, G1 2^20,
// G2 2^14, the Filecoin witness shape with 90% 0/1 scalars) and the pieces that the planner's
// cost model needs (one window with XYZZ or batch-affine buckets, by width and batch size).
// Each MSM is seconds long: run with --benchmark_repetitions=3 for medians, not more.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "msm/bucket_affine.hpp"
#include "msm/bucket_xyzz.hpp"
#include "msm/msm.hpp"
#include "msm/signed_windows.hpp"

namespace cuzk {
namespace {

// n random subgroup points: a random walk with 16 random steps (one addition per point).
template <class Curve>
std::vector<Affine<Curve>> make_bases(size_t n) {
  std::mt19937_64 rng(n);
  auto rand_k = [&] {
    BigInt<4> k;
    for (auto& w : k.w)
      w = rng();
    return k;
  };
  const Jacobian<Curve> g = Jacobian<Curve>::generator();
  std::vector<Jacobian<Curve>> steps(16);
  for (auto& s : steps)
    s = scalar_mul_wnaf(g, rand_k());
  std::vector<Jacobian<Curve>> jac(n);
  Jacobian<Curve> p = scalar_mul_wnaf(g, rand_k());
  for (size_t i = 0; i < n; ++i) {
    jac[i] = p;
    p += steps[rng() % 16];
  }
  std::vector<Affine<Curve>> out(n);
  batch_to_affine<Curve>(jac, out);
  return out;
}

// The benchmark binary builds each base set once (several seconds at 2^20).
template <class Curve>
const std::vector<Affine<Curve>>& bases(size_t n) {
  static std::map<size_t, std::vector<Affine<Curve>>> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, make_bases<Curve>(n)).first;
  return it->second;
}

// Random field elements, except that `trivial_percent` of them are 0 or 1 (half each).
std::vector<Fr> make_scalars(size_t n, int trivial_percent) {
  std::mt19937_64 rng(n * 31 + static_cast<size_t>(trivial_percent));
  std::vector<Fr> s(n);
  for (auto& x : s) {
    if (static_cast<int>(rng() % 100) < trivial_percent) {
      x = rng() % 2 ? Fr::one() : Fr::zero();
    } else {
      x = Fr::random(rng);
    }
  }
  return s;
}

// per_point is CPU time (all threads, for the whole-MSM benchmarks) per point: the work, which
// stays meaningful on a shared machine where wall time depends on the neighbours.
void set_counters(benchmark::State& state, size_t n) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.counters["per_point"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

// Args: log2 n, threads (0 = all), bucket mode (0 auto, 1 xyzz, 2 batch affine),
// window bits (0 = planner), percent of 0/1 scalars, fast path (1 on, 0 off).
template <class Curve>
void BM_Msm(benchmark::State& state) {
  const size_t n = size_t{1} << state.range(0);
  ThreadPool pool(static_cast<unsigned>(state.range(1)));
  MsmConfig cfg;
  cfg.buckets = static_cast<BucketMode>(state.range(2));
  cfg.window_bits = static_cast<unsigned>(state.range(3));
  cfg.trivial_fast_path = state.range(5) != 0;
  const auto& b = bases<Curve>(n);
  const std::vector<Fr> s = make_scalars(n, static_cast<int>(state.range(4)));
  for (auto _ : state) {
    Jacobian<Curve> r = msm_pippenger<Curve>(b, s, pool, cfg);
    benchmark::DoNotOptimize(r);
  }
  set_counters(state, n);
  state.counters["threads"] = pool.size();
}

// One window, as a task of the bucket method does it (digit 3 of random scalars). Args: mode
// (1 xyzz, 2 batch affine), window bits, batch size (0 = default), log2 of the point count.
// Two point counts at one width separate the per-point cost from the per-bucket reduction.
template <class Curve>
void BM_Window(benchmark::State& state) {
  const size_t n = size_t{1} << state.range(3);
  const auto& b = bases<Curve>(n);
  const unsigned c = static_cast<unsigned>(state.range(1));
  const SignedWindows sw(c, 255);
  const std::vector<Fr> fr = make_scalars(n, 0);
  std::vector<BigInt<4>> k(n);
  std::vector<uint32_t> idx(n);
  for (size_t i = 0; i < n; ++i) {
    k[i] = sw.prepare(fr[i].to_canonical());
    idx[i] = static_cast<uint32_t>(i);
  }
  for (auto _ : state) {
    Xyzz<Curve> r =
        state.range(0) == 1
            ? window_sum_xyzz<Curve>(sw, 3, k, idx, b)
            : window_sum_batch_affine<Curve>(sw, 3, k, idx, b, static_cast<size_t>(state.range(2)));
    benchmark::DoNotOptimize(r);
  }
  set_counters(state, n);
}

constexpr int kAuto = 0, kXyzz = 1, kAffine = 2;

// The headline numbers.
BENCHMARK(BM_Msm<G1Curve>)
    ->Name("G1_Msm")
    ->ArgNames({"lg", "thr", "mode", "c", "trivial%", "fast"})
    ->Args({16, 1, kAuto, 0, 0, 1})
    ->Args({16, 0, kAuto, 0, 0, 1})
    ->Args({20, 0, kAuto, 0, 0, 1})
    ->Args({16, 0, kAuto, 0, 90, 1})
    ->Args({16, 1, kAuto, 0, 90, 1})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Iterations(1);
BENCHMARK(BM_Msm<G2Curve>)
    ->Name("G2_Msm")
    ->ArgNames({"lg", "thr", "mode", "c", "trivial%", "fast"})
    ->Args({14, 0, kAuto, 0, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Iterations(1);

// Comparisons behind the decisions (filter with --benchmark_filter=Compare).
BENCHMARK(BM_Msm<G1Curve>)
    ->Name("Compare_G1_Msm")
    ->ArgNames({"lg", "thr", "mode", "c", "trivial%", "fast"})
    ->Args({16, 1, kXyzz, 0, 0, 1})
    ->Args({16, 1, kAffine, 0, 0, 1})
    ->Args({16, 1, kXyzz, 12, 0, 1})
    ->Args({16, 1, kXyzz, 14, 0, 1})
    ->Args({16, 1, kAffine, 12, 0, 1})
    ->Args({16, 1, kAffine, 14, 0, 1})
    ->Args({16, 0, kAuto, 0, 90, 0})
    ->Args({20, 0, kAffine, 14, 0, 1})
    ->Args({20, 0, kAffine, 16, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Iterations(1);
BENCHMARK(BM_Msm<G2Curve>)
    ->Name("Compare_G2_Msm")
    ->ArgNames({"lg", "thr", "mode", "c", "trivial%", "fast"})
    ->Args({14, 0, kXyzz, 0, 0, 1})
    ->Args({14, 0, kAffine, 0, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Iterations(1);
void window_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"mode", "c", "batch", "lg"});
  for (int c : {8, 10, 12, 13, 14, 16}) {
    for (int lg : {14, 16}) {
      b->Args({kXyzz, c, 0, lg});
      b->Args({kAffine, c, 0, lg});
    }
  }
  for (int batch : {128, 256, 512, 1024, 2048})
    b->Args({kAffine, 13, batch, 16});
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_Window<G1Curve>)->Name("Compare_G1_Window")->Apply(window_args);
BENCHMARK(BM_Window<G2Curve>)->Name("Compare_G2_Window")->Apply(window_args);

}  // namespace
}  // namespace cuzk
