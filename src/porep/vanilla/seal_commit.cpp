#include "porep/vanilla/seal_commit.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/merkle/tree_store.hpp"
#include "porep/vanilla/porep_verify.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::filecoin {

namespace {

// The opened sealing state of one sector (TemporaryAuxCache upstream).
struct SectorStores {
  MerkleTree tree_d, tree_c, tree_r_last;
  std::vector<std::unique_ptr<MappedFile>> layers;

  Column column(uint32_t node) const {
    Column c;
    c.index = node;
    for (const auto& f : layers) {
      Domain d;
      std::memcpy(d.data(), f->bytes().data() + uint64_t{node} * kNodeSize, kNodeSize);
      c.rows.push_back(d);
    }
    return c;
  }
  ColumnProof column_proof(uint32_t node) const { return {column(node), tree_c.gen_proof(node)}; }
};

}  // namespace

SealCommitPhase1Output seal_commit_phase1(const PorepConfig& config, const SealCommitInputs& in,
                                          ThreadPool* pool) {
  if (!config.registered) {
    throw std::invalid_argument("seal_commit_phase1: the config is not a registered seal proof");
  }
  if (in.comm_d == Domain{}) throw std::invalid_argument("Invalid all zero commitment (comm_d)");
  if (in.comm_r == Domain{}) throw std::invalid_argument("Invalid all zero commitment (comm_r)");
  if (!is_canonical_fr(in.comm_r)) {
    throw std::invalid_argument("comm_r " + to_hex(in.comm_r) + " is not a field element");
  }
  const uint64_t nodes = config.nodes();
  const SectorShape& shape = config.shape();

  const PersistentAux p_aux = read_p_aux(in.cache_dir);
  if (poseidon_hash2(p_aux.comm_c, p_aux.comm_r_last) != in.comm_r) {
    throw std::invalid_argument(in.cache_dir.string() + ": p_aux (comm_c " + to_hex(p_aux.comm_c) +
                                ", comm_r_last " + to_hex(p_aux.comm_r_last) +
                                ") does not hash to comm_r " + to_hex(in.comm_r));
  }
  const unsigned rows_to_discard =
      tree_r_last_rows_to_discard(in.cache_dir, shape.nodes_per_base_tree(), shape.tree.base);

  SectorStores s{open_tree_d(in.cache_dir, nodes),
                 open_tree_c(in.cache_dir, nodes, shape.tree),
                 open_tree_r_last(in.cache_dir, in.sealed_path, nodes, shape.tree, rows_to_discard),
                 {}};
  if (s.tree_d.root() != in.comm_d) {
    throw std::invalid_argument(in.cache_dir.string() + ": tree_d root " + to_hex(s.tree_d.root()) +
                                " is not comm_d " + to_hex(in.comm_d));
  }
  if (s.tree_c.root() != p_aux.comm_c || s.tree_r_last.root() != p_aux.comm_r_last) {
    throw std::invalid_argument(in.cache_dir.string() +
                                ": the tree_c / tree_r_last files do not match p_aux");
  }
  for (unsigned l = 1; l <= shape.layers; ++l) {
    auto f = std::make_unique<MappedFile>(in.cache_dir / layer_file_name(l));
    if (f->bytes().size() != nodes * kNodeSize) {
      throw std::invalid_argument(f->path().string() + ": " + std::to_string(f->bytes().size()) +
                                  " bytes, expected " + std::to_string(nodes * kNodeSize));
    }
    s.layers.push_back(std::move(f));
  }

  SealCommitPhase1Output out;
  out.registered_proof = *config.registered;
  out.comm_d = in.comm_d;
  out.comm_r = in.comm_r;
  out.replica_id =
      generate_replica_id(in.prover_id, in.sector_id, in.ticket, in.comm_d, config.porep_id);
  out.seed = in.seed;
  out.ticket = in.ticket;

  const StackedGraph graph = config.graph();
  const PorepChallengeParams params = config.challenge_params();
  for (unsigned k = 0; k < config.partitions(); ++k) {
    const std::vector<uint64_t> challenges = porep_partition_challenges(
        params, out.replica_id, out.comm_r, std::optional<ChallengeSeed>(in.seed), k);
    std::vector<PorepChallengeProof> proofs(challenges.size());
    const auto prove = [&](size_t i) {
      const uint64_t c = challenges[i];
      const auto parents = graph.parents(c);
      std::vector<ColumnProof> drg, exp;
      for (unsigned j = 0; j < kBaseDegree; ++j)
        drg.push_back(s.column_proof(parents[j]));
      for (unsigned j = kBaseDegree; j < kTotalDegree; ++j)
        exp.push_back(s.column_proof(parents[j]));
      proofs[i] =
          make_challenge_proof(s.tree_d.gen_proof(c), s.column_proof(static_cast<uint32_t>(c)),
                               std::move(drg), std::move(exp), s.tree_r_last.gen_proof(c));
    };
    if (pool != nullptr && pool->size() > 1 && challenges.size() > 1) {
      pool->run(challenges.size(), prove);
    } else {
      for (size_t i = 0; i < challenges.size(); ++i)
        prove(i);
    }
    out.vanilla_proofs.push_back(std::move(proofs));
  }

  try {
    PorepVerifyOptions vo;
    vo.prover_id = in.prover_id;
    vo.sector_id = in.sector_id;
    vo.pool = pool;
    verify_seal_commit_phase1(out, config, vo);
  } catch (const PorepVerifyError& e) {
    throw std::invalid_argument(std::string("Invalid vanilla proof generated: ") + e.what());
  }
  return out;
}

}  // namespace cuzk::filecoin
