#include "selfcheck.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <random>

#include "ec/encoding.hpp"
#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "ec/pairing.hpp"
#include "ff/cpu_features.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "oracle/bls_vectors.hpp"

namespace cuzk::app {
namespace {

// Median-free quick timing: runs `step` (a latency-chained operation) until ~budget elapses.
template <class Step>
double ns_per_op(Step&& step, double budget_s = 0.15) {
  using clock = std::chrono::steady_clock;
  size_t iters = 1;
  for (;;) {
    const auto t0 = clock::now();
    for (size_t i = 0; i < iters; ++i)
      step();
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (s >= budget_s) return s * 1e9 / static_cast<double>(iters);
    iters *= s < budget_s / 16 ? 8 : 2;
  }
}

struct Row {
  const char* op;
  double blst_ns;  // blst on the same machine kind, single thread (issue #2)
  double ours_ns;
};

void print_bench() {
  std::mt19937_64 rng(42);
  Fp a = Fp::random(rng), b = Fp::random(rng);
  Fr c = Fr::random(rng), d = Fr::random(rng);
  G1Jacobian p = G1Jacobian::generator().dbl(), q = p.dbl().dbl();
  const G1Affine qa = q.to_affine();
  G2Jacobian p2 = G2Jacobian::generator();
  const Fr k = Fr::random(rng);
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  Gt sink;

  const Row rows[] = {
      {"Fp mul", 67, ns_per_op([&] { a = a * b; })},
      {"Fp square", 0, ns_per_op([&] { a = a.sqr(); })},
      {"Fp inverse", 0, ns_per_op([&] { a = a.inv() + b; })},
      {"Fr mul", 35, ns_per_op([&] { c = c * d; })},
      {"G1 add (Jacobian)", 1400, ns_per_op([&] { p = p + q; })},
      {"G1 mixed add", 1050, ns_per_op([&] { p = p.add_mixed(qa); })},
      {"G1 double", 0, ns_per_op([&] { p = p.dbl(); })},
      {"G1 scalar mul (GLV)", 176000, ns_per_op([&] { p = g1_mul(p, k); })},
      {"G2 scalar mul (GLS)", 380000, ns_per_op([&] { p2 = g2_mul(p2, k); })},
      {"pairing", 1300000, ns_per_op([&] { sink = pairing(g1, g2); })},
  };
  std::printf("\n%-22s %12s %12s %8s\n", "operation", "cuzk ns", "blst ns", "ratio");
  for (const Row& r : rows) {
    if (r.blst_ns > 0) {
      std::printf("%-22s %12.1f %12.1f %8.2f\n", r.op, r.ours_ns, r.blst_ns, r.ours_ns / r.blst_ns);
    } else {
      std::printf("%-22s %12.1f %12s %8s\n", r.op, r.ours_ns, "-", "-");
    }
  }
  std::printf("(single thread, latency-chained; field path: %s; sinks %d%d)\n",
              ff::kUseAdx ? "mulx/adx assembly" : "portable C++", a.is_zero(), sink.is_one());
}

}  // namespace

int run_selfcheck(const SelfcheckOptions& opts) {
  std::printf("cuzk selfcheck: BLS12-381 arithmetic against %s\n", opts.vectors_dir.c_str());
  std::vector<oracle::CheckReport> reports;
  try {
    reports = oracle::check_all(opts.vectors_dir);
  } catch (const std::exception& e) {
    std::fprintf(
        stderr,
        "error: %s\n(set CUZK_VECTORS_DIR or --vectors to the bls12_381 vector directory)\n",
        e.what());
    return 2;
  }
  size_t failed = 0;
  std::printf("\n%-14s %8s %8s\n", "file", "checks", "failed");
  for (const auto& r : reports) {
    std::printf("%-14s %8zu %8zu\n", r.file.c_str(), r.checked, r.failed);
    for (const auto& f : r.failures)
      std::printf("    FAIL %s\n", f.c_str());
    failed += r.failed + (r.checked == 0 ? 1 : 0);
  }
  std::printf("%s\n", failed == 0 ? "all vector checks passed" : "VECTOR CHECKS FAILED");
  if (opts.bench) print_bench();
  return failed == 0 ? 0 : 1;
}

}  // namespace cuzk::app
