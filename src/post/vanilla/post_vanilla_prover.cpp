#include "post/vanilla/post_vanilla_prover.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/merkle/sparse_merkle_tree.hpp"
#include "filecoin/merkle/tree_store.hpp"
#include "filecoin/sector_shape.hpp"
#include "post/vanilla/post_challenges.hpp"

namespace cuzk::filecoin {

namespace {

// The inclusion proofs of `challenges` from `tree`, each checked as vanilla.rs `vanilla_proof`
// does ("Generated vanilla proof for sector ... is invalid").
template <class Tree>
PoStSectorProof sector_proof(const Tree& tree, const TreeShape& shape, uint64_t sector_id,
                             const Domain& comm_c, std::span<const uint64_t> challenges) {
  PoStSectorProof s;
  s.comm_c = comm_c;
  s.comm_r_last = tree.root();
  s.inclusion_proofs.reserve(challenges.size());
  for (const uint64_t c : challenges) {
    if (c >= tree.leaves()) {
      throw std::invalid_argument("PoSt sector " + std::to_string(sector_id) + ": challenge " +
                                  std::to_string(c) + " is past its " +
                                  std::to_string(tree.leaves()) + " leaves");
    }
    MerkleProof p = tree.gen_proof(c);
    MerkleProofCheck check{shape, TreeHasher::kPoseidon, tree.leaves(), c, s.comm_r_last};
    if (!merkle_proof_is_valid(p, check)) {
      throw std::invalid_argument("Generated vanilla proof for sector " +
                                  std::to_string(sector_id) + " is invalid");
    }
    s.inclusion_proofs.push_back(std::move(p));
  }
  return s;
}

std::array<uint8_t, 8> le64(uint64_t v) {
  std::array<uint8_t, 8> b;
  for (size_t i = 0; i < 8; ++i)
    b[i] = static_cast<uint8_t>(v >> (8 * i));
  return b;
}

// A field element from the seed, the sector and a tag ("comm_c", "filler", "leaf" + index).
Domain synthetic_value(uint64_t seed, uint64_t sector_id, std::string_view tag, uint64_t i) {
  constexpr std::string_view kDomain = "cuzk synthetic PoSt sector";
  const auto s = le64(seed), id = le64(sector_id), n = le64(i);
  const Sha256Digest d =
      sha256({std::span(reinterpret_cast<const uint8_t*>(kDomain.data()), kDomain.size()), s, id,
              std::span(reinterpret_cast<const uint8_t*>(tag.data()), tag.size()), n});
  Domain out;
  std::copy(d.begin(), d.end(), out.begin());
  return trim_to_fr32(out);
}

}  // namespace

std::vector<std::vector<uint64_t>> fallback_sector_challenges(const PoStConfig& config,
                                                              const Domain& randomness,
                                                              std::span<const uint64_t> sector_ids,
                                                              uint32_t first_partition) {
  if (!is_canonical_fr(randomness)) {
    throw std::invalid_argument("PoSt challenges: the randomness is not a field element");
  }
  const size_t per = config.sector_count;
  const bool winning = config.kind == PoStKind::kWinning;
  const size_t count = winning ? std::min<size_t>(sector_ids.size(), per) : sector_ids.size();
  const uint64_t first = winning ? 0 : uint64_t{first_partition} * per;
  std::vector<std::vector<uint64_t>> out;
  out.reserve(count);
  for (size_t s = 0; s < count; ++s) {
    // sector_index = partition * sectors per partition + i, i.e. the position in the list.
    out.push_back(post_leaf_challenges(randomness, sector_ids[s], config.sector_size,
                                       config.challenge_count, config.api_version, first + s));
  }
  return out;
}

FallbackPoStSectorProof prove_sealed_sector(const PoStConfig& config, uint64_t sector_id,
                                            const SealedReplica& replica,
                                            std::span<const uint64_t> challenges) {
  const SectorShape& shape = sector_shape(config.sector_size);
  const PersistentAux p_aux = read_p_aux(replica.cache_dir);
  const MerkleTree tree = open_tree_r_last(
      replica.cache_dir, replica.sealed_path, shape.nodes, shape.tree,
      tree_r_last_rows_to_discard(replica.cache_dir, shape.nodes_per_base_tree(), shape.tree.base));
  if (tree.root() != p_aux.comm_r_last) {
    throw std::invalid_argument(replica.cache_dir.string() + ": tree_r_last root " +
                                to_hex(tree.root()) + " is not p_aux's comm_r_last " +
                                to_hex(p_aux.comm_r_last));
  }
  FallbackPoStSectorProof out;
  out.sector_id = sector_id;
  out.comm_r = poseidon_hash2(p_aux.comm_c, p_aux.comm_r_last);
  out.sectors.push_back(sector_proof(tree, shape.tree, sector_id, p_aux.comm_c, challenges));
  return out;
}

FallbackPoStSectorProof synthetic_sector_proof(const PoStConfig& config, uint64_t sector_id,
                                               uint64_t seed,
                                               std::span<const uint64_t> challenges) {
  const SectorShape& shape = sector_shape(config.sector_size);
  SparseMerkleTree tree(shape.tree, shape.nodes, TreeHasher::kPoseidon,
                        synthetic_value(seed, sector_id, "filler", 0));
  for (const uint64_t c : challenges) {
    if (c >= shape.nodes) {
      throw std::invalid_argument("synthetic PoSt sector: challenge " + std::to_string(c) +
                                  " is past its " + std::to_string(shape.nodes) + " leaves");
    }
    tree.set_leaf(c, synthetic_value(seed, sector_id, "leaf", c));
  }
  tree.build();
  const Domain comm_c = synthetic_value(seed, sector_id, "comm_c", 0);
  FallbackPoStSectorProof out;
  out.sector_id = sector_id;
  out.comm_r = poseidon_hash2(comm_c, tree.root());
  out.sectors.push_back(sector_proof(tree, shape.tree, sector_id, comm_c, challenges));
  return out;
}

}  // namespace cuzk::filecoin
