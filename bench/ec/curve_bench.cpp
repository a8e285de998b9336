// G1/G2 point arithmetic, scalar multiplication, subgroup checks and decoding.
#include <benchmark/benchmark.h>

#include <random>

#include "ec/encoding.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"

namespace cuzk {
namespace {

template <class Curve>
Jacobian<Curve> some_point(int k) {
  Jacobian<Curve> p = Jacobian<Curve>::generator();
  for (int i = 0; i < k; ++i)
    p = p.dbl() + Jacobian<Curve>::generator();
  return p;
}

template <class Curve>
void BM_Add(benchmark::State& state) {
  Jacobian<Curve> a = some_point<Curve>(3);
  const Jacobian<Curve> b = some_point<Curve>(5);
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
template <class Curve>
void BM_AddMixed(benchmark::State& state) {
  Jacobian<Curve> a = some_point<Curve>(3);
  const Affine<Curve> b = some_point<Curve>(5).to_affine();
  for (auto _ : state) {
    a = a.add_mixed(b);
    benchmark::DoNotOptimize(a);
  }
}
template <class Curve>
void BM_Dbl(benchmark::State& state) {
  Jacobian<Curve> a = some_point<Curve>(3);
  for (auto _ : state) {
    a = a.dbl();
    benchmark::DoNotOptimize(a);
  }
}
template <class Curve>
void BM_XyzzAddMixed(benchmark::State& state) {
  Xyzz<Curve> a = Xyzz<Curve>::from_affine(some_point<Curve>(3).to_affine());
  const Affine<Curve> b = some_point<Curve>(5).to_affine();
  for (auto _ : state) {
    a = a.add_mixed(b);
    benchmark::DoNotOptimize(a);
  }
}

BENCHMARK(BM_Add<G1Curve>)->Name("BM_G1_Add");
BENCHMARK(BM_AddMixed<G1Curve>)->Name("BM_G1_AddMixed");
BENCHMARK(BM_Dbl<G1Curve>)->Name("BM_G1_Dbl");
BENCHMARK(BM_XyzzAddMixed<G1Curve>)->Name("BM_G1_XyzzAddMixed");
BENCHMARK(BM_Add<G2Curve>)->Name("BM_G2_Add");
BENCHMARK(BM_AddMixed<G2Curve>)->Name("BM_G2_AddMixed");
BENCHMARK(BM_Dbl<G2Curve>)->Name("BM_G2_Dbl");
BENCHMARK(BM_XyzzAddMixed<G2Curve>)->Name("BM_G2_XyzzAddMixed");

Fr bench_scalar() {
  std::mt19937_64 rng(7);
  return Fr::random(rng);
}

void BM_G1_ScalarMulGlv(benchmark::State& state) {
  G1Jacobian p = G1Jacobian::generator();
  const Fr k = bench_scalar();
  for (auto _ : state) {
    p = g1_mul(p, k);
    benchmark::DoNotOptimize(p);
  }
}
void BM_G1_ScalarMulWnaf(benchmark::State& state) {
  G1Jacobian p = G1Jacobian::generator();
  const auto k = bench_scalar().to_canonical();
  for (auto _ : state) {
    p = scalar_mul_wnaf(p, k);
    benchmark::DoNotOptimize(p);
  }
}
void BM_G2_ScalarMulGls(benchmark::State& state) {
  G2Jacobian p = G2Jacobian::generator();
  const Fr k = bench_scalar();
  for (auto _ : state) {
    p = g2_mul(p, k);
    benchmark::DoNotOptimize(p);
  }
}
void BM_G2_ScalarMulWnaf(benchmark::State& state) {
  G2Jacobian p = G2Jacobian::generator();
  const auto k = bench_scalar().to_canonical();
  for (auto _ : state) {
    p = scalar_mul_wnaf(p, k);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(BM_G1_ScalarMulGlv)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1_ScalarMulWnaf)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2_ScalarMulGls)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2_ScalarMulWnaf)->Unit(benchmark::kMicrosecond);

void BM_G1_SubgroupCheck(benchmark::State& state) {
  const G1Jacobian p = some_point<G1Curve>(9);
  for (auto _ : state)
    benchmark::DoNotOptimize(g1_is_in_subgroup(p));
}
void BM_G2_SubgroupCheck(benchmark::State& state) {
  const G2Jacobian p = some_point<G2Curve>(9);
  for (auto _ : state)
    benchmark::DoNotOptimize(g2_is_in_subgroup(p));
}
void BM_G1_DecodeCompressed(benchmark::State& state) {
  const auto bytes = encode_compressed(some_point<G1Curve>(9).to_affine());
  for (auto _ : state)
    benchmark::DoNotOptimize(decode_g1(bytes));
}
void BM_G2_DecodeCompressed(benchmark::State& state) {
  const auto bytes = encode_compressed(some_point<G2Curve>(9).to_affine());
  for (auto _ : state)
    benchmark::DoNotOptimize(decode_g2(bytes));
}
void BM_G1_DecodeUncompressedTrusted(benchmark::State& state) {
  const auto bytes = encode_uncompressed(some_point<G1Curve>(9).to_affine());
  for (auto _ : state)
    benchmark::DoNotOptimize(decode_g1(bytes, SubgroupCheck::kSkipTrusted));
}
BENCHMARK(BM_G1_SubgroupCheck)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2_SubgroupCheck)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1_DecodeCompressed)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2_DecodeCompressed)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1_DecodeUncompressedTrusted)->Unit(benchmark::kMicrosecond);

void BM_G1_BatchToAffine(benchmark::State& state) {
  std::vector<G1Jacobian> in(static_cast<size_t>(state.range(0)));
  G1Jacobian p = G1Jacobian::generator();
  for (auto& q : in)
    q = p = p.dbl();
  std::vector<G1Affine> out(in.size());
  for (auto _ : state) {
    batch_to_affine<G1Curve>(in, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_G1_BatchToAffine)->Arg(1024)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk
