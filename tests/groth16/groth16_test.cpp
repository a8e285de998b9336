// Groth16 on the CPU: setup -> prove -> verify on random circuits, the prover against a scalar
// recomputation from the toxic waste, batch verification, and rejection of wrong inputs/proofs.
#include <gtest/gtest.h>

#include <random>

#include "cs/key_assembly.hpp"
#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "pce/recording_cs.hpp"
#include "pce/witness_cs.hpp"
#include "random_circuit.hpp"
#include "sha_chain_circuit.hpp"

namespace cuzk::groth16 {
namespace {

using testing::RandomCircuit;

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

ProofRandomness fixed_randomness(uint64_t seed) {
  std::mt19937_64 rng(seed);
  return {Fr::random(rng), Fr::random(rng)};
}

TEST(Groth16, RandomCircuitIsSatisfiedInTestCs) {
  RandomCircuit circuit(300, 3, 1);
  TestConstraintSystem cs;
  circuit.synthesize(cs);
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  EXPECT_EQ(cs.num_inputs(), 4u);
  EXPECT_EQ(cs.num_constraints(), 300u);
}

class Groth16RoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(Groth16RoundTrip, ProofOfRandomCircuitVerifiesAndWrongInputsFail) {
  const size_t n = size_t{1} << GetParam();
  const RandomCircuit circuit(n, 3, 100 + GetParam());
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("roundtrip"), pool());
  const Proof proof = prove(params, circuit, ProofRandomness::from_os(), pool());
  const PreparedVerifyingKey pvk = prepare_verifying_key(params.vk);
  std::vector<Fr> inputs = circuit.public_inputs();
  EXPECT_TRUE(verify_proof(pvk, proof, inputs));
  inputs[1] += Fr::one();
  EXPECT_FALSE(verify_proof(pvk, proof, inputs));
}
INSTANTIATE_TEST_SUITE_P(Sizes, Groth16RoundTrip, ::testing::Values(4, 6, 8, 10, 12, 16));

// Knowing the toxic waste, the proof is determined by scalars: A = (alpha + sum w_i u_i + r delta)
// G1, B likewise in G2, C from the QAP identity at tau. The u_i, v_i, w_i come from the recorded
// R1CS and the Lagrange basis at tau computed here independently (naive product formula).
TEST(Groth16, ProofEqualsScalarRecomputationFromToxicWaste) {
  const RandomCircuit circuit(37, 2, 7);
  const ToxicWaste tw = ToxicWaste::insecure_from_seed("scalar check");
  const Parameters params = generate_parameters_insecure(circuit, tw, pool());
  const ProofRandomness rand = fixed_randomness(3);
  const Proof proof = prove(params, circuit, rand, pool());

  KeyAssembly ka;
  circuit.synthesize(ka);
  const R1cs r1cs = ka.finish();
  ProvingAssignment pa;
  circuit.synthesize(pa);
  std::vector<Fr> wit = pa.input_assignment;
  wit.insert(wit.end(), pa.aux_assignment.begin(), pa.aux_assignment.end());

  size_t m = 1;
  while (m < r1cs.num_constraints)
    m <<= 1;
  Fr omega = kFrTwoAdicRoot;
  for (size_t s = m; s < (size_t{1} << 32); s <<= 1)
    omega = omega.sqr();
  std::vector<Fr> points(m);
  points[0] = Fr::one();
  for (size_t j = 1; j < m; ++j)
    points[j] = points[j - 1] * omega;
  // L_j(tau) = prod_{k != j} (tau - x_k) / (x_j - x_k)
  std::vector<Fr> lag(m);
  for (size_t j = 0; j < m; ++j) {
    Fr num = Fr::one(), den = Fr::one();
    for (size_t k = 0; k < m; ++k) {
      if (k == j) continue;
      num *= tw.tau - points[k];
      den *= points[j] - points[k];
    }
    lag[j] = num * den.inv();
  }
  const size_t nv = r1cs.num_inputs + r1cs.num_aux;
  std::vector<Fr> u(nv), v(nv), w(nv);
  const auto col = [&](Variable x) { return x.is_input() ? x.index : r1cs.num_inputs + x.index; };
  for (const auto& e : r1cs.a)
    u[col(e.var)] += e.coeff * lag[e.row];
  for (const auto& e : r1cs.b)
    v[col(e.var)] += e.coeff * lag[e.row];
  for (const auto& e : r1cs.c)
    w[col(e.var)] += e.coeff * lag[e.row];
  Fr su, sv, sw, sl;
  for (size_t i = 0; i < nv; ++i) {
    su += wit[i] * u[i];
    sv += wit[i] * v[i];
    sw += wit[i] * w[i];
    if (i >= r1cs.num_inputs) sl += wit[i] * (tw.beta * u[i] + tw.alpha * v[i] + w[i]);
  }
  const Fr a_s = tw.alpha + su + rand.r * tw.delta;
  const Fr b_s = tw.beta + sv + rand.s * tw.delta;
  const Fr c_s = (sl + su * sv - sw) * tw.delta.inv() + rand.s * a_s + rand.r * b_s -
                 rand.r * rand.s * tw.delta;
  EXPECT_EQ(proof.a, g1_mul(G1Jacobian::generator(), a_s).to_affine());
  EXPECT_EQ(proof.b, g2_mul(G2Jacobian::generator(), b_s).to_affine());
  EXPECT_EQ(proof.c, g1_mul(G1Jacobian::generator(), c_s).to_affine());
}

TEST(Groth16, SameRandomnessGivesSameProofBytes) {
  const RandomCircuit circuit(100, 2, 9);
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("det"), pool());
  const auto p1 = encode_proof(prove(params, circuit, fixed_randomness(5), pool()));
  const auto p2 = encode_proof(prove(params, circuit, fixed_randomness(5), pool()));
  const auto p3 = encode_proof(prove(params, circuit, fixed_randomness(6), pool()));
  EXPECT_EQ(p1, p2);
  EXPECT_NE(p1, p3);
}

