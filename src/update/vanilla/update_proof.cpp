#include "update/vanilla/update_proof.hpp"

#include "filecoin/bincode.hpp"
#include "filecoin/merkle/merkle_proof_codec.hpp"

namespace cuzk::filecoin {

namespace {

// The smallest bincode MerkleProof: a Single variant with an empty path (4 + 32 + 32 + 8).
constexpr uint64_t kMinMerkleProofBytes = 76;

}  // namespace

// bincode, field by field in PartitionProof's order (tree_store.cpp's t_aux writer looks alike;
// the order is the format).
std::vector<uint8_t> encode_update_partition_proof(const UpdatePartitionProof& proof) {
  bincode::Writer w;
  w.domain(proof.comm_c);
  w.u64(proof.apex_leafs.size());
  for (const Domain& d : proof.apex_leafs)
    w.domain(d);
  w.u64(proof.challenge_proofs.size());
  for (const UpdateChallengeProof& c : proof.challenge_proofs) {
    write_bincode(w, c.proof_r_old);
    write_bincode(w, c.proof_d_new);
    write_bincode(w, c.proof_r_new);
  }
  return w.take();
}

UpdatePartitionProof decode_update_partition_proof(std::span<const uint8_t> bytes) {
  bincode::Reader r(bytes);
  UpdatePartitionProof p;
  p.comm_c = r.domain("PartitionProof comm_c");
  p.apex_leafs.resize(r.length(kNodeSize, "PartitionProof apex_leafs length"));
  for (Domain& d : p.apex_leafs)
    d = r.domain("apex leaf");
  p.challenge_proofs.resize(
      r.length(3 * kMinMerkleProofBytes, "PartitionProof challenge_proofs length"));
  for (UpdateChallengeProof& c : p.challenge_proofs) {
    c.proof_r_old = read_bincode_merkle_proof(r);
    c.proof_d_new = read_bincode_merkle_proof(r);
    c.proof_r_new = read_bincode_merkle_proof(r);
  }
  r.expect_end("PartitionProof");
  return p;
}

}  // namespace cuzk::filecoin
