// The checks of `cuzk-bench kernels`: every GPU kernel against its CPU twin at a small size.
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpu/device/device_buffer.hpp"
#include "gpu/msm/msm.hpp"
#include "gpu/ntt/ntt.hpp"
#include "gpu/ntt/quotient.hpp"
#include "gpu/prover/gpu_backend.hpp"
#include "gpu_kernels/field_twins.hpp"
#include "kernels_cmd.hpp"
#include "msm/msm.hpp"
#include "msm_test_util.hpp"
#include "poly/fft.hpp"
#include "poly/quotient.hpp"

namespace cuzk::bench {

namespace {

std::vector<Fr> random_frs(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v)
    x = Fr::random(rng);
  return v;
}

template <class F>
bool field_ok(std::mt19937_64& rng) {
  std::vector<F> a(4096), b(4096);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = F::random(rng);
    b[i] = i % 5 == 0 ? -F::one() : F::random(rng);
  }
  const std::vector<F> out = gpu::twins::field_ops<F>(a, b);
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(out[4 * i] == a[i] + b[i]) || !(out[4 * i + 1] == a[i] - b[i]) ||
        !(out[4 * i + 2] == a[i] * b[i]) || !(out[4 * i + 3] == a[i].sqr()))
      return false;
  }
  return true;
}

bool ntt_ok(std::mt19937_64& rng, ThreadPool& pool) {
  gpu::Stream s;
  gpu::NttEngine ntt(s.get());
  const EvaluationDomain d(12);
  const std::vector<Fr> v = random_frs(d.size(), rng);
  for (int kind = 0; kind < 4; ++kind) {
    std::vector<Fr> want = v;
    gpu::DeviceBuffer<Fr> dv(d.size());
    dv.upload(v, s.get());
    switch (kind) {
      case 0:
        fft(want, d, pool);
        ntt.fft(dv.get(), d);
        break;
      case 1:
        ifft(want, d, pool);
        ntt.ifft(dv.get(), d);
        break;
      case 2:
        coset_fft(want, d, pool);
        ntt.coset_fft(dv.get(), d);
        break;
      default:
        icoset_fft(want, d, pool);
        ntt.icoset_fft(dv.get(), d);
    }
    std::vector<Fr> got(d.size());
    dv.download(got, s.get());
    s.sync();
    if (got != want) return false;
  }
  return true;
}

bool quotient_ok(std::mt19937_64& rng, ThreadPool& pool) {
  gpu::Stream s;
  gpu::NttEngine ntt(s.get());
  const EvaluationDomain d(12);
  const size_t m = d.size() - 7;
  const std::vector<Fr> a = random_frs(m, rng), b = random_frs(m, rng), c = random_frs(m, rng);
  return gpu::groth16_quotient(a, b, c, d, ntt) == groth16_quotient(a, b, c, d, pool);
}

template <class Curve>
bool msm_ok(size_t n, std::mt19937_64& rng, ThreadPool& pool) {
  gpu::GpuBackend gpu;
  const auto bases = msm_test::random_bases<Curve>(n, rng);
  const std::vector<Fr> s = random_frs(n, rng);
  Jacobian<Curve> got;
  if constexpr (std::is_same_v<Curve, G1Curve>) {
    got = gpu.msm_g1(bases, s);
  } else {
    got = gpu.msm_g2(bases, s);
  }
  return got.to_affine() == msm_pippenger<Curve>(bases, s, pool).to_affine();
}

bool split_ok(std::mt19937_64& rng, ThreadPool& pool) {
  gpu::GpuBackend gpu;
  const size_t n = 4096;
  DensityTracker density;
  std::vector<Fr> s(n);
  for (size_t i = 0; i < n; ++i) {
    density.add_element();
    if (rng() % 4 != 0) density.set(i);
    const unsigned kind = rng() % 10;
    s[i] = kind < 4 ? Fr::zero() : kind < 8 ? Fr::one() : Fr::random(rng);
  }
  const auto bases = msm_test::random_bases<G1Curve>(density.popcount(), rng);
  return gpu.msm_g1(bases, density, s).to_affine() ==
         msm_pippenger<G1Curve>(bases, density, s, pool).to_affine();
}

bool batch_add_ok(std::mt19937_64& rng) {
  const size_t n = 1 << 14;
  const auto bases = msm_test::random_bases<G1Curve>(n, rng);
  std::vector<uint32_t> bits(n / 32);
  G1Jacobian want;
  for (size_t i = 0; i < n; ++i) {
    if (rng() % 2) {
      bits[i / 32] |= 1u << (i % 32);
      want = want.add_mixed(bases[i]);
    }
  }
  gpu::Stream s;
  gpu::MsmWorkspace ws;
  gpu::DeviceBuffer<G1Affine> d_b(n);
  gpu::DeviceBuffer<uint32_t> d_bits(bits.size());
  d_b.upload(bases, s.get());
  d_bits.upload(bits, s.get());
  return gpu::batch_add<G1Curve>(d_b.get(), d_bits.get(), n, ws, s.get()).to_affine() ==
         want.to_affine();
}

}  // namespace

int run_kernel_checks(unsigned threads) {
  ThreadPool pool(threads);
  std::mt19937_64 rng(2026);
  const std::vector<std::pair<std::string, std::function<bool()>>> checks = {
      {"Fr add/sub/mul/sqr x4096 vs ff/", [&] { return field_ok<Fr>(rng); }},
      {"Fp add/sub/mul/sqr x4096 vs ff/", [&] { return field_ok<Fp>(rng); }},
      {"Fp2 add/sub/mul/sqr x4096 vs ff/", [&] { return field_ok<Fp2>(rng); }},
      {"NTT 2^12 fwd/inv/coset/icoset vs poly/fft", [&] { return ntt_ok(rng, pool); }},
      {"H chain 2^12 vs poly/quotient", [&] { return quotient_ok(rng, pool); }},
      {"MSM G1 2^12 vs msm/ (CPU Pippenger)", [&] { return msm_ok<G1Curve>(4096, rng, pool); }},
      {"MSM G2 2^10 vs msm/ (CPU Pippenger)", [&] { return msm_ok<G2Curve>(1024, rng, pool); }},
      {"split MSM G1 2^12, density + 0/1 vs msm/", [&] { return split_ok(rng, pool); }},
      {"batch addition 2^14 vs naive sum", [&] { return batch_add_ok(rng); }},
  };
  int failed = 0;
  for (const auto& [name, check] : checks) {
    const bool ok = check();
    failed += ok ? 0 : 1;
    std::printf("check %-45s %s\n", name.c_str(), ok ? "ok" : "MISMATCH");
    std::fflush(stdout);
  }
  return failed;
}

}  // namespace cuzk::bench