TEST(Groth16, BatchVerificationAcceptsGoodBatchAndRejectsOneBadProof) {
  // Four proofs of one circuit with different randomness (the shape is fixed by the seed).
  const RandomCircuit shape(64, 2, 77);
  const Parameters params =
      generate_parameters_insecure(shape, ToxicWaste::insecure_from_seed("batch"), pool());
  const PreparedVerifyingKey pvk = prepare_verifying_key(params.vk);
  std::vector<const Circuit*> list(4, &shape);
  std::vector<ProofRandomness> rand;
  for (int i = 0; i < 4; ++i)
    rand.push_back(fixed_randomness(50 + i));
  std::vector<Proof> proofs = prove_batch(params, list, rand, pool());
  std::vector<std::vector<Fr>> inputs(4, shape.public_inputs());
  EXPECT_TRUE(verify_proofs_batch(pvk, proofs, inputs));
  inputs[2][0] += Fr::one();
  EXPECT_FALSE(verify_proofs_batch(pvk, proofs, inputs));
  inputs[2][0] -= Fr::one();
  std::swap(proofs[0].c, proofs[1].c);
  EXPECT_FALSE(verify_proofs_batch(pvk, proofs, inputs));
}

TEST(Groth16, TamperedProofIsRejected) {
  const RandomCircuit circuit(50, 1, 11);
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("tamper"), pool());
  const PreparedVerifyingKey pvk = prepare_verifying_key(params.vk);
  const Proof good = prove(params, circuit, fixed_randomness(1), pool());
  ASSERT_TRUE(verify_proof(pvk, good, circuit.public_inputs()));
  Proof bad = good;
  bad.a = (G1Jacobian::from_affine(bad.a) + G1Jacobian::generator()).to_affine();
  EXPECT_FALSE(verify_proof(pvk, bad, circuit.public_inputs()));
  bad = good;
  bad.c = -bad.c;
  EXPECT_FALSE(verify_proof(pvk, bad, circuit.public_inputs()));
  EXPECT_THROW(verify_proof(pvk, good, {}), std::invalid_argument);
}

