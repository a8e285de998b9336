// The batched proof (groth16/backend.hpp: prove_front per partition, then aux_msm per section
// over the whole batch) on the CPU backend: partitions of one recorded circuit with different
// witnesses, proved as one batch, each verify for their own public inputs (the pairing check is
// the oracle) and not for another partition's, and equal the proofs made one at a time.
#include <gtest/gtest.h>

#include <random>

#include "cs/proving_assignment.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "pce/recording_cs.hpp"
#include "pce/witness_cs.hpp"
#include "poly/evaluation_domain.hpp"
#include "random_circuit.hpp"

namespace cuzk::groth16 {
namespace {

using testing::RandomCircuit;

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

ProofRandomness randomness(uint64_t seed) {
  std::mt19937_64 rng(seed);
  return {Fr::random(rng), Fr::random(rng)};
}

TEST(Groth16Batch, EachPartitionOfABatchVerifiesAndEqualsItsProofAlone) {
  constexpr size_t kRows = 600, kPartitions = 3;
  std::vector<RandomCircuit> circuits;
  for (uint64_t k = 0; k < kPartitions; ++k)
    circuits.emplace_back(kRows, 3, 42, 1000 + k);  // one shape, three witnesses
  ASSERT_NE(circuits[0].public_inputs(), circuits[1].public_inputs());
  const Parameters params =
      generate_parameters_insecure(circuits[0], ToxicWaste::insecure_from_seed("batch"), pool());
  const PreparedVerifyingKey pvk = prepare_verifying_key(params.vk);
  pce::RecordingCS rec;
  circuits[0].synthesize(rec);
  const pce::RecordedCircuit rc = std::move(rec).finish({"random", kRows, "batch", 1});
  std::vector<pce::CompactWitness> witnesses;
  std::vector<PartitionInput> inputs;
  for (const RandomCircuit& c : circuits) {
    pce::WitnessCS cs(&pool());
    c.synthesize(cs);
    witnesses.push_back(std::move(cs).finish());
  }
  for (const pce::CompactWitness& w : witnesses)
    inputs.push_back(PartitionInput::recorded(w, rc));
  ASSERT_NE(witnesses[0].aux_ones, witnesses[1].aux_ones);

  CpuBackend cpu(pool());
  std::vector<MsmSums> sums;
  std::vector<ProverTiming> timings(kPartitions);
  for (size_t k = 0; k < kPartitions; ++k)
    sums.push_back(cpu.prove_front(params, inputs[k], &timings[k]));
  for (const AuxSection section : kAuxSections)
    cpu.aux_msm(params, section, inputs, sums, timings);
  for (size_t k = 0; k < kPartitions; ++k) {
    const ProofRandomness r = randomness(k + 7);
    const Proof batched = assemble_proof(params.vk, sums[k], r);
    EXPECT_TRUE(verify_proof(pvk, batched, circuits[k].public_inputs())) << k;
    EXPECT_FALSE(verify_proof(pvk, batched, circuits[(k + 1) % kPartitions].public_inputs()));
    EXPECT_EQ(encode_proof(batched), encode_proof(cpu.prove(params, inputs[k], r, nullptr))) << k;
    // Each partition's timing got its share of every section.
    EXPECT_GT(timings[k].msm_l_s, 0);
  }
}

TEST(Groth16Batch, ABatchOfTwoShapesOrMismatchedSpansIsRefused) {
  const RandomCircuit a(200, 2, 1, 10), b(300, 2, 2, 10);
  const Parameters params =
      generate_parameters_insecure(a, ToxicWaste::insecure_from_seed("two shapes"), pool());
  const auto record = [](const RandomCircuit& c, size_t rows) {
    pce::RecordingCS rec;
    c.synthesize(rec);
    return std::move(rec).finish({"random", rows, "x", 1});
  };
  const pce::RecordedCircuit ra = record(a, 200), rb = record(b, 300);
  const auto witness = [](const RandomCircuit& c) {
    pce::WitnessCS cs(&pool());
    c.synthesize(cs);
    return std::move(cs).finish();
  };
  const pce::CompactWitness wa = witness(a), wb = witness(b);
  CpuBackend cpu(pool());
  std::vector<PartitionInput> inputs = {PartitionInput::recorded(wa, ra),
                                        PartitionInput::recorded(wb, rb)};
  std::vector<MsmSums> sums(2);
  std::vector<ProverTiming> timings(2);
  // b does not fit a's parameters (and is another circuit).
  EXPECT_THROW(cpu.aux_msm(params, AuxSection::kL, inputs, sums, timings), std::invalid_argument);
  inputs.pop_back();
  EXPECT_THROW(cpu.aux_msm(params, AuxSection::kL, inputs, sums, timings), std::invalid_argument);
  EXPECT_THROW(cpu.aux_msm(params, AuxSection::kL, {}, {}, {}), std::invalid_argument);
}

// The section lengths are counted once a batch (from its first partition); every later
// partition is still checked for what is its own: its witness, and a shape equal to the first.
TEST(Groth16Batch, ALaterPartitionsOwnFaultIsCaughtThoughTheFirstFits) {
  const RandomCircuit c(200, 2, 1, 10);
  const Parameters params =
      generate_parameters_insecure(c, ToxicWaste::insecure_from_seed("later"), pool());
  pce::RecordingCS rec;
  c.synthesize(rec);
  const pce::RecordedCircuit rc = std::move(rec).finish({"random", 200, "later", 1});
  pce::WitnessCS cs(&pool());
  c.synthesize(cs);
  const pce::CompactWitness good = std::move(cs).finish();
  pce::CompactWitness not_one = good;
  not_one.inputs[0] = Fr::zero();
  pce::CompactWitness short_aux = good;
  short_aux.num_aux -= 1;
  CpuBackend cpu(pool());
  std::vector<MsmSums> sums(2);
  std::vector<ProverTiming> timings(2);
  const auto refusal = [&](const pce::CompactWitness& second) {
    const std::vector<PartitionInput> inputs = {PartitionInput::recorded(good, rc),
                                                PartitionInput::recorded(second, rc)};
    try {
      cpu.aux_msm(params, AuxSection::kL, inputs, sums, timings);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal(not_one).find("input 0 of the witness is not ONE"), std::string::npos);
  EXPECT_NE(refusal(short_aux).find("the recorded circuit"), std::string::npos);
  EXPECT_EQ(refusal(good), "accepted");

  // Evaluated partitions (no recorded circuit): equal densities, but the second has half the
  // rows, so a smaller domain than the one h was made for.
  ProvingAssignment pa;
  c.synthesize(pa);
  pa.add_input_constraints();
  const std::span<const Fr> sa(pa.a), sb(pa.b), sc(pa.c);
  const size_t half = sa.size() / 2;
  ASSERT_LT(EvaluationDomain::for_size(half).size(), EvaluationDomain::for_size(sa.size()).size());
  const std::vector<PartitionInput> uneven = {
      PartitionInput::evaluated(good, sa, sb, sc, pa.a_aux_density, pa.b_input_density,
                                pa.b_aux_density),
      PartitionInput::evaluated(good, sa.first(half), sb.first(half), sc.first(half),
                                pa.a_aux_density, pa.b_input_density, pa.b_aux_density)};
  EXPECT_THROW(cpu.aux_msm(params, AuxSection::kL, uneven, sums, timings), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16
