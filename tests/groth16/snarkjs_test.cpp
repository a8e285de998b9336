// The circom/snarkjs fixture (shared/fixtures/circom-bls12381): our readers, our zkey prover
// checked by snarkjs itself, our verifier on snarkjs's proof, and our setup + prover checked by
// snarkjs through a verification key we write.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "cs/r1cs_circuit.hpp"
#include "cs/test_cs.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::groth16 {
namespace {

namespace fs = std::filesystem;

fs::path shared_dir() {
  if (const char* env = std::getenv("CUZK_SHARED_DIR"); env != nullptr && *env != '\0') return env;
  return fs::path(CUZK_SOURCE_DIR) / ".." / "shared";
}
fs::path fixture(const char* file) {
  return shared_dir() / "fixtures" / "circom-bls12381" / file;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

// With CI=true an external check whose tool is missing fails instead of skipping.
bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

// Runs shared/tools/snarkjs-verify.sh; returns its exit status (0 ok, 1 rejected, 2 unavailable).
// ctest runs test cases in parallel processes: each call gets its own directory, and flock
// serialises the calls so that the first npm install of snarkjs is not raced.
int snarkjs_verify(const std::string& vk_json, const std::string& proof_json,
                   const std::string& public_json) {
  static int calls = 0;
  const fs::path dir = fs::temp_directory_path() / ("cuzk_snarkjs_" + std::to_string(::getpid()) +
                                                    "_" + std::to_string(calls++));
  fs::create_directories(dir);
  std::ofstream(dir / "vk.json") << vk_json;
  std::ofstream(dir / "proof.json") << proof_json;
  std::ofstream(dir / "public.json") << public_json;
  const std::string cmd = "flock '" + (fs::temp_directory_path() / "cuzk_snarkjs.lock").string() +
                          "' bash '" + (shared_dir() / "tools" / "snarkjs-verify.sh").string() +
                          "' '" + (dir / "vk.json").string() + "' '" +
                          (dir / "proof.json").string() + "' '" + (dir / "public.json").string() +
                          "' >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  fs::remove_all(dir);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

TEST(SnarkjsFixture, R1csAndWitnessAreReadAndSatisfied) {
  const SnarkjsR1cs r1cs = read_r1cs(fixture("circuit.r1cs"));
  const std::vector<Fr> w = read_wtns(fixture("witness.wtns"));
  EXPECT_EQ(r1cs.n_constraints, 265u);  // fixture README
  EXPECT_EQ(r1cs.n_wires, 267u);
  EXPECT_EQ(r1cs.n_public(), 2u);
  ASSERT_EQ(w.size(), 267u);
  const R1csCircuit circuit(r1cs.r1cs, w);
  TestConstraintSystem cs;
  circuit.synthesize(cs);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 265u);
  TestConstraintSystem broken;
  std::vector<Fr> w2 = w;
  w2[100] += Fr::one();
  R1csCircuit(r1cs.r1cs, w2).synthesize(broken);
  EXPECT_FALSE(broken.is_satisfied());
}

TEST(SnarkjsFixture, OurVerifierAcceptsTheSnarkjsProofAndRejectsTampering) {
  const VerifyingKey vk =
      parse_verifying_key_json(slurp(fixture("verification_key.json")), "verification_key.json");
  const Proof proof = parse_proof_json(slurp(fixture("proof.json")), "proof.json");
  std::vector<Fr> inputs = parse_public_json(slurp(fixture("public.json")), "public.json");
  const PreparedVerifyingKey pvk = prepare_verifying_key(vk);
  EXPECT_TRUE(verify_proof(pvk, proof, inputs));
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<Fr> bad = inputs;
    bad[i] += Fr::one();
    EXPECT_FALSE(verify_proof(pvk, proof, bad)) << "input " << i;
  }
  Proof bad = proof;
  bad.c = -bad.c;
  EXPECT_FALSE(verify_proof(pvk, bad, inputs));
}

// Every single-bit change of the 192-byte proof encoding is refused: by the decoder (flags,
// canonical coordinates, curve, subgroup) or by the pairing check.
TEST(SnarkjsFixture, EveryBitFlipOfTheProofBytesIsRejected) {
  const VerifyingKey vk = parse_verifying_key_json(slurp(fixture("verification_key.json")), "vk");
  const PreparedVerifyingKey pvk = prepare_verifying_key(vk);
  const std::vector<Fr> inputs = parse_public_json(slurp(fixture("public.json")), "public.json");
  const auto bytes = encode_proof(parse_proof_json(slurp(fixture("proof.json")), "proof.json"));
  ASSERT_TRUE(verify_proof(pvk, *decode_proof(bytes), inputs));
  size_t decode_rejects = 0, pairing_rejects = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      auto bad = bytes;
      bad[i] ^= static_cast<uint8_t>(1u << bit);
      const auto proof = decode_proof(bad);
      if (!proof) {
        ++decode_rejects;
        continue;
      }
      EXPECT_FALSE(verify_proof(pvk, *proof, inputs)) << "byte " << i << " bit " << bit;
      ++pairing_rejects;
    }
  }
  EXPECT_GT(decode_rejects, 0u);
  EXPECT_GT(pairing_rejects, 0u);
}

