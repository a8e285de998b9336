// The whole Groth16 quotient (three ifft, three coset_fft, the pointwise step and one icoset_fft)
// with its per-step times as counters. Pool of all hardware threads (BENCH_THREADS=t to change
// it); Time is wall clock. Sizes: see poly_bench_util.hpp.
#include <benchmark/benchmark.h>

#include <utility>

#include "poly/evaluation_domain.hpp"
#include "poly/quotient.hpp"
#include "poly_bench_util.hpp"

namespace cuzk {
namespace {

void BM_Quotient(benchmark::State& state) {
  ThreadPool pool(pool_threads());
  const EvaluationDomain d(static_cast<size_t>(state.range(0)));
  const auto a = random_vector(d.size(), 3), b = random_vector(d.size(), 4),
             c = random_vector(d.size(), 5);
  QuotientTiming sum;
  for (auto _ : state) {
    state.PauseTiming();
    auto a1 = a, b1 = b, c1 = c;
    state.ResumeTiming();
    QuotientTiming t;
    auto h = groth16_quotient(std::move(a1), std::move(b1), std::move(c1), d, pool, &t);
    benchmark::DoNotOptimize(h.data());
    sum.ifft_s += t.ifft_s;
    sum.coset_fft_s += t.coset_fft_s;
    sum.pointwise_s += t.pointwise_s;
    sum.icoset_s += t.icoset_s;
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["ifft_ms"] = 1e3 * sum.ifft_s / iters;
  state.counters["coset_ms"] = 1e3 * sum.coset_fft_s / iters;
  state.counters["pointwise_ms"] = 1e3 * sum.pointwise_s / iters;
  state.counters["icoset_ms"] = 1e3 * sum.icoset_s / iters;
  state.counters["threads"] = pool.size();
}

BENCHMARK(BM_Quotient)->Apply(sizes)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace cuzk
