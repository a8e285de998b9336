#include "update/vanilla/update_vanilla.hpp"

#include <optional>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "update/vanilla/update_challenges.hpp"
#include "update/vanilla/update_encoding.hpp"

namespace cuzk::filecoin {

namespace {

constexpr TreeShape kTreeDShape{2, 0, 0};

std::string where(unsigned k, size_t i, uint32_t c) {
  return "update partition " + std::to_string(k) + " challenge " + std::to_string(i) + " (node " +
         std::to_string(c) + "): ";
}

// The apex tree: row 0 the leafs, each next row the SHA-256 nodes of the one below, the root last.
std::vector<std::vector<Domain>> apex_tree(const std::vector<Domain>& leafs) {
  std::vector<std::vector<Domain>> rows{leafs};
  while (rows.back().size() > 1) {
    const std::vector<Domain>& below = rows.back();
    std::vector<Domain> row;
    row.reserve(below.size() / 2);
    for (size_t i = 0; i + 1 < below.size(); i += 2)
      row.push_back(sha256_node(below[i], below[i + 1]));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<Domain> siblings(const InclusionPath& path, size_t from, size_t count) {
  std::vector<Domain> out;
  for (size_t i = from; i < from + count && i < path.size(); ++i)
    for (const Domain& h : path[i].hashes)
      out.push_back(h);
  return out;
}

void check_trees(const UpdateParams& pp, const UpdateTrees& t) {
  const TreeShape r = pp.tree_r_shape();
  const auto check = [&](const MerkleTree& tree, const TreeShape& shape, TreeHasher hasher,
                         const char* name) {
    if (tree.shape() != shape || tree.hasher() != hasher || tree.leaves() != pp.sector_nodes) {
      throw std::invalid_argument(std::string("update prover: ") + name + " is a " +
                                  tree.shape().to_string() + " tree of " +
                                  std::to_string(tree.leaves()) + " leaves, the sector needs " +
                                  shape.to_string() + " over " + std::to_string(pp.sector_nodes));
    }
  };
  check(t.tree_r_old, r, TreeHasher::kPoseidon, "tree_r_old");
  check(t.tree_d_new, kTreeDShape, TreeHasher::kSha256, "tree_d_new");
  check(t.tree_r_new, r, TreeHasher::kPoseidon, "tree_r_new");
}

// prove_inner over either kind of tree: `apex_node(row, i)` reads tree_d_new.
template <class Trees, class ApexNode>
UpdatePartitionProof prove_partition(const UpdateParams& pp, const UpdatePublicInputs& in,
                                     const Domain& comm_c, const Trees& trees, unsigned k,
                                     const ApexNode& apex_node) {
  if (pp.poseidon) {
    throw std::invalid_argument(
        "update prover: EmptySectorUpdate-Poseidon has no vanilla prover (upstream neither)");
  }
  if (k >= pp.partition_count) {
    throw std::invalid_argument("update prover: partition " + std::to_string(k) + " of " +
                                std::to_string(pp.partition_count));
  }
  UpdatePartitionProof out;
  out.comm_c = comm_c;
  for (unsigned j = 0; j < pp.apex_leaf_count; ++j)
    out.apex_leafs.push_back(
        apex_node(pp.apex_leafs_height(), uint64_t{k} * pp.apex_leaf_count + j));

  const TreeShape r_shape = pp.tree_r_shape();
  for (const uint32_t c : update_challenges(pp, in.comm_r_new, k)) {
    UpdateChallengeProof p{trees.tree_r_old.gen_proof(c), trees.tree_d_new.gen_proof(c),
                           trees.tree_r_new.gen_proof(c)};
    const auto ok = [&](const MerkleProof& proof, const auto& tree, const TreeShape& shape,
                        TreeHasher hasher, const char* name) {
      if (!merkle_proof_is_valid(proof, {shape, hasher, pp.sector_nodes, c, tree.root()})) {
        throw std::runtime_error(std::string("update prover: invalid ") + name +
                                 " Merkle proof for c=" + std::to_string(c));
      }
    };
    ok(p.proof_d_new, trees.tree_d_new, kTreeDShape, TreeHasher::kSha256, "TreeDNew");
    ok(p.proof_r_new, trees.tree_r_new, r_shape, TreeHasher::kPoseidon, "TreeRNew");
    ok(p.proof_r_old, trees.tree_r_old, r_shape, TreeHasher::kPoseidon, "TreeROld");
    out.challenge_proofs.push_back(std::move(p));
  }
  return out;
}

}  // namespace

UpdatePartitionProof prove_update_partition(const UpdateParams& pp, const UpdatePublicInputs& in,
                                            const Domain& comm_c, const UpdateTrees& trees,
                                            unsigned k) {
  if (!pp.poseidon) check_trees(pp, trees);
  const BaseTree& d = trees.tree_d_new.base_trees().front();
  return prove_partition(pp, in, comm_c, trees, k,
                         [&](unsigned row, uint64_t i) { return d.node(row, i); });
}

UpdatePartitionProof prove_update_partition(const UpdateParams& pp, const UpdatePublicInputs& in,
                                            const Domain& comm_c, const SparseUpdateTrees& trees,
                                            unsigned k) {
  return prove_partition(pp, in, comm_c, trees, k,
                         [&](unsigned row, uint64_t i) { return trees.tree_d_new.node(row, i); });
}

std::vector<UpdatePartitionProof> prove_update_partitions(const UpdateParams& pp,
                                                          const UpdatePublicInputs& in,
                                                          const Domain& comm_c,
                                                          const UpdateTrees& trees,
                                                          ThreadPool* pool) {
  std::vector<UpdatePartitionProof> out(pp.partition_count);
  const auto one = [&](size_t k) {
    out[k] = prove_update_partition(pp, in, comm_c, trees, static_cast<unsigned>(k));
  };
  if (pool != nullptr) {
    pool->run(out.size(), one);
  } else {
    for (size_t k = 0; k < out.size(); ++k)
      one(k);
  }
  return out;
}

void verify_update_partition(const UpdateParams& pp, const UpdatePublicInputs& in, unsigned k,
                             const UpdatePartitionProof& proof, ThreadPool* pool) {
  const int kk = static_cast<int>(k);
  const std::string part = "update partition " + std::to_string(k) + ": ";
  const auto fail = [&](const std::string& what) { throw UpdateVerifyError(kk, -1, part + what); };
  if (pp.poseidon) fail("the EmptySectorUpdate-Poseidon variant has no vanilla proofs");
  if (k >= pp.partition_count) {
    fail("partition-index exceeds partition-count (" + std::to_string(pp.partition_count) + ")");
  }
  try {
    pp.h_select(in.h);
  } catch (const std::invalid_argument&) {
    fail("invalid h = " + std::to_string(in.h) + " for the sector size");
  }
  if (proof.apex_leafs.size() != pp.apex_leaf_count) {
    fail("invalid number of apex-leafs (" + std::to_string(proof.apex_leafs.size()) + ", want " +
         std::to_string(pp.apex_leaf_count) + ")");
  }
  if (proof.challenge_proofs.size() != pp.challenge_count) {
    fail("invalid number of challenge proofs (" + std::to_string(proof.challenge_proofs.size()) +
         ", want " + std::to_string(pp.challenge_count) + ")");
  }
  const std::vector<std::vector<Domain>> apex = apex_tree(proof.apex_leafs);
  const Domain root_r_old = proof.challenge_proofs[0].proof_r_old.root();
  const Domain root_r_new = proof.challenge_proofs[0].proof_r_new.root();
  Domain phi{};
  try {
    if (poseidon_hash2(proof.comm_c, root_r_old) != in.comm_r_old) {
      fail("comm_r_old != H(comm_c, root of tree_r_old)");
    }
    if (poseidon_hash2(proof.comm_c, root_r_new) != in.comm_r_new) {
      fail("comm_r_new != H(comm_c, root of tree_r_new)");
    }
    phi = update_phi(in.comm_d_new, in.comm_r_old);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  std::vector<uint32_t> challenges;
  try {
    challenges = update_challenges(pp, in.comm_r_new, k);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }

  const TreeShape r_shape = pp.tree_r_shape();
  const unsigned high_shift = pp.challenge_bit_len - in.h;
  const unsigned apex_height = pp.apex_leafs_height();
  const unsigned random_bits = pp.random_bits_per_challenge();
  const InclusionPath first_d_path = proof.challenge_proofs[0].proof_d_new.path();
  const std::vector<Domain> partition_path =
      siblings(first_d_path, random_bits, pp.partition_bit_len);

  // One message per challenge; the first failure (in challenge order) is reported.
  std::vector<std::optional<std::string>> errors(challenges.size());
  const auto check_one = [&](size_t i) {
    const uint32_t c = challenges[i];
    const UpdateChallengeProof& p = proof.challenge_proofs[i];
    const auto bad = [&](const std::string& what) { errors[i] = where(k, i, c) + what; };
    const struct {
      const MerkleProof& proof;
      MerkleProofCheck check;
      const char* name;
    } proofs[] = {
        {p.proof_r_old,
         {r_shape, TreeHasher::kPoseidon, pp.sector_nodes, c, root_r_old},
         "tree_r_old"},
        {p.proof_d_new,
         {kTreeDShape, TreeHasher::kSha256, pp.sector_nodes, c, in.comm_d_new},
         "tree_d_new"},
        {p.proof_r_new,
         {r_shape, TreeHasher::kPoseidon, pp.sector_nodes, c, root_r_new},
         "tree_r_new"},
    };
    for (const auto& m : proofs) {
      try {
        verify_merkle_proof(m.proof, m.check);
      } catch (const std::exception& e) {
        return bad(std::string(m.name) + " proof: " + e.what());
      }
    }
    // Replica encoding.
    const std::optional<Fr> r_old = try_domain_to_fr(p.proof_r_old.leaf());
    const std::optional<Fr> d_new = try_domain_to_fr(p.proof_d_new.leaf());
    if (!r_old || !d_new) return bad("a leaf is not a field element");
    const Fr rho = update_rho(phi, c >> high_shift);
    if (fr_to_domain(*r_old + *d_new * rho) != p.proof_r_new.leaf()) {
      return bad("leaf_r_new != leaf_r_old + leaf_d_new * rho (replica encoding)");
    }
    // The apex: the path meets the apex leaf the challenge's bits select, and its siblings on the
    // apex levels are nodes of the apex tree.
    const InclusionPath path = p.proof_d_new.path();
    const InclusionPath below(path.begin(), path.begin() + apex_height);
    const uint64_t apex_index = (c >> apex_height) & (pp.apex_leaf_count - 1);
    if (inclusion_path_root(below, p.proof_d_new.leaf(), TreeHasher::kSha256) !=
        proof.apex_leafs[apex_index]) {
      return bad("the tree_d_new path does not reach apex leaf " + std::to_string(apex_index));
    }
    for (unsigned row = 0; row < pp.apex_leaf_bit_len; ++row) {
      const Domain& sib = path[apex_height + row].hashes.at(0);
      const std::vector<Domain>& r = apex[row];
      if (std::find(r.begin(), r.end(), sib) == r.end()) {
        return bad("apex path sibling at apex row " + std::to_string(row) +
                   " is not in the apex tree");
      }
    }
    if (siblings(path, random_bits, pp.partition_bit_len) != partition_path) {
      return bad("partition path differs from the first challenge's");
    }
  };
  if (pool != nullptr) {
    pool->run(challenges.size(), check_one);
  } else {
    for (size_t i = 0; i < challenges.size(); ++i)
      check_one(i);
  }
  for (size_t i = 0; i < errors.size(); ++i)
    if (errors[i]) throw UpdateVerifyError(kk, static_cast<int>(i), *errors[i]);

  // apex_por: the apex root and the partition path lead to comm_d_new.
  const InclusionPath top(first_d_path.begin() + random_bits, first_d_path.end());
  if (inclusion_path_root(top, apex.back().front(), TreeHasher::kSha256) != in.comm_d_new) {
    fail("the apex root and the partition path do not lead to comm_d_new");
  }
}

void verify_update_partitions(const UpdateParams& pp, const UpdatePublicInputs& in,
                              std::span<const UpdatePartitionProof> proofs, ThreadPool* pool) {
  if (proofs.size() != pp.partition_count) {
    throw UpdateVerifyError(-1, -1,
                            "update: " + std::to_string(proofs.size()) +
                                " partition proofs, the sector size has " +
                                std::to_string(pp.partition_count));
  }
  for (size_t k = 0; k < proofs.size(); ++k)
    verify_update_partition(pp, in, static_cast<unsigned>(k), proofs[k], pool);
}

}  // namespace cuzk::filecoin
