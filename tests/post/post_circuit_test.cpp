// The FallbackPoSt circuit with witnesses: every constraint satisfied (TestConstraintSystem) and
// the circuit's public inputs equal to the native ones (public_inputs.hpp) for
//   * the real 32 GiB WindowPoSt vanilla proof of curio's golden data (one sector slot, 8-8-0,
//     API 1.0), and the same proof with one path element changed, which fails naming the first
//     unsatisfied constraint;
//   * the upstream test shapes of table 7.4 that have a witness here: 3 sectors per partition
//     (full, short = "2 / 3 / 1", and both partitions of "5 / 3 / 2", where API 1.1 makes the
//     second partition's challenges depend on its sector positions), and "4 / 2 / 2";
//   * WinningPoSt and WindowPoSt of two sealed 2 KiB sectors (the vanilla prover's output).
// A witness changes no count: the metric CS counts of each equal the blank circuit's.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cs/circuit_metrics.hpp"
#include "cs/test_cs.hpp"
#include "filecoin/base64.hpp"
#include "filecoin/commcid.hpp"
#include "oracle_file.hpp"
#include "post/fallback_circuit.hpp"
#include "post/public_inputs.hpp"
#include "post/vanilla/post_partition.hpp"
#include "post/vanilla/post_vanilla_prover.hpp"
#include "post_test_util.hpp"

