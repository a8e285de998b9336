// Pairing: Miller loop, final exponentiation, the whole pairing, and a Groth16-shaped
// 4-pairing product (what one proof verification costs).
#include <benchmark/benchmark.h>

#include <utility>
#include <vector>

#include "ec/pairing.hpp"

namespace cuzk {
namespace {

std::vector<std::pair<G1Affine, G2Affine>> pairs(size_t n) {
  std::vector<std::pair<G1Affine, G2Affine>> v;
  G1Jacobian p = G1Jacobian::generator();
  G2Jacobian q = G2Jacobian::generator();
  for (size_t i = 0; i < n; ++i) {
    p = p.dbl() + G1Jacobian::generator();
    q = q.dbl() + G2Jacobian::generator();
    v.emplace_back(p.to_affine(), q.to_affine());
  }
  return v;
}

void BM_MillerLoop(benchmark::State& state) {
  const auto v = pairs(1);
  for (auto _ : state)
    benchmark::DoNotOptimize(miller_loop(v));
}
void BM_FinalExponentiation(benchmark::State& state) {
  Fp12 f = miller_loop(pairs(1));
  for (auto _ : state) {
    f = final_exponentiation(f);
    benchmark::DoNotOptimize(f);
  }
}
void BM_Pairing(benchmark::State& state) {
  const auto v = pairs(1);
  for (auto _ : state)
    benchmark::DoNotOptimize(pairing(v[0].first, v[0].second));
}
void BM_MultiPairing(benchmark::State& state) {
  const auto v = pairs(static_cast<size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(multi_pairing(v));
}
BENCHMARK(BM_MillerLoop)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinalExponentiation)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Pairing)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MultiPairing)->Arg(4)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk
