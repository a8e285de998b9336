// The golden 32 GiB Window PoSt vanilla proof (curio lib/proof/testgolden/post.vproof, README of
// ../shared/fixtures/filecoin-golden): decoding, its ten 8-8-0 Poseidon tree_r_last paths,
// comm_r = Poseidon_2(comm_c, comm_r_last) against the sealed CID of postpub.json, and the path
// positions against the challenges derived from its randomness, prover and sector (facts 6.6, 10).
// Flipped bytes in the file must fail verification naming the challenge and the level.
#include "post/vanilla/post_vanilla_proof.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "filecoin/commcid.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/merkle/merkle_proof_codec.hpp"
#include "filecoin/replica_id.hpp"
#include "oracle_file.hpp"
#include "post/vanilla/post_challenges.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> base64_decode(const std::string& s) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=') break;
    const size_t v = kAlphabet.find(c);
    if (v == std::string::npos) throw std::invalid_argument("bad base64");
    acc = acc << 6 | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>(acc >> bits));
    }
  }
  return out;
}

struct Golden {
  std::vector<uint8_t> bytes =
      test::read_file_bytes(test::golden_file("window-post-32g-sector1.vproof"));
  nlohmann::json pub = [] {
    std::ifstream in(test::golden_file("window-post-32g-sector1.pub.json"));
    return nlohmann::json::parse(in);
  }();
  const nlohmann::json& sector() const { return pub.at("ChallengedSectors").at(0); }
  Domain randomness() const { return domain_from_bytes(base64_decode(pub.at("Randomness"))); }
  PoStVerifyParams params() const {
    const PoStProofInfo& info =
        post_proof_info(pub.at("Proofs").at(0).at("PoStProof").get<uint32_t>());
    PoStVerifyParams p;
    p.sector_size = info.sector_size;
    p.challenge_count = 10;
    p.api_version = info.api_version;
    p.sector_index = 0;
    p.randomness = randomness();
    return p;
  }
};

// bincode layout (README / facts 10): sector_id u64, comm_r, sectors u64, proofs u64, then ten Sub
// proofs of 4 + (8 + 9 * 240) + (8 + 240) + 64 = 2484 bytes (an element: u64 count, 7 hashes,
// u64 index = 240 bytes), then comm_c and comm_r_last.
constexpr size_t kHeader = 8 + 32 + 8 + 8;
constexpr size_t kElement = 8 + 7 * 32 + 8;
constexpr size_t kProof = 4 + (8 + 9 * kElement) + (8 + kElement) + 64;
size_t base_hash_offset(size_t proof, size_t level, size_t hash) {
  return kHeader + proof * kProof + 4 + 8 + level * kElement + 8 + hash * 32;
}

TEST(WindowPoStGolden, TheVanillaProofDecodesToTenSubProofsOfOneSector) {
  const Golden g;
  ASSERT_EQ(g.bytes.size(), kHeader + 10 * kProof + 64);
  const FallbackPoStSectorProof p = decode_fallback_post_sector_proof(g.bytes);
  const auto& o = test::oracles().at("curio_golden_window_post_32GiB");
  EXPECT_EQ(p.sector_id, g.sector().at("SectorNumber").get<uint64_t>());
  EXPECT_EQ(p.comm_r, test::domain_hex(o.at("comm_r_le_hex")));
  ASSERT_EQ(p.sectors.size(), 1u);
  const PoStSectorProof& s = p.sectors[0];
  EXPECT_EQ(s.comm_c, test::domain_hex(o.at("comm_c_le_hex")));
  EXPECT_EQ(s.comm_r_last, test::domain_hex(o.at("comm_r_last_le_hex")));
  ASSERT_EQ(s.inclusion_proofs.size(), 10u);
  for (const MerkleProof& m : s.inclusion_proofs) {
    const auto& sub = std::get<SubProof>(m.data);  // 32 GiB = 8-8-0
    EXPECT_EQ(sub.base_proof.size(), 9u);
    EXPECT_EQ(sub.sub_proof.size(), 1u);
    EXPECT_EQ(m.root(), s.comm_r_last);
  }
  EXPECT_EQ(encode_fallback_post_sector_proof(p), g.bytes);  // bincode round trip
}

TEST(WindowPoStGolden, CommRIsPoseidonOfCommCAndCommRLastAndTheSealedCidDigest) {
  const Golden g;
  const FallbackPoStSectorProof p = decode_fallback_post_sector_proof(g.bytes);
  const Domain from_cid = cid_to_commitment(g.sector().at("SealedCID").at("/").get<std::string>(),
                                            CommitmentKind::kSealed);
  EXPECT_EQ(p.comm_r, from_cid);
  EXPECT_EQ(poseidon_hash2(p.sectors[0].comm_c, p.sectors[0].comm_r_last), from_cid);
}

