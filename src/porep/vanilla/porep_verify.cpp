#include "porep/vanilla/porep_verify.hpp"

#include <vector>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/replica_id.hpp"
#include "porep/vanilla/sdr_label.hpp"

namespace cuzk::filecoin {

namespace {

// A failed check inside one challenge; the caller adds partition and challenge.
struct CheckFailed {
  std::string what;
};

[[noreturn]] void fail(std::string what) {
  throw CheckFailed{std::move(what)};
}

void check_merkle(const MerkleProof& proof, const MerkleProofCheck& check, const char* name) {
  try {
    verify_merkle_proof(proof, check);
  } catch (const MerkleProofError& e) {
    fail(std::string(name) + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    fail(std::string(name) + ": " + e.what());
  }
}

// What every challenge of the output shares.
struct Context {
  const PorepConfig& config;
  const SealCommitPhase1Output& c1;
  const StackedGraph& graph;
  Domain comm_c{}, comm_r_last{};
};

void check_column(const Context& ctx, const ColumnProof& p, uint64_t node,
                  const std::string& name) {
  if (p.column.index != node) {
    fail(name + ": the column is of node " + std::to_string(p.column.index) + ", expected node " +
         std::to_string(node));
  }
  if (p.column.rows.size() != ctx.config.layers()) {
    fail(name + ": the column has " + std::to_string(p.column.rows.size()) + " rows, expected " +
         std::to_string(ctx.config.layers()) + " (one per layer)");
  }
  for (size_t l = 0; l < p.column.rows.size(); ++l) {
    if (!is_canonical_fr(p.column.rows[l])) {
      fail(name + ": row " + std::to_string(l + 1) + " (" + to_hex(p.column.rows[l]) +
           ") is not a canonical field element");
    }
  }
  const Domain h = column_hash(p.column.rows);
  if (p.inclusion_proof.leaf() != h) {
    fail(name + ": the column hashes to " + to_hex(h) + ", the tree_c proof's leaf is " +
         to_hex(p.inclusion_proof.leaf()));
  }
  check_merkle(
      p.inclusion_proof,
      {ctx.config.shape().tree, TreeHasher::kPoseidon, ctx.config.nodes(), node, ctx.comm_c},
      (name + ": tree_c inclusion proof").c_str());
}

void check_labeling(const LabelingProof& p, const std::vector<Domain>& parents, unsigned layer,
                    uint64_t node, const std::string& name) {
  if (p.layer_index != layer) {
    fail(name + ": layer_index " + std::to_string(p.layer_index) + ", expected " +
         std::to_string(layer));
  }
  if (p.node != node) {
    fail(name + ": node " + std::to_string(p.node) + ", expected " + std::to_string(node));
  }
  if (p.parents.size() != parents.size()) {
    fail(name + ": " + std::to_string(p.parents.size()) + " parents, expected " +
         std::to_string(parents.size()));
  }
  for (size_t j = 0; j < parents.size(); ++j) {
    if (p.parents[j] != parents[j]) {
      fail(name + ": parent " + std::to_string(j) + " is " + to_hex(p.parents[j]) +
           ", the parents' columns give " + to_hex(parents[j]));
    }
  }
}

void check_challenge(const Context& ctx, const PorepChallengeProof& p, uint64_t c) {
  const PorepConfig& cfg = ctx.config;
  const unsigned layers = cfg.layers();

  // Data node in comm_d (the circuit's first PoR).
  check_merkle(p.comm_d_proofs,
               {TreeShape{2, 0, 0}, TreeHasher::kSha256, cfg.nodes(), c, ctx.c1.comm_d},
               "comm_d inclusion proof");

  // Columns: c_x, then the parents at the graph's parents of c.
  const ReplicaColumnProof& rcp = p.replica_column_proofs;
  if (rcp.c_x.inclusion_proof.root() != ctx.comm_c) {
    fail("replica column c_x: its tree_c root " + to_hex(rcp.c_x.inclusion_proof.root()) +
         " differs from comm_c " + to_hex(ctx.comm_c) + " of the first challenge");
  }
  check_column(ctx, rcp.c_x, c, "replica column c_x");
  if (rcp.drg_parents.size() != kBaseDegree || rcp.exp_parents.size() != kExpansionDegree) {
    fail("replica column proofs: " + std::to_string(rcp.drg_parents.size()) + " DRG and " +
         std::to_string(rcp.exp_parents.size()) + " expander parent columns, expected 6 and 8");
  }
  const auto parents = ctx.graph.parents(c);
  for (unsigned j = 0; j < kBaseDegree; ++j)
    check_column(ctx, rcp.drg_parents[j], parents[j], "DRG parent column " + std::to_string(j));
  for (unsigned j = 0; j < kExpansionDegree; ++j) {
    check_column(ctx, rcp.exp_parents[j], parents[kBaseDegree + j],
                 "expander parent column " + std::to_string(j));
  }

  // Labels from the parents' columns, layer by layer (create_label in the circuit).
  if (p.labeling_proofs.size() != layers) {
    fail("labeling proofs: " + std::to_string(p.labeling_proofs.size()) + " entries, expected " +
         std::to_string(layers) + " (one per layer)");
  }
  std::vector<Domain> q;
  for (unsigned l = 1; l <= layers; ++l) {
    q = label_parents_from_columns(rcp.drg_parents, rcp.exp_parents, l);
    const Domain label = create_label(ctx.c1.replica_id, l, c, q);
    if (label != rcp.c_x.column.rows[l - 1]) {
      fail("label of layer " + std::to_string(l) + ": recomputed from the parents' columns it is " +
           to_hex(label) + ", the column of node " + std::to_string(c) + " holds " +
           to_hex(rcp.c_x.column.rows[l - 1]));
    }
    check_labeling(p.labeling_proofs[l - 1], q, l, c,
                   "labeling proof of layer " + std::to_string(l));
  }
  check_labeling(p.encoding_proof, q, layers, c, "encoding proof");

  // Replica node in comm_r_last and the encoding replica = key + data.
  check_merkle(p.comm_r_last_proof,
               {cfg.shape().tree, TreeHasher::kPoseidon, cfg.nodes(), c, ctx.comm_r_last},
               "comm_r_last inclusion proof");
  const std::optional<Fr> data = try_domain_to_fr(p.comm_d_proofs.leaf());
  if (!data) {
    fail("encoding: the data node " + to_hex(p.comm_d_proofs.leaf()) +
         " is not a canonical field element");
  }
  const Domain expected = fr_to_domain(domain_to_fr(rcp.c_x.column.rows[layers - 1]) + *data);
  if (expected != p.comm_r_last_proof.leaf()) {
    fail("encoding: key (label of layer " + std::to_string(layers) +
         ") + data node = " + to_hex(expected) +
         ", the comm_r_last proof's leaf (replica node) is " + to_hex(p.comm_r_last_proof.leaf()));
  }
}

std::string where(unsigned k, size_t i, uint64_t c) {
  return "partition " + std::to_string(k) + ", challenge " + std::to_string(i) + " (node " +
         std::to_string(c) + "): ";
}

}  // namespace

void verify_seal_commit_phase1(const SealCommitPhase1Output& c1,
                               const PorepVerifyOptions& options) {
  verify_seal_commit_phase1(c1, porep_config(c1.registered_proof), options);
}

void verify_seal_commit_phase1(const SealCommitPhase1Output& c1, const PorepConfig& config,
                               const PorepVerifyOptions& options) {
  const unsigned partitions = config.partitions();
  const unsigned cpp = config.challenges_per_partition();
  if (c1.vanilla_proofs.size() != partitions) {
    throw PorepVerifyError(-1, -1,
                           "vanilla_proofs: " + std::to_string(c1.vanilla_proofs.size()) +
                               " partitions, the registered proof has " +
                               std::to_string(partitions));
  }
  for (unsigned k = 0; k < partitions; ++k) {
    if (c1.vanilla_proofs[k].size() != cpp) {
      throw PorepVerifyError(static_cast<int>(k), -1,
                             "partition " + std::to_string(k) + ": " +
                                 std::to_string(c1.vanilla_proofs[k].size()) +
                                 " challenge proofs, expected " + std::to_string(cpp));
    }
  }
  // Both enter the circuit as field elements (seal.rs refuses zero commitments).
  for (const auto& [value, name] :
       {std::pair{&c1.comm_d, "comm_d"}, std::pair{&c1.comm_r, "comm_r"}}) {
    if (*value == Domain{}) throw PorepVerifyError(-1, -1, std::string(name) + " is all zero");
    if (!is_canonical_fr(*value)) {
      throw PorepVerifyError(-1, -1,
                             std::string(name) + " " + to_hex(*value) + " is not a field element");
    }
  }
  if (options.prover_id && options.sector_id) {
    const Domain expected = generate_replica_id(*options.prover_id, *options.sector_id, c1.ticket,
                                                c1.comm_d, config.porep_id);
    if (expected != c1.replica_id) {
      throw PorepVerifyError(
          -1, -1,
          "replica_id " + to_hex(c1.replica_id) +
              " differs from the one of the prover, sector, ticket and comm_d: " +
              to_hex(expected));
    }
  }
  if (!is_canonical_fr(c1.replica_id)) {
    throw PorepVerifyError(-1, -1,
                           "replica_id " + to_hex(c1.replica_id) + " is not a field element");
  }

  // comm_c and comm_r_last are the roots of the first challenge's proofs (Proof::comm_c /
  // comm_r_last); every other proof must agree, and comm_r must be their hash.
  const PorepChallengeProof& first = c1.vanilla_proofs.front().front();
  const Domain comm_c = first.replica_column_proofs.c_x.inclusion_proof.root();
  const Domain comm_r_last = first.comm_r_last_proof.root();
  for (const auto& [value, name] :
       {std::pair{&comm_c, "comm_c"}, std::pair{&comm_r_last, "comm_r_last"}}) {
    if (!is_canonical_fr(*value)) {
      throw PorepVerifyError(0, 0,
                             where(0, 0, first.replica_column_proofs.c_x.column.index) + name +
                                 " " + to_hex(*value) + " is not a field element");
    }
  }
  const Domain h = poseidon_hash2(comm_c, comm_r_last);
  if (h != c1.comm_r) {
    throw PorepVerifyError(-1, -1,
                           "comm_r " + to_hex(c1.comm_r) + " is not Poseidon_2(comm_c " +
                               to_hex(comm_c) + ", comm_r_last " + to_hex(comm_r_last) +
                               ") = " + to_hex(h));
  }

  const StackedGraph graph = config.graph();
  const Context ctx{config, c1, graph, comm_c, comm_r_last};
  const PorepChallengeParams params = config.challenge_params();
  const std::optional<ChallengeSeed> seed = c1.seed;
  for (unsigned k = 0; k < partitions; ++k) {
    std::vector<uint64_t> challenges;
    try {
      challenges = porep_partition_challenges(params, c1.replica_id, c1.comm_r, seed, k);
    } catch (const std::invalid_argument& e) {
      throw PorepVerifyError(
          static_cast<int>(k), -1,
          "partition " + std::to_string(k) + ": challenge derivation: " + e.what());
    }
    const auto& proofs = c1.vanilla_proofs[k];
    std::vector<std::string> errors(cpp);
    const auto check_one = [&](size_t i) {
      const PorepChallengeProof& p = proofs[i];
      const uint64_t c = challenges[i];
      try {
        const uint64_t proven = merkle_proof_leaf_index(p.comm_d_proofs);
        if (proven != c || p.replica_column_proofs.c_x.column.index != c) {
          fail("challenge: the proof is of node " + std::to_string(proven) + " (c_x column " +
               std::to_string(p.replica_column_proofs.c_x.column.index) +
               "), the derived challenge is node " + std::to_string(c));
        }
        check_challenge(ctx, p, c);
      } catch (const CheckFailed& e) {
        errors[i] = where(k, i, c) + e.what;
      } catch (const std::exception& e) {
        errors[i] = where(k, i, c) + e.what();
      }
    };
    if (options.pool != nullptr && options.pool->size() > 1 && cpp > 1) {
      options.pool->run(cpp, check_one);
    } else {
      for (size_t i = 0; i < cpp; ++i)
        check_one(i);
    }
    for (size_t i = 0; i < cpp; ++i) {
      if (!errors[i].empty()) {
        throw PorepVerifyError(static_cast<int>(k), static_cast<int>(i), errors[i]);
      }
    }
  }
}

}  // namespace cuzk::filecoin
