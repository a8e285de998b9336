#include "porep/vanilla/synthetic_c1.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/merkle/sparse_merkle_tree.hpp"
#include "filecoin/pieces.hpp"
#include "filecoin/replica_id.hpp"
#include "porep/vanilla/sdr_label.hpp"

namespace cuzk::filecoin {

namespace {

// SHA-256("cuzk synthetic c1|" tag || u64_le(seed) || u32_le(a) || u64_le(b)).
Sha256Digest derive(std::string_view tag, uint64_t seed, uint32_t a = 0, uint64_t b = 0) {
  uint8_t buf[20];
  for (int i = 0; i < 8; ++i)
    buf[i] = static_cast<uint8_t>(seed >> (8 * i));
  for (int i = 0; i < 4; ++i)
    buf[8 + i] = static_cast<uint8_t>(a >> (8 * i));
  for (int i = 0; i < 8; ++i)
    buf[12 + i] = static_cast<uint8_t>(b >> (8 * i));
  const std::string prefix = "cuzk synthetic c1|" + std::string(tag);
  return sha256(
      {std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(prefix.data()), prefix.size()),
       buf});
}

class Labels {
 public:
  Labels(uint64_t seed, unsigned layers) : seed_(seed), layers_(layers) {}

  void add_challenge(uint64_t c) { computed_.try_emplace(c, std::vector<Domain>(layers_)); }
  bool challenged(uint64_t v) const { return computed_.count(v) != 0; }

  Domain get(unsigned layer, uint64_t v) const {
    const auto it = computed_.find(v);
    if (it != computed_.end()) return it->second[layer - 1];
    return trim_to_fr32(derive("label", seed_, layer, v));
  }
  void set(unsigned layer, uint64_t v, const Domain& d) { computed_.at(v)[layer - 1] = d; }

  // Challenged nodes in increasing order.
  std::vector<uint64_t> challenges() const {
    std::vector<uint64_t> out;
    for (const auto& [v, rows] : computed_)
      out.push_back(v);
    return out;
  }

  Column column(uint64_t v) const {
    Column c;
    c.index = static_cast<uint32_t>(v);
    for (unsigned l = 1; l <= layers_; ++l)
      c.rows.push_back(get(l, v));
    return c;
  }

 private:
  uint64_t seed_;
  unsigned layers_;
  std::map<uint64_t, std::vector<Domain>> computed_;
};

}  // namespace