TEST(SnarkjsFixture, ZkeyHoldsTheVerifyingKeyOfTheJson) {
  const Zkey z = read_zkey(fixture("circuit_final.zkey"), SubgroupCheck::kCheck);
  const VerifyingKey json_vk =
      parse_verifying_key_json(slurp(fixture("verification_key.json")), "vk");
  const VerifyingKey vk = z.verifying_key();
  EXPECT_EQ(vk.alpha_g1, json_vk.alpha_g1);
  EXPECT_EQ(vk.beta_g2, json_vk.beta_g2);
  EXPECT_EQ(vk.gamma_g2, json_vk.gamma_g2);
  EXPECT_EQ(vk.delta_g2, json_vk.delta_g2);
  EXPECT_EQ(vk.ic, json_vk.ic);
  EXPECT_EQ(z.domain_size, 512u);
}

TEST(SnarkjsFixture, ProofFromZkeyVerifiesWithOursAndWithSnarkjs) {
  const Zkey z = read_zkey(fixture("circuit_final.zkey"));
  const std::vector<Fr> w = read_wtns(fixture("witness.wtns"));
  const Proof proof = prove_zkey(z, w, ProofRandomness::from_os(), pool());
  const std::vector<Fr> inputs(w.begin() + 1, w.begin() + 1 + z.n_public);
  EXPECT_TRUE(verify_proof(prepare_verifying_key(z.verifying_key()), proof, inputs));
  EXPECT_EQ(inputs, parse_public_json(slurp(fixture("public.json")), "public.json"));

  const int rc = snarkjs_verify(slurp(fixture("verification_key.json")), write_proof_json(proof),
                                write_public_json(inputs));
  if (rc == 2) {
    if (in_ci()) FAIL() << "CI=true and snarkjs is unavailable: the external check must run";
    GTEST_SKIP()
        << "snarkjs unavailable (npm could not install snarkjs@0.7.6): external check NOT run";
  }
  EXPECT_EQ(rc, 0) << "snarkjs rejected our proof";
  Proof bad = proof;
  bad.a = -bad.a;
  EXPECT_EQ(snarkjs_verify(slurp(fixture("verification_key.json")), write_proof_json(bad),
                           write_public_json(inputs)),
            1);
}

TEST(SnarkjsFixture, OurSetupAndProverOnTheR1csVerifyWithSnarkjs) {
  const SnarkjsR1cs r1cs = read_r1cs(fixture("circuit.r1cs"));
  const std::vector<Fr> w = read_wtns(fixture("witness.wtns"));
  const R1csCircuit circuit(r1cs.r1cs, w);
  const Parameters params =
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("r1cs"), pool());
  const Proof proof = prove(params, circuit, ProofRandomness::from_os(), pool());
  const std::vector<Fr> inputs(w.begin() + 1, w.begin() + 1 + r1cs.n_public());
  EXPECT_TRUE(verify_proof(prepare_verifying_key(params.vk), proof, inputs));
  const int rc = snarkjs_verify(write_verifying_key_json(params.vk), write_proof_json(proof),
                                write_public_json(inputs));
  if (rc == 2) {
    if (in_ci()) FAIL() << "CI=true and snarkjs is unavailable: the external check must run";
    GTEST_SKIP()
        << "snarkjs unavailable (npm could not install snarkjs@0.7.6): external check NOT run";
  }
  EXPECT_EQ(rc, 0) << "snarkjs rejected a proof under our own parameters";
}

TEST(SnarkjsFormat, TruncatedZkeyNamesFileAndOffset) {
  std::ifstream in(fixture("circuit_final.zkey"), std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(bytes.size(), 1000u);
  for (size_t cut : {size_t{3}, size_t{11}, size_t{500}, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_THROW(parse_zkey(std::span(bytes).first(cut), "trunc.zkey", SubgroupCheck::kSkipTrusted),
                 std::runtime_error)
        << cut;
  }
  EXPECT_THROW(parse_r1cs(std::span(bytes).first(100), "x.r1cs"), std::runtime_error);  // bad magic
}

TEST(SnarkjsJson, MalformedDocumentsAreRefusedWithTheField) {
  EXPECT_THROW(parse_public_json("[\"1\", 2]", "p.json"), std::runtime_error);
  EXPECT_THROW(parse_public_json("[\"01\"]", "p.json"), std::runtime_error);
  EXPECT_THROW(
      parse_public_json(
          "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]",
          "p.json"),
      std::runtime_error);  // r itself
  EXPECT_THROW(parse_proof_json("{\"pi_a\": [\"1\", \"2\", \"1\"]}", "proof.json"),
               std::runtime_error);
  try {
    parse_proof_json("{\"pi_a\": [\"1\", \"1\", \"1\"], \"pi_b\": 0, \"pi_c\": 0}", "proof.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("pi_a"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::groth16
