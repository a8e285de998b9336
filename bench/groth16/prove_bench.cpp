// Whole Groth16 proofs on the CPU, all cores: the circom bench fixture (65,000 constraints, domain
// 2^16, full-width witness; snarkjs takes 16-18 s on the 2-core development machine) and random
// circuits. Per-phase seconds are reported as counters.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/verifier.hpp"
#include "random_circuit.hpp"
#include "sha_chain_circuit.hpp"

namespace cuzk::groth16 {
namespace {

std::filesystem::path bench_fixture(const char* file) {
  const char* env = std::getenv("CUZK_SHARED_DIR");
  const std::filesystem::path shared =
      env != nullptr ? env : std::filesystem::path(CUZK_SOURCE_DIR) / ".." / "shared";
  return shared / "fixtures" / "circom-bls12381-bench" / file;
}

void report(benchmark::State& state, const ProverTiming& t) {
  state.counters["quotient_s"] = t.quotient_s;
  state.counters["msm_h_s"] = t.msm_h_s;
  state.counters["msm_l_s"] = t.msm_l_s;
  state.counters["msm_a_s"] = t.msm_a_s;
  state.counters["msm_b1_s"] = t.msm_b_g1_s;
  state.counters["msm_b2_s"] = t.msm_b_g2_s;
  state.counters["synth_s"] = t.synthesis_s;
}

void BM_Prove_CircomBenchFixture(benchmark::State& state) {
  if (!std::filesystem::exists(bench_fixture("circuit_final.zkey"))) {
    state.SkipWithError("circom-bls12381-bench fixture not found");
    return;
  }
  const Zkey zkey = read_zkey(bench_fixture("circuit_final.zkey"),
                              SubgroupCheck::kSkipTrusted);  // the fixture is trusted
  const std::vector<Fr> witness = read_wtns(bench_fixture("witness.wtns"));
  ThreadPool pool;
  ProverTiming t;
  for (auto _ : state)
    benchmark::DoNotOptimize(prove_zkey(zkey, witness, ProofRandomness::from_os(), pool, &t));
  report(state, t);
}
BENCHMARK(BM_Prove_CircomBenchFixture)->Unit(benchmark::kSecond)->Iterations(3)->UseRealTime();

void BM_Prove_RandomCircuit(benchmark::State& state) {
  const testing::RandomCircuit circuit(static_cast<size_t>(state.range(0)), 4, 1);
  ThreadPool pool;
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("bench"), pool);
  ProverTiming t;
  for (auto _ : state)
    benchmark::DoNotOptimize(prove(params, circuit, ProofRandomness::from_os(), pool, &t));
  report(state, t);
}
BENCHMARK(BM_Prove_RandomCircuit)
    ->Arg(1 << 16)
    ->Unit(benchmark::kSecond)
    ->Iterations(3)
    ->UseRealTime();

// ~2^20 constraints at 40 compressions (issue #3's "chain of SHA-256 compressions"). The setup
// (not timed) dominates the run.
void BM_Prove_ShaChain(benchmark::State& state) {
  std::array<uint8_t, 64> block{};
  for (size_t i = 0; i < block.size(); ++i)
    block[i] = static_cast<uint8_t>(i);
  const testing::ShaChainCircuit circuit(static_cast<size_t>(state.range(0)), block);
  ThreadPool pool;
  const auto t0 = std::chrono::steady_clock::now();
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("bench"), pool);
  const double setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ProverTiming t;
  for (auto _ : state)
    benchmark::DoNotOptimize(prove(params, circuit, ProofRandomness::from_os(), pool, &t));
  report(state, t);
  state.counters["setup_s"] = setup_s;
  state.counters["constraints"] = static_cast<double>(params.h.size() + 1);
}
BENCHMARK(BM_Prove_ShaChain)->Arg(40)->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();

void BM_Verify(benchmark::State& state) {
  const testing::RandomCircuit circuit(64, 4, 1);
  ThreadPool pool;
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("bench"), pool);
  const Proof proof = prove(params, circuit, ProofRandomness::from_os(), pool);
  const PreparedVerifyingKey pvk = prepare_verifying_key(params.vk);
  for (auto _ : state)
    benchmark::DoNotOptimize(verify_proof(pvk, proof, circuit.public_inputs()));
}
BENCHMARK(BM_Verify)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::groth16
