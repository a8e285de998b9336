#include "post/vanilla/post_vanilla_proof.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/merkle/merkle_proof_codec.hpp"
#include "filecoin/sector_shape.hpp"
#include "post/vanilla/post_challenges.hpp"

namespace cuzk::filecoin {

FallbackPoStSectorProof decode_fallback_post_sector_proof(std::span<const uint8_t> bytes) {
  bincode::Reader r(bytes);
  FallbackPoStSectorProof p;
  p.sector_id = r.u64("sector_id");
  p.comm_r = r.domain("comm_r");
  // A SectorProof is at least 72 bytes (a length and two domains); a MerkleProof at least 76 (a
  // variant index, root and leaf, an empty path): lengths beyond what the bytes left can hold
  // are refused before anything is allocated.
  p.sectors.resize(r.length(72, "vanilla_proof.sectors length"));
  for (PoStSectorProof& s : p.sectors) {
    s.inclusion_proofs.resize(r.length(kMinBincodeMerkleProofBytes, "inclusion_proofs length"));
    for (MerkleProof& m : s.inclusion_proofs)
      m = read_bincode_merkle_proof(r);
    s.comm_c = r.domain("comm_c");
    s.comm_r_last = r.domain("comm_r_last");
  }
  r.expect_end("FallbackPoStSectorProof");
  return p;
}

std::vector<uint8_t> encode_fallback_post_sector_proof(const FallbackPoStSectorProof& proof) {
  bincode::Writer w;
  w.u64(proof.sector_id);
  w.domain(proof.comm_r);
  w.u64(proof.sectors.size());
  for (const PoStSectorProof& s : proof.sectors) {
    w.u64(s.inclusion_proofs.size());
    for (const MerkleProof& m : s.inclusion_proofs)
      write_bincode(w, m);
    w.domain(s.comm_c);
    w.domain(s.comm_r_last);
  }
  return w.take();
}

void verify_post_sector_proof(const PoStSectorProof& s, uint64_t sector_id, const Domain& comm_r,
                              const PoStVerifyParams& params) {
  const TreeShape shape = params.tree ? *params.tree : sector_shape(params.sector_size).tree;
  const std::string sector = "PoSt sector " + std::to_string(sector_id);
  if (params.challenge_count == 0) throw std::invalid_argument(sector + ": zero challenges");
  if (params.sector_size < 32 || params.sector_size % 32 != 0) {
    throw std::invalid_argument(sector + ": sector size " + std::to_string(params.sector_size) +
                                " is not a whole number of nodes");
  }
  if (s.inclusion_proofs.size() != params.challenge_count) {
    throw std::invalid_argument(sector + ": " + std::to_string(s.inclusion_proofs.size()) +
                                " inclusion proofs, expected " +
                                std::to_string(params.challenge_count));
  }
  // comm_r_last is the root of the (first) inclusion proof, as upstream takes it.
  const Domain comm_r_last = s.inclusion_proofs.front().root();
  if (!is_canonical_fr(s.comm_c) || !is_canonical_fr(comm_r_last)) {
    throw std::invalid_argument(sector + ": comm_c or comm_r_last is not a field element");
  }
  const Domain computed = poseidon_hash2(s.comm_c, comm_r_last);
  if (computed != comm_r) {
    throw std::invalid_argument(sector + ": Poseidon_2(comm_c, comm_r_last) = " + to_hex(computed) +
                                " differs from comm_r " + to_hex(comm_r));
  }
  if (s.comm_r_last != comm_r_last) {
    throw std::invalid_argument(sector + ": comm_r_last " + to_hex(s.comm_r_last) +
                                " is not the inclusion proofs' root " + to_hex(comm_r_last));
  }
  const std::vector<uint64_t> leaves =
      post_leaf_challenges(params.randomness, sector_id, params.sector_size, params.challenge_count,
                           params.api_version, params.sector_index);
  for (unsigned n = 0; n < params.challenge_count; ++n) {
    MerkleProofCheck check;
    check.shape = shape;
    check.hasher = TreeHasher::kPoseidon;
    check.leaves = params.sector_size / 32;
    check.leaf_index = leaves[n];
    check.root = comm_r_last;
    try {
      verify_merkle_proof(s.inclusion_proofs[n], check);
    } catch (const MerkleProofError& e) {
      throw MerkleProofError(e.level(), sector + ", challenge " + std::to_string(n) + " (leaf " +
                                            std::to_string(leaves[n]) + "): " + e.what());
    }
  }
}

void verify_fallback_post_sector_proof(const FallbackPoStSectorProof& proof,
                                       const PoStVerifyParams& params) {
  for (const PoStSectorProof& s : proof.sectors)
    verify_post_sector_proof(s, proof.sector_id, proof.comm_r, params);
}

}  // namespace cuzk::filecoin
