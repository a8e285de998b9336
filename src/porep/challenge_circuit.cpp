#include "porep/challenge_circuit.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "circuits/bits.hpp"
#include "circuits/constraint.hpp"
#include "circuits/create_label.hpp"
#include "circuits/label_native.hpp"
#include "circuits/names.hpp"
#include "circuits/root.hpp"
#include "circuits/uint64.hpp"
#include "gadgets/uint32.hpp"

namespace cuzk::porep {

using circuits::AuthPath;
using circuits::Name;
using circuits::NameN;
using circuits::NameNS;
using circuits::Ns;
using circuits::TreeArity;
using gadgets::AllocatedNum;
using gadgets::Boolean;

namespace {

constexpr TreeArity kTreeDArity{2, 0, 0};

// por.rs's path conversion (circuits::auth_path_of), naming the proof when it does not fit.
AuthPath auth_path(const filecoin::MerkleProof& proof, TreeArity arity, uint64_t leaves,
                   const char* what) {
  try {
    return circuits::auth_path_of(proof, arity, leaves);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("porep circuit: ") + what + " " + e.what());
  }
}

circuits::ColumnProof column_proof(const filecoin::ColumnProof& p, const PublicParams& pp,
                                   const char* what) {
  if (p.column.rows.size() != pp.layers) {
    throw std::invalid_argument(std::string("porep circuit: ") + what + " column has " +
                                std::to_string(p.column.rows.size()) + " rows, want " +
                                std::to_string(pp.layers));
  }
  circuits::ColumnProof out{circuits::Column{},
                            auth_path(p.inclusion_proof, pp.tree_arity(), pp.nodes, what)};
  out.column.rows.reserve(p.column.rows.size());
  for (const filecoin::Domain& r : p.column.rows)
    out.column.rows.emplace_back(filecoin::domain_to_fr(r, "porep circuit", what));
  return out;
}

// params.rs `enforce_inclusion`: PoRCircuit::synthesize with both ends already allocated and a
// private root.
void enforce_inclusion(ConstraintSystem& cs, circuits::TreeHasher hasher, const AuthPath& path,
                       const AllocatedNum& root, const AllocatedNum& leaf) {
  circuits::por_circuit(cs, hasher, circuits::Root::var(leaf), path, circuits::Root::var(root),
                        true);
}

}  // namespace

ChallengeCircuit ChallengeCircuit::empty(const PublicParams& pp) {
  const circuits::ColumnProof blank_column{circuits::Column::empty(pp.layers),
                                           AuthPath::blank(pp.tree_arity(), pp.nodes)};
  ChallengeCircuit c{
      AuthPath::blank(kTreeDArity, pp.nodes),
      std::nullopt,
      std::nullopt,
      AuthPath::blank(pp.tree_arity(), pp.nodes),
      AuthPath::blank(pp.tree_arity(), pp.nodes),
      std::vector<circuits::ColumnProof>(filecoin::kBaseDegree, blank_column),
      std::vector<circuits::ColumnProof>(filecoin::kExpansionDegree, blank_column),
  };
  return c;
}

ChallengeCircuit ChallengeCircuit::from_vanilla(const filecoin::PorepChallengeProof& proof,
                                                const PublicParams& pp) {
  const filecoin::ReplicaColumnProof& rcp = proof.replica_column_proofs;
  if (rcp.drg_parents.size() != filecoin::kBaseDegree ||
      rcp.exp_parents.size() != filecoin::kExpansionDegree) {
    throw std::invalid_argument("porep circuit: " + std::to_string(rcp.drg_parents.size()) +
                                " DRG and " + std::to_string(rcp.exp_parents.size()) +
                                " expander parent columns, want 6 and 8");
  }
  if (proof.labeling_proofs.empty()) {
    throw std::invalid_argument(
        "porep circuit: no labeling proofs (the challenge comes from them)");
  }
  ChallengeCircuit c{
      auth_path(proof.comm_d_proofs, kTreeDArity, pp.nodes, "comm_d proof"),
      filecoin::domain_to_fr(proof.comm_d_proofs.leaf(), "porep circuit", "data leaf"),
      proof.labeling_proofs[0].node,
      auth_path(proof.comm_r_last_proof, pp.tree_arity(), pp.nodes, "comm_r_last proof"),
      auth_path(rcp.c_x.inclusion_proof, pp.tree_arity(), pp.nodes, "c_x proof"),
      {},
      {},
  };
  for (const filecoin::ColumnProof& p : rcp.drg_parents)
    c.drg_parents_proofs.push_back(column_proof(p, pp, "DRG parent"));
  for (const filecoin::ColumnProof& p : rcp.exp_parents)
    c.exp_parents_proofs.push_back(column_proof(p, pp, "expander parent"));
  return c;
}

