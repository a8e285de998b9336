#include "update/challenge_witness.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::update {

namespace {

PathSiblings siblings_of(const filecoin::MerkleProof& proof, const PathSiblings& shape,
                         const char* what) {
  const filecoin::InclusionPath path = proof.path();
  if (path.size() != shape.size()) {
    throw std::invalid_argument(std::string("update circuit: ") + what + " has " +
                                std::to_string(path.size()) + " levels, the tree has " +
                                std::to_string(shape.size()));
  }
  PathSiblings out(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i].hashes.size() != shape[i].size()) {
      throw std::invalid_argument(std::string("update circuit: ") + what + " level " +
                                  std::to_string(i) + " has " +
                                  std::to_string(path[i].hashes.size()) + " siblings, want " +
                                  std::to_string(shape[i].size()));
    }
    for (const filecoin::Domain& h : path[i].hashes)
      out[i].emplace_back(filecoin::domain_to_fr(h, "update circuit", what));
  }
  return out;
}

}  // namespace

PathSiblings blank_path(unsigned bit_len, const filecoin::TreeShape& shape) {
  shape.validate();
  const auto bits = [](uint32_t a) { return static_cast<unsigned>(std::countr_zero(a)); };
  unsigned remaining = bit_len;
  PathSiblings sub_and_top;
  if (shape.sub > 0) {
    sub_and_top.emplace_back(shape.sub - 1);
    remaining -= bits(shape.sub);
  }
  if (shape.top > 0) {
    sub_and_top.emplace_back(shape.top - 1);
    remaining -= bits(shape.top);
  }
  if (remaining % bits(shape.base) != 0) {
    throw std::invalid_argument("update circuit: 2^" + std::to_string(bit_len) +
                                " leaves do not fit a " + shape.to_string() + " tree");
  }
  PathSiblings path(remaining / bits(shape.base), std::vector<std::optional<Fr>>(shape.base - 1));
  path.insert(path.end(), sub_and_top.begin(), sub_and_top.end());
  return path;
}

ChallengeWitness ChallengeWitness::blank(unsigned challenge_bit_len,
                                         const filecoin::TreeShape& tree_r,
                                         const filecoin::TreeShape& tree_d) {
  ChallengeWitness w;
  w.path_r_old = blank_path(challenge_bit_len, tree_r);
  w.path_d_new = blank_path(challenge_bit_len, tree_d);
  w.path_r_new = w.path_r_old;
  return w;
}

ChallengeWitness ChallengeWitness::from_proofs(const filecoin::MerkleProof& proof_r_old,
                                               const filecoin::MerkleProof& proof_d_new,
                                               const filecoin::MerkleProof& proof_r_new,
                                               unsigned challenge_bit_len,
                                               const filecoin::TreeShape& tree_r,
                                               const filecoin::TreeShape& tree_d) {
  const ChallengeWitness shape = blank(challenge_bit_len, tree_r, tree_d);
  ChallengeWitness w;
  w.leaf_r_old = filecoin::domain_to_fr(proof_r_old.leaf(), "update circuit", "leaf_r_old");
  w.leaf_d_new = filecoin::domain_to_fr(proof_d_new.leaf(), "update circuit", "leaf_d_new");
  w.leaf_r_new = filecoin::domain_to_fr(proof_r_new.leaf(), "update circuit", "leaf_r_new");
  w.path_r_old = siblings_of(proof_r_old, shape.path_r_old, "proof_r_old");
  w.path_d_new = siblings_of(proof_d_new, shape.path_d_new, "proof_d_new");
  w.path_r_new = siblings_of(proof_r_new, shape.path_r_new, "proof_r_new");
  return w;
}

}  // namespace cuzk::update