TEST(Groth16, UnsatisfiedWitnessDoesNotVerify) {
  const RandomCircuit circuit(40, 1, 12);
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("unsat"), pool());
  ProvingAssignment pa;
  circuit.synthesize(pa);
  pa.aux_assignment[5] += Fr::one();  // breaks the constraints that use it; a, b, c stay stale
  pa.c[3] += Fr::one();
  pa.add_input_constraints();
  const Proof proof = create_proof(params, pa, fixed_randomness(2), pool());
  EXPECT_FALSE(verify_proof(prepare_verifying_key(params.vk), proof, circuit.public_inputs()));
}

// x * x = y with a witness that breaks it: the prover refuses, naming the constraint.
class SquareCircuit final : public Circuit {
 public:
  SquareCircuit(uint64_t x, uint64_t y) : x_(x), y_(y) {}
  void synthesize(ConstraintSystem& cs) const override {
    const Variable x = cs.alloc([] { return std::string("x"); }, [&] { return Fr::from_u64(x_); });
    const Variable y =
        cs.alloc_input([] { return std::string("y"); }, [&] { return Fr::from_u64(y_); });
    cs.enforce([] { return std::string("x squared"); }, [&](LinearCombination& lc) { lc += x; },
               [&](LinearCombination& lc) { lc += x; }, [&](LinearCombination& lc) { lc += y; });
  }

 private:
  uint64_t x_, y_;
};

TEST(Groth16, ProverRefusesAWitnessThatBreaksAConstraint) {
  const Parameters params = generate_parameters_insecure(
      SquareCircuit(3, 9), ToxicWaste::insecure_from_seed("square"), pool());
  EXPECT_TRUE(verify_proof(prepare_verifying_key(params.vk),
                           prove(params, SquareCircuit(3, 9), fixed_randomness(1), pool()),
                           std::vector<Fr>{Fr::from_u64(9)}));
  try {
    prove(params, SquareCircuit(3, 10), fixed_randomness(1), pool());
    FAIL() << "an unsatisfied witness was proved";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.kind(), SynthesisError::Kind::kUnsatisfiable);
    EXPECT_NE(std::string(e.what()).find("x squared"), std::string::npos) << e.what();
  }
}

TEST(Groth16, ParametersOfAnotherShapeAreRefused) {
  const RandomCircuit small(30, 1, 1), other(70, 1, 1);
  const Parameters params =
      generate_parameters_insecure(small, ToxicWaste::insecure_from_seed("shape"), pool());
  EXPECT_THROW(prove(params, other, fixed_randomness(1), pool()), std::invalid_argument);
}

TEST(Groth16, ShaChainCircuitHasBellpersonCountsAndProves) {
  std::array<uint8_t, 64> block{};
  for (size_t i = 0; i < block.size(); ++i)
    block[i] = static_cast<uint8_t>(i * 7 + 1);
  const testing::ShaChainCircuit circuit(1, block);
  TestConstraintSystem cs;
  circuit.synthesize(cs);
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  // 512 boolean allocations + 25,840 (bellperson test_full_block: one block from the constant IV)
  // + 2 packing constraints. Later compressions of a chain start from allocated words and cost
  // more.
  EXPECT_EQ(cs.num_constraints(), 512u + 25840u + 2u);
  EXPECT_EQ(cs.num_inputs(), 3u);

  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("sha"), pool());
  const Proof proof = prove(params, circuit, fixed_randomness(8), pool());
  const std::vector<Fr> inputs(cs.input_values().begin() + 1, cs.input_values().end());
  EXPECT_TRUE(verify_proof(prepare_verifying_key(params.vk), proof, inputs));
}

}  // namespace
}  // namespace cuzk::groth16