TEST(WindowPoStGolden, EveryPathVerifiesAtTheChallengeDerivedFromRandomnessProverAndSector) {
  const Golden g;
  const FallbackPoStSectorProof p = decode_fallback_post_sector_proof(g.bytes);
  const PoStVerifyParams params = g.params();
  EXPECT_EQ(params.sector_size, uint64_t{32} << 30);
  // The prover of postpub.json is actor 1000 (prover_id e807...); Window PoSt leaf challenges do
  // not depend on it (only Winning sector selection does).
  EXPECT_EQ(prover_id_from_actor_id(g.pub.at("Prover").get<uint64_t>())[0], 0xe8);
  const std::vector<uint64_t> challenges =
      post_leaf_challenges(params.randomness, p.sector_id, params.sector_size, 10,
                           params.api_version, params.sector_index);
  const auto& expected = test::oracles().at("curio_golden_window_post_32GiB").at("leaf_challenges");
  for (size_t n = 0; n < 10; ++n) {
    const MerkleProof& m = p.sectors[0].inclusion_proofs[n];
    EXPECT_EQ(challenges[n], expected.at(n).get<uint64_t>()) << n;
    EXPECT_EQ(merkle_proof_leaf_index(m), expected.at(n).get<uint64_t>()) << n;
    EXPECT_NO_THROW(
        verify_merkle_proof(m, {TreeShape{8, 8, 0}, TreeHasher::kPoseidon, uint64_t{1} << 30,
                                challenges[n], p.sectors[0].comm_r_last}))
        << n;
  }
  EXPECT_NO_THROW(verify_fallback_post_sector_proof(p, params));
}

std::string verification_error(const std::vector<uint8_t>& bytes, const PoStVerifyParams& params,
                               size_t* level) {
  try {
    verify_fallback_post_sector_proof(decode_fallback_post_sector_proof(bytes), params);
  } catch (const MerkleProofError& e) {
    *level = e.level();
    return e.what();
  }
  return "";
}

TEST(WindowPoStGolden, FlippedBytesInAPathFailVerificationNamingTheChallengeAndLevel) {
  const Golden g;
  const PoStVerifyParams params = g.params();
  size_t level = 99;

  // High byte of a sibling at base level 4 of challenge 3: no longer a field element.
  std::vector<uint8_t> b = g.bytes;
  b[base_hash_offset(3, 4, 2) + 31] ^= 0x80;
  std::string msg = verification_error(b, params, &level);
  EXPECT_EQ(level, 4u) << msg;
  EXPECT_NE(msg.find("challenge 3 (leaf 548708700)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("base level 4"), std::string::npos) << msg;

  // Low byte of a sibling at base level 7 of challenge 6: a valid but wrong node, which only the
  // root comparison can see.
  b = g.bytes;
  b[base_hash_offset(6, 7, 0)] ^= 0x01;
  msg = verification_error(b, params, &level);
  EXPECT_EQ(level, 10u) << msg;
  EXPECT_NE(msg.find("challenge 6"), std::string::npos) << msg;
  EXPECT_NE(msg.find("root level"), std::string::npos) << msg;

  // The index of base level 2 of challenge 0 (the u64 after its seven hashes).
  b = g.bytes;
  b[base_hash_offset(0, 2, 7)] ^= 0x01;
  msg = verification_error(b, params, &level);
  EXPECT_EQ(level, 2u) << msg;
  EXPECT_NE(msg.find("needs"), std::string::npos) << msg;

  // A changed comm_c no longer hashes to comm_r.
  FallbackPoStSectorProof p = decode_fallback_post_sector_proof(g.bytes);
  p.sectors[0].comm_c[0] ^= 1;
  EXPECT_THROW(verify_fallback_post_sector_proof(p, params), std::invalid_argument);
  // Another sector id changes every challenge.
  p = decode_fallback_post_sector_proof(g.bytes);
  p.sector_id = 2;
  EXPECT_THROW(verify_fallback_post_sector_proof(p, params), MerkleProofError);
}

TEST(WindowPoStGolden, TruncatedFilesAreRejectedNamingTheOffset) {
  const Golden g;
  const std::vector<uint8_t> cut(g.bytes.begin(), g.bytes.end() - 1);
  try {
    decode_fallback_post_sector_proof(cut);
    FAIL() << "truncated proof decoded";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("comm_r_last"), std::string::npos) << e.what();
  }
  std::vector<uint8_t> longer = g.bytes;
  longer.push_back(0);
  EXPECT_THROW(decode_fallback_post_sector_proof(longer), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
