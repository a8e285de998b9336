// Transform benchmarks: the public fft and coset_fft, the network alone under each plan, the
// permutation, the twiddle table, and in-cache butterflies (one core) that explain the costs.
// Pool of all hardware threads (BENCH_THREADS=t to change it); Time is wall clock, CPU the
// calling thread only. Sizes: see poly_bench_util.hpp.
#include <benchmark/benchmark.h>

#include "poly/butterfly.hpp"
#include "poly/evaluation_domain.hpp"
#include "poly/fft.hpp"
#include "poly/fft_kernels.hpp"
#include "poly_bench_util.hpp"

namespace cuzk {
namespace {

// Independent products (the butterfly's multiplication without the data movement): ns per product.
void BM_FrMulThroughput(benchmark::State& state) {
  auto v = random_vector(4096, 7);
  const auto w = random_vector(4096, 8);
  for (auto _ : state) {
    for (size_t i = 0; i < v.size(); ++i)
      v[i] *= w[i];
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(v.size()));
}

// In-cache radix-2 butterflies x, y <- x + w y, x - w y: ns per butterfly.
void BM_ButterflyThroughput(benchmark::State& state) {
  auto x = random_vector(2048, 7), y = random_vector(2048, 8);
  const auto w = random_vector(2048, 9);
  for (auto _ : state) {
    for (size_t i = 0; i < x.size(); ++i) {
      const Fr u = y[i] * w[i];
      y[i] = x[i] - u;
      x[i] = x[i] + u;
    }
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(x.size()));
}

// The same with the branch-free add/sub of the transforms.
void BM_ButterflyThroughputBranchFree(benchmark::State& state) {
  auto x = random_vector(2048, 7), y = random_vector(2048, 8);
  const auto w = random_vector(2048, 9);
  for (auto _ : state) {
    for (size_t i = 0; i < x.size(); ++i)
      fft_detail::add_sub(x[i], y[i] * w[i], x[i], y[i]);
    benchmark::DoNotOptimize(x.data());
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(x.size()));
}

void BM_Fft(benchmark::State& state) {
  ThreadPool pool(pool_threads());
  const EvaluationDomain d(static_cast<size_t>(state.range(0)));
  auto v = random_vector(d.size(), 1);
  for (auto _ : state) {
    fft(v, d, pool);
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["threads"] = pool.size();
}

void BM_CosetFft(benchmark::State& state) {
  ThreadPool pool(pool_threads());
  const EvaluationDomain d(static_cast<size_t>(state.range(0)));
  auto v = random_vector(d.size(), 2);
  for (auto _ : state) {
    coset_fft(v, d, pool);
    benchmark::DoNotOptimize(v.data());
  }
}

// The network alone (args: log n, blocked, log block), for tuning.
void BM_FftKernel(benchmark::State& state) {
  ThreadPool pool(pool_threads());
  const EvaluationDomain d(static_cast<size_t>(state.range(0)));
  const fft_detail::Plan plan{state.range(1) != 0, static_cast<size_t>(state.range(2))};
  const auto tw = fft_detail::twiddle_table(d.omega(), d.size(), pool);
  auto v = random_vector(d.size(), 6);
  for (auto _ : state) {
    fft_detail::dft_natural_to_bitrev(v, tw, pool, plan);
    benchmark::DoNotOptimize(v.data());
  }
}

void BM_BitReverse(benchmark::State& state) {
  ThreadPool pool(pool_threads());
  auto v = random_vector(size_t{1} << state.range(0), 10);
  for (auto _ : state) {
    fft_detail::bit_reverse(v, pool);
    benchmark::DoNotOptimize(v.data());
  }
}

void BM_TwiddleTable(benchmark::State& state) {
  ThreadPool pool(pool_threads());
  const EvaluationDomain d(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    auto tw = fft_detail::twiddle_table(d.omega(), d.size(), pool);
    benchmark::DoNotOptimize(tw.data());
  }
}

BENCHMARK(BM_FrMulThroughput);
BENCHMARK(BM_ButterflyThroughput);
BENCHMARK(BM_ButterflyThroughputBranchFree);
BENCHMARK(BM_Fft)->Apply(sizes)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CosetFft)->Apply(sizes)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TwiddleTable)->Apply(sizes)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BitReverse)->Apply(sizes)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FftKernel)
    ->ArgsProduct({{16, 20}, {0}, {0}})
    ->ArgsProduct({{16, 20}, {1}, {10, 12, 14}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace cuzk
