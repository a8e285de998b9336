// SnapDeals vanilla partition proofs: generation and verification, as rust-fil-proofs
// storage-proofs-update/src/vanilla.rs `EmptySectorUpdate::prove_inner` / `verify`.
//
// Proving partition k: its apex leafs are tree_d_new's nodes k * apex_leaf_count ... in the row
// apex_leafs_height() above the leaves; per challenge c of partition k (update_challenges.hpp)
// the tree_r_old, tree_d_new and tree_r_new inclusion proofs of leaf c. Each proof is checked
// before it is returned, as upstream does.
//
// Verifying partition k, everything upstream checks: k < partitions, h allowed, apex_leaf_count
// apex leafs and challenge_count challenge proofs; comm_r_old = Poseidon_2(comm_c, root_r_old) and
// comm_r_new = Poseidon_2(comm_c, root_r_new) with the roots of the first challenge's proofs; per
// challenge c: the three proofs open leaf c (path index), have the roots root_r_old, comm_d_new,
// root_r_new and verify, leaf_r_new = leaf_r_old + leaf_d_new * rho(c >> (log2 N - h)), and each
// sibling on the apex levels of the tree_d path is a node of the apex tree built from the apex
// leafs. Also what the circuit then enforces (so a proof that passes here also satisfies it):
// the tree_d path reaches apex_leafs[c's apex bits] at the apex row, every challenge shares the
// first challenge's partition path (the tree_d path's last log2(partitions) levels), and the apex
// root with that path hashes to comm_d_new.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/merkle/merkle_tree.hpp"
#include "filecoin/merkle/sparse_merkle_tree.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

// vanilla.rs `PublicInputs` without k: what a verifier of the whole update knows.
struct UpdatePublicInputs {
  Domain comm_r_old{};
  Domain comm_d_new{};
  Domain comm_r_new{};
  unsigned h = 0;  // UpdateParams::h_default() for every registered proof
};

// A check failed; what() names the partition, the challenge (index and node) and the check.
class UpdateVerifyError : public std::runtime_error {
 public:
  UpdateVerifyError(int partition, int challenge, const std::string& what)
      : std::runtime_error(what), partition_(partition), challenge_(challenge) {}
  int partition() const { return partition_; }
  int challenge() const { return challenge_; }  // -1: not about one challenge

 private:
  int partition_, challenge_;
};

// The three trees of an update: tree_r_last of the sector key (tree_r_shape()), tree_d over the
// new data (binary SHA-256, every row stored), tree_r_last of the new replica.
struct UpdateTrees {
  const MerkleTree& tree_r_old;
  const MerkleTree& tree_d_new;
  const MerkleTree& tree_r_new;
};

// The same trees as sparse trees (sparse_merkle_tree.hpp: a few leaves set, one filler elsewhere),
// for updates of full-size shapes made without a sector (update_synthetic.hpp).
struct SparseUpdateTrees {
  const SparseMerkleTree& tree_r_old;
  const SparseMerkleTree& tree_d_new;
  const SparseMerkleTree& tree_r_new;
};

// std::invalid_argument for trees of another shape or size, k out of range or the Poseidon
// variant (upstream has no vanilla prover for it); std::runtime_error if a generated proof does
// not verify.
UpdatePartitionProof prove_update_partition(const UpdateParams& pp, const UpdatePublicInputs& in,
                                            const Domain& comm_c, const UpdateTrees& trees,
                                            unsigned k);
UpdatePartitionProof prove_update_partition(const UpdateParams& pp, const UpdatePublicInputs& in,
                                            const Domain& comm_c, const SparseUpdateTrees& trees,
                                            unsigned k);
std::vector<UpdatePartitionProof> prove_update_partitions(const UpdateParams& pp,
                                                          const UpdatePublicInputs& in,
                                                          const Domain& comm_c,
                                                          const UpdateTrees& trees,
                                                          ThreadPool* pool = nullptr);

// Throws UpdateVerifyError naming the first failing check (challenges checked in parallel on
// `pool` when given).
void verify_update_partition(const UpdateParams& pp, const UpdatePublicInputs& in, unsigned k,
                             const UpdatePartitionProof& proof, ThreadPool* pool = nullptr);
// verify_all_partitions: exactly partition_count proofs, partition k the k-th.
void verify_update_partitions(const UpdateParams& pp, const UpdatePublicInputs& in,
                              std::span<const UpdatePartitionProof> proofs,
                              ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