namespace cuzk::groth16 {
namespace {

// The recorded (pre-compiled constraints) path gives the classic path's proof bytes for the same
// r, s, and refuses a witness that breaks a recorded row before any MSM.
TEST(Groth16Recorded, ProofBytesEqualTheClassicPath) {
  for (uint64_t seed : {1, 2}) {
    const RandomCircuit circuit(3000, 4, 40 + seed);
    const Parameters params =
        generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("pce"), pool());
    pce::RecordingCS rec;
    circuit.synthesize(rec);
    const pce::RecordedCircuit rc = std::move(rec).finish({"random", 3000, "any", 1});
    const ProofRandomness rand = fixed_randomness(seed);
    CpuBackend cpu(pool());
    ProverTiming t;
    const Proof recorded = prove_recorded(params, rc, circuit, rand, cpu, pool(), &t);
    EXPECT_EQ(encode_proof(recorded), encode_proof(prove(params, circuit, rand, pool())));
    EXPECT_TRUE(verify_proof(prepare_verifying_key(params.vk), recorded, circuit.public_inputs()));
    EXPECT_GT(t.spmv_s, 0.0);
  }
}

TEST(Groth16Recorded, BrokenWitnessIsRefusedNamingTheRow) {
  const RandomCircuit circuit(2000, 3, 8);
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("pce"), pool());
  pce::RecordingCS rec;
  circuit.synthesize(rec);
  const pce::RecordedCircuit rc = std::move(rec).finish({"random", 2000, "any", 1});
  pce::WitnessCS wcs(&pool());
  circuit.synthesize(wcs);
  pce::CompactWitness w = std::move(wcs).finish();
  w.aux_values.back() += Fr::one();
  CpuBackend cpu(pool());
  try {
    cpu.prove(params, PartitionInput::recorded(w, rc), fixed_randomness(2), nullptr);
    FAIL() << "proved a broken witness";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.kind(), SynthesisError::Kind::kUnsatisfiable);
    EXPECT_NE(std::string(e.what()).find("row "), std::string::npos) << e.what();
  }
}

TEST(Groth16Recorded, ParametersOfAnotherCircuitAreRefused) {
  const RandomCircuit circuit(500, 2, 3), other(600, 2, 3);
  const Parameters params =
      generate_parameters_insecure(other, ToxicWaste::insecure_from_seed("pce"), pool());
  pce::RecordingCS rec;
  circuit.synthesize(rec);
  const pce::RecordedCircuit rc = std::move(rec).finish({"random", 500, "any", 1});
  CpuBackend cpu(pool());
  EXPECT_THROW(prove_recorded(params, rc, circuit, fixed_randomness(1), cpu, pool()),
               std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16

namespace cuzk::groth16 {
namespace {

// The setup from a recording (the path the device generator twins) equals the setup from the
// key assembly's R1cs for the same seed: the same file bytes.
TEST(Groth16Setup, FromTheRecordingEqualsFromTheR1cs) {
  for (uint64_t seed : {3, 4}) {
    const RandomCircuit circuit(1500, 5, seed);
    const ToxicWaste tw = ToxicWaste::insecure_from_seed("recorded setup " + std::to_string(seed));
    pce::RecordingCS rec;
    circuit.synthesize(rec);
    const pce::RecordedCircuit rc = std::move(rec).finish({"random", 1500, "any", 1});
    const Parameters from_recording = generate_parameters_insecure(rc, tw, pool());
    const Parameters from_r1cs = generate_parameters_insecure(circuit, tw, pool());
    EXPECT_TRUE(from_recording == from_r1cs) << "seed " << seed;
    EXPECT_EQ(serialize_parameters(from_recording), serialize_parameters(from_r1cs));
  }
}

}  // namespace
}  // namespace cuzk::groth16