SyntheticC1 make_synthetic_c1(const PorepConfig& config, const SyntheticC1Params& params,
                              ThreadPool* pool) {
  if (config.feature) {
    throw std::invalid_argument(
        "synthetic C1: " + std::string(api_feature_name(*config.feature)) +
        " challenges depend on comm_r, which depends on the challenged nodes; only interactive "
        "proofs (V1, V1_1) can be made synthetically");
  }
  const uint64_t nodes = config.nodes();
  const unsigned layers = config.layers();
  const StackedGraph graph = config.graph();

  SyntheticC1 out;
  out.prover_id = prover_id_from_actor_id(params.prover_actor_id);
  out.sector_id = params.sector_id;
  SealCommitPhase1Output& c1 = out.c1;
  if (config.registered) c1.registered_proof = *config.registered;
  c1.ticket = derive("ticket", params.seed);
  c1.seed = derive("interactive randomness", params.seed);
  c1.comm_d = empty_comm_d(config.sector_size);
  Ticket ticket;
  std::copy(c1.ticket.begin(), c1.ticket.end(), ticket.begin());
  c1.replica_id =
      generate_replica_id(out.prover_id, out.sector_id, ticket, c1.comm_d, config.porep_id);

  // Challenges and their parents.
  const PorepChallengeParams cp = config.challenge_params();
  std::vector<std::vector<uint64_t>> challenges;
  Labels labels(params.seed, layers);
  for (unsigned k = 0; k < config.partitions(); ++k) {
    challenges.push_back(
        porep_partition_challenges(cp, c1.replica_id, std::nullopt, ChallengeSeed(c1.seed), k));
    for (uint64_t c : challenges.back())
      labels.add_challenge(c);
  }
  const std::vector<uint64_t> challenged = labels.challenges();
  std::map<uint64_t, std::array<uint32_t, kTotalDegree>> parents;
  for (uint64_t c : challenged)
    parents[c] = graph.parents(c);

  // Labels of the challenged nodes from their parents, layer by layer, nodes ascending.
  std::vector<uint8_t> distinct(kTotalDegree * kNodeSize);
  for (unsigned l = 1; l <= layers; ++l) {
    for (uint64_t c : challenged) {
      const auto& p = parents.at(c);
      const unsigned count = l == 1 ? kBaseDegree : kTotalDegree;
      for (unsigned j = 0; j < count; ++j) {
        const Domain d = labels.get(j < kBaseDegree ? l : l - 1, p[j]);
        std::copy(d.begin(), d.end(), distinct.begin() + j * kNodeSize);
      }
      labels.set(l, c,
                 sdr_label(c1.replica_id, l, c,
                           std::span<const uint8_t>(distinct.data(), count * kNodeSize)));
    }
  }

  // Every node with a column in the proofs, and its column hash.
  std::vector<uint64_t> columns_needed(challenged.begin(), challenged.end());
  for (const auto& [c, p] : parents)
    columns_needed.insert(columns_needed.end(), p.begin(), p.end());
  std::sort(columns_needed.begin(), columns_needed.end());
  columns_needed.erase(std::unique(columns_needed.begin(), columns_needed.end()),
                       columns_needed.end());
  std::vector<Domain> column_hashes(columns_needed.size());
  const auto hash_columns = [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      column_hashes[i] = column_hash(labels.column(columns_needed[i]).rows);
  };
  if (pool != nullptr && pool->size() > 1) {
    pool->parallel_for(columns_needed.size(), hash_columns, 8);
  } else {
    hash_columns(0, columns_needed.size());
  }

  const TreeShape shape = config.shape().tree;
  SparseMerkleTree tree_c(shape, nodes, TreeHasher::kPoseidon,
                          trim_to_fr32(derive("tree_c filler", params.seed)));
  for (size_t i = 0; i < columns_needed.size(); ++i)
    tree_c.set_leaf(columns_needed[i], column_hashes[i]);
  tree_c.build(pool);
  SparseMerkleTree tree_r(shape, nodes, TreeHasher::kPoseidon,
                          trim_to_fr32(derive("tree_r_last filler", params.seed)));
  for (uint64_t c : challenged)
    tree_r.set_leaf(c, labels.get(layers, c));  // replica = key + data, data = 0
  tree_r.build(pool);
  SparseMerkleTree tree_d(TreeShape{2, 0, 0}, nodes, TreeHasher::kSha256, Domain{});
  tree_d.build(pool);
  if (tree_d.root() != c1.comm_d) {
    throw std::logic_error("synthetic C1: the zero tree_d root is not the zero comm_d");
  }
  c1.comm_r = poseidon_hash2(tree_c.root(), tree_r.root());

  const auto column_proof = [&](uint64_t v) {
    return ColumnProof{labels.column(v), tree_c.gen_proof(v)};
  };
  for (const auto& partition : challenges) {
    std::vector<PorepChallengeProof> proofs;
    for (uint64_t c : partition) {
      const auto& p = parents.at(c);
      std::vector<ColumnProof> drg, exp;
      for (unsigned j = 0; j < kBaseDegree; ++j)
        drg.push_back(column_proof(p[j]));
      for (unsigned j = kBaseDegree; j < kTotalDegree; ++j)
        exp.push_back(column_proof(p[j]));
      proofs.push_back(make_challenge_proof(tree_d.gen_proof(c), column_proof(c), std::move(drg),
                                            std::move(exp), tree_r.gen_proof(c)));
    }
    c1.vanilla_proofs.push_back(std::move(proofs));
  }
  return out;
}

}  // namespace cuzk::filecoin