void ChallengeCircuit::synthesize(ConstraintSystem& cs, const AllocatedNum& comm_d,
                                  const AllocatedNum& comm_c, const AllocatedNum& comm_r_last,
                                  std::span<const Boolean> replica_id_bits) const {
  using circuits::TreeHasher;
  if (drg_parents_proofs.empty() || exp_parents_proofs.empty()) {
    throw std::invalid_argument("porep circuit: a challenge needs DRG and expander parents");
  }

  // -- the initial data layer
  const AllocatedNum data_leaf_num = AllocatedNum::alloc(Ns(cs, Name{"data_leaf"}), data_leaf);
  enforce_inclusion(Ns(cs, Name{"comm_d_inclusion"}), TreeHasher::kSha256, comm_d_path, comm_d,
                    data_leaf_num);

  // -- the replica column openings of the parents
  const size_t num_layers = drg_parents_proofs[0].column.rows.size();
  // "<kind><i>_num" (the column), "<kind><i>_constraint" (its hash), "<kind><i>_inclusion".
  // Each opening is a piece of its own (column, hash, path: ~9 k constraints at 32 GiB).
  const auto open_parents = [&](const std::vector<circuits::ColumnProof>& proofs,
                                const char* kind) {
    std::vector<std::optional<circuits::AllocatedColumn>> opened(proofs.size());
    cs.pieces(proofs.size(), [&](size_t i, ConstraintSystem& pcs) {
      circuits::AllocatedColumn col = proofs[i].alloc(Ns(pcs, NameNS{kind, i, "_num"}));
      if (col.size() != num_layers) {
        throw std::invalid_argument("porep circuit: parent columns of different heights");
      }
      const AllocatedNum hash = col.hash(Ns(pcs, NameNS{kind, i, "_constraint"}));
      enforce_inclusion(Ns(pcs, NameNS{kind, i, "_inclusion"}), TreeHasher::kPoseidon,
                        proofs[i].inclusion_path, comm_c, hash);
      opened[i].emplace(std::move(col));
    });
    std::vector<circuits::AllocatedColumn> columns;
    columns.reserve(proofs.size());
    for (auto& c : opened)
      columns.push_back(std::move(*c));
    return columns;
  };
  const std::vector<circuits::AllocatedColumn> drg_parents =
      open_parents(drg_parents_proofs, "drg_parent_");
  const std::vector<circuits::AllocatedColumn> exp_parents =
      open_parents(exp_parents_proofs, "exp_parent_");

  // -- labeling: the challenge is a public input
  const circuits::UInt64 challenge_num =
      circuits::UInt64::alloc(Ns(cs, Name{"challenge"}), challenge);
  challenge_num.pack_into_input(Ns(cs, Name{"challenge input"}));

  // One piece per layer (the label of 37 parents: ~532 k constraints, the bulk of a challenge).
  std::vector<AllocatedNum> column_labels(num_layers);
  cs.pieces(num_layers, [&](size_t piece, ConstraintSystem& layer_cs) {
    const size_t layer = piece + 1;
    const gadgets::UInt32 layer_num = gadgets::UInt32::constant(static_cast<uint32_t>(layer));
    Ns<ConstraintSystem> lcs(layer_cs, NameN{"labeling_", layer});

    std::vector<std::vector<Boolean>> parents;
    parents.reserve(drg_parents.size() + exp_parents.size());
    for (const circuits::AllocatedColumn& col : drg_parents) {
      const AllocatedNum& v = col.get_value(layer);
      parents.push_back(circuits::reverse_bit_numbering(
          v.to_bits_le(Ns(lcs.cs(), NameNS{"drg_parent_", parents.size(), "_bits"}))));
    }
    // Layer 1 has no expander parents; they come from the previous layer.
    if (layer > 1) {
      for (const circuits::AllocatedColumn& col : exp_parents) {
        const AllocatedNum& v = col.get_value(layer - 1);
        parents.push_back(circuits::reverse_bit_numbering(
            v.to_bits_le(Ns(lcs.cs(), NameNS{"exp_parent_", parents.size(), "_bits"}))));
      }
    }
    const std::vector<std::vector<Boolean>> expanded =
        circuits::expand_label_parents<std::vector<Boolean>>(parents, static_cast<uint32_t>(layer));
    column_labels[piece] = circuits::create_label_circuit(
        Ns(lcs.cs(), Name{"create_label"}), replica_id_bits, expanded, layer_num, challenge_num);
  });

  // -- encoding: the key is the last label
  {
    const AllocatedNum encoded =
        circuits::encode(Ns(cs, Name{"encode_node"}), column_labels.back(), data_leaf_num);
    enforce_inclusion(Ns(cs, Name{"comm_r_last_data_inclusion"}), TreeHasher::kPoseidon,
                      comm_r_last_path, comm_r_last, encoded);
  }

  // -- the challenged column of labels is in tree_c
  {
    const AllocatedNum column_hash =
        circuits::hash_single_column(Ns(cs, Name{"c_x_column_hash"}), column_labels);
    enforce_inclusion(Ns(cs, Name{"c_x_inclusion"}), TreeHasher::kPoseidon, comm_c_path, comm_c,
                      column_hash);
  }
}

}  // namespace cuzk::porep