namespace cuzk::post {
namespace {

using filecoin::Domain;
using filecoin::FallbackPoStParams;
using filecoin::FallbackPoStSectorProof;
using filecoin::PoStPartition;

struct Check {
  bool satisfied = false;
  std::string unsatisfied;
  bool inputs_match = false;
};

Check check(const FallbackPoStParams& pp, const Domain& randomness, const PoStPartition& part) {
  const FallbackPoStCircuit c = FallbackPoStCircuit::from_partition(part, pp);
  TestConstraintSystem cs;
  c.synthesize(cs);
  Check out;
  out.satisfied = cs.is_satisfied();
  out.unsatisfied = cs.which_is_unsatisfied().value_or("");
  const std::vector<Fr> native = public_inputs(pp, randomness, part);
  out.inputs_match = cs.verify_inputs(native);
  EXPECT_EQ(native.size(), pp.public_input_count());
  // Same shape as the blank circuit.
  const CircuitMetrics blank = measure_circuit(FallbackPoStCircuit::blank(pp), true);
  const CircuitMetrics full = measure_circuit(c, true);
  EXPECT_EQ(full.constraints, blank.constraints);
  EXPECT_EQ(full.inputs, blank.inputs);
  EXPECT_EQ(full.aux, blank.aux);
  EXPECT_EQ(full.a_aux_density, blank.a_aux_density);
  EXPECT_EQ(full.b_aux_density, blank.b_aux_density);
  EXPECT_EQ(cs.num_constraints(), blank.constraints);
  return out;
}

struct Golden {
  std::vector<uint8_t> bytes = filecoin::test::read_file_bytes(
      filecoin::test::golden_file("window-post-32g-sector1.vproof"));
  nlohmann::json pub = [] {
    std::ifstream in(filecoin::test::golden_file("window-post-32g-sector1.pub.json"));
    return nlohmann::json::parse(in);
  }();
  Domain randomness() const {
    return filecoin::domain_from_bytes(
        filecoin::base64_decode(pub.at("Randomness").get<std::string>()));
  }
  // The partition of one sector slot: postpub.json's proof type (8 = Window 32 GiB V1, API
  // 1.0) with one slot instead of 2349 (the others would repeat it).
  FallbackPoStParams params() const {
    FallbackPoStParams pp = filecoin::fallback_post_params(
        filecoin::post_config(pub.at("Proofs").at(0).at("PoStProof").get<uint32_t>()));
    pp.sector_count = 1;
    return pp;
  }
};

TEST(PoStCircuit, GoldenWindowPoStProofSatisfiesTheCircuitWithTheNativeInputs) {
  const Golden g;
  const FallbackPoStParams pp = g.params();
  EXPECT_EQ(pp.api_version, filecoin::ApiVersion::kV1_0_0);
  const std::vector<FallbackPoStSectorProof> proofs{
      filecoin::decode_fallback_post_sector_proof(g.bytes)};
  const PoStPartition part = filecoin::window_partition(pp, proofs, 0);
  // The native inputs are the oracle's: comm_r of the sealed CID, then the ten leaf challenges.
  const std::vector<Fr> native = public_inputs(pp, g.randomness(), part);
  const auto& o = filecoin::test::oracles().at("curio_golden_window_post_32GiB");
  ASSERT_EQ(native.size(), 11u);
  EXPECT_EQ(native[0],
            filecoin::domain_to_fr(filecoin::cid_to_commitment(
                g.pub.at("ChallengedSectors").at(0).at("SealedCID").at("/").get<std::string>(),
                filecoin::CommitmentKind::kSealed)));
  for (size_t n = 0; n < 10; ++n)
    EXPECT_EQ(native[1 + n], Fr::from_u64(o.at("leaf_challenges").at(n).get<uint64_t>())) << n;

  const Check c = check(pp, g.randomness(), part);
  EXPECT_TRUE(c.satisfied) << c.unsatisfied;
  EXPECT_TRUE(c.inputs_match);
}

TEST(PoStCircuit, OneChangedPathElementFailsNamingTheFirstUnsatisfiedConstraint) {
  const Golden g;
  const FallbackPoStParams pp = g.params();
  FallbackPoStSectorProof p = filecoin::decode_fallback_post_sector_proof(g.bytes);
  // A sibling at base level 7 of challenge 6: still a field element, a wrong node.
  std::get<filecoin::SubProof>(p.sectors[0].inclusion_proofs[6].data).base_proof[7].hashes[0][0] ^=
      1;
  const std::vector<FallbackPoStSectorProof> proofs{p};
  const Check c = check(pp, g.randomness(), filecoin::window_partition(pp, proofs, 0));
  EXPECT_FALSE(c.satisfied);
  EXPECT_EQ(c.unsatisfied,
            "outer namespace/sector_0/challenge_inclusion_6/enforce root is correct");

  // A changed path position (the index of base level 2 of challenge 0) still hashes to a root
  // with other siblings; here the root breaks and the packed leaf index no longer is the
  // challenge.
  p = filecoin::decode_fallback_post_sector_proof(g.bytes);
  auto& e = std::get<filecoin::SubProof>(p.sectors[0].inclusion_proofs[0].data).base_proof[2];
  e.index = (e.index + 1) % 8;
  const std::vector<FallbackPoStSectorProof> moved{p};
  const Check m = check(pp, g.randomness(), filecoin::window_partition(pp, moved, 0));
  EXPECT_FALSE(m.satisfied);
  EXPECT_EQ(m.unsatisfied,
            "outer namespace/sector_0/challenge_inclusion_0/enforce root is correct");
  EXPECT_FALSE(m.inputs_match);
}

TEST(PoStCircuit, UpstreamTestShapesWithWitnessesSatisfyWithNativeInputs) {
  const Domain randomness = filecoin::fr_to_domain(Fr::from_u64(424242));
  struct Case {
    unsigned per_partition, sectors;
  };
  // 3 / 3 / 1, 2 / 3 / 1 (short: the last sector repeated), 5 / 3 / 2, 4 / 2 / 2.
  for (const Case k : {Case{3, 3}, Case{3, 2}, Case{3, 5}, Case{2, 4}}) {
    const FallbackPoStParams pp = test::upstream_test_shape({8, 0, 0}, k.per_partition);
    std::vector<uint64_t> ids;
    for (uint64_t i = 0; i < k.sectors; ++i)
      ids.push_back(100 + 3 * i);
    const auto proofs = test::synthetic_proofs(test::config_of(pp), randomness, ids);
    for (uint32_t part = 0; part * k.per_partition < k.sectors; ++part) {
      const size_t first = part * k.per_partition;
      const size_t count = std::min<size_t>(k.per_partition, k.sectors - first);
      const std::span<const FallbackPoStSectorProof> chunk(proofs.data() + first, count);
      const PoStPartition p = filecoin::window_partition(pp, chunk, part);
      EXPECT_NO_THROW(filecoin::verify_partition(pp, randomness, p));
      const Check c = check(pp, randomness, p);
      EXPECT_TRUE(c.satisfied) << k.sectors << " sectors, partition " << part << ": "
                               << c.unsatisfied;
      EXPECT_TRUE(c.inputs_match) << k.sectors << " sectors, partition " << part;
      if (part == 1) {
        // API 1.1: partition 1's challenges depend on its position, so proofs made for another
        // partition index do not match.
        const PoStPartition wrong = filecoin::window_partition(pp, chunk, 0);
        EXPECT_ANY_THROW(filecoin::verify_partition(pp, randomness, wrong));
        EXPECT_FALSE(check(pp, randomness, wrong).inputs_match);
      }
    }
  }
}

TEST(PoStCircuit, SealedTwoKiBSectorsSatisfyWinningAndWindowCircuits) {
  const auto& sectors = test::sealed_2kib_sectors();
  const Domain randomness = filecoin::fr_to_domain(Fr::from_u64(77));
  for (const filecoin::PoStKind kind :
       {filecoin::PoStKind::kWindow, filecoin::PoStKind::kWinning}) {
    const filecoin::PoStConfig config = filecoin::post_config(kind, 2048);
    const FallbackPoStParams pp = filecoin::fallback_post_params(config);
    std::vector<uint64_t> ids;
    for (const auto& s : sectors)
      ids.push_back(s.sector_id);
    const auto challenges = filecoin::fallback_sector_challenges(config, randomness, ids);
    std::vector<FallbackPoStSectorProof> proofs;
    for (size_t i = 0; i < challenges.size(); ++i) {
      proofs.push_back(filecoin::prove_sealed_sector(config, sectors[i].sector_id,
                                                     sectors[i].replica, challenges[i]));
      EXPECT_EQ(proofs.back().comm_r, sectors[i].comm_r);
    }
    const PoStPartition p = kind == filecoin::PoStKind::kWinning
                                ? filecoin::winning_partition(pp, proofs)
                                : filecoin::window_partition(pp, proofs, 0);
    EXPECT_NO_THROW(filecoin::verify_partition(pp, randomness, p));
    const Check c = check(pp, randomness, p);
    EXPECT_TRUE(c.satisfied) << c.unsatisfied;
    EXPECT_TRUE(c.inputs_match);
  }
}

}  // namespace
}  // namespace cuzk::post
