// Field arithmetic microbenchmarks. Run with CUZK_FF_PORTABLE=1 to time the portable path.
#include <benchmark/benchmark.h>

#include <random>

#include "ff/fp12.hpp"
#include "ff/fr.hpp"

namespace cuzk {
namespace {

template <class F>
void BM_Mul(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
// The same chain with the in-place product (no temporary to copy).
template <class F>
void BM_MulAssign(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a *= b;
    benchmark::DoNotOptimize(a);
  }
}
template <class F>
void BM_MulPortable(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a = F::from_mont(F::mul_portable(a.mont(), b.mont()));
    benchmark::DoNotOptimize(a);
  }
}
template <class F>
void BM_Sqr(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  for (auto _ : state) {
    a = a.sqr();
    benchmark::DoNotOptimize(a);
  }
}
template <class F>
void BM_Add(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
template <class F>
void BM_Inv(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a = a.inv() + b;  // + b keeps the chain off the fixed point a = a^-1
    benchmark::DoNotOptimize(a);
  }
}
template <class F>
void BM_Sqrt(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng).sqr();
  for (auto _ : state) {
    auto r = a.sqrt();
    benchmark::DoNotOptimize(r);
  }
}

BENCHMARK(BM_Mul<Fp>)->Name("BM_Fp_Mul");
BENCHMARK(BM_MulAssign<Fp>)->Name("BM_Fp_MulAssign");
BENCHMARK(BM_MulPortable<Fp>)->Name("BM_Fp_MulPortable");
BENCHMARK(BM_Sqr<Fp>)->Name("BM_Fp_Sqr");
BENCHMARK(BM_Add<Fp>)->Name("BM_Fp_Add");
BENCHMARK(BM_Inv<Fp>)->Name("BM_Fp_Inv");
BENCHMARK(BM_Sqrt<Fp>)->Name("BM_Fp_Sqrt");
BENCHMARK(BM_Mul<Fr>)->Name("BM_Fr_Mul");
BENCHMARK(BM_MulAssign<Fr>)->Name("BM_Fr_MulAssign");
BENCHMARK(BM_MulPortable<Fr>)->Name("BM_Fr_MulPortable");
BENCHMARK(BM_Sqr<Fr>)->Name("BM_Fr_Sqr");
BENCHMARK(BM_Inv<Fr>)->Name("BM_Fr_Inv");
BENCHMARK(BM_Sqrt<Fr>)->Name("BM_Fr_Sqrt");
BENCHMARK(BM_Mul<Fp2>)->Name("BM_Fp2_Mul");
BENCHMARK(BM_Sqr<Fp2>)->Name("BM_Fp2_Sqr");
BENCHMARK(BM_Mul<Fp12>)->Name("BM_Fp12_Mul");
BENCHMARK(BM_Sqr<Fp12>)->Name("BM_Fp12_Sqr");

void BM_Fp12_CyclotomicSqr(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const Fp12 f = Fp12::random(rng);
  Fp12 a = f.conjugate() * f.inv();
  a = a.frobenius(2) * a;  // into the cyclotomic subgroup
  for (auto _ : state) {
    a = a.cyclotomic_sqr();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12_CyclotomicSqr);

// Karabina's compressed squaring (the final exponentiation's squarings).
void BM_Fp12_CompressedSqr(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const Fp12 f = Fp12::random(rng);
  Fp12 a = f.conjugate() * f.inv();
  a = a.frobenius(2) * a;
  Fp12::Compressed c = a.compress();
  for (auto _ : state) {
    c = Fp12::compressed_sqr(c);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_Fp12_CompressedSqr);

}  // namespace
}  // namespace cuzk
