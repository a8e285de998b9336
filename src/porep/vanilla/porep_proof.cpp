#include "porep/vanilla/porep_proof.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"
#include "porep/vanilla/sdr_label.hpp"

namespace cuzk::filecoin {

Domain column_hash(std::span<const Domain> rows) {
  if (rows.size() != 2 && rows.size() != 11) {
    throw std::invalid_argument("column hash: a column of " + std::to_string(rows.size()) +
                                " rows; only 2 and 11 layers exist");
  }
  return poseidon_hash(PoseidonConstants::standard(rows.size()), rows);
}

std::vector<Domain> label_parents_from_columns(std::span<const ColumnProof> drg_parents,
                                               std::span<const ColumnProof> exp_parents,
                                               unsigned layer) {
  std::vector<Domain> distinct;
  const auto row = [&](const ColumnProof& p, unsigned l, const char* kind, size_t i) {
    if (l == 0 || l > p.column.rows.size()) {
      throw std::invalid_argument(std::string(kind) + " parent " + std::to_string(i) + " (node " +
                                  std::to_string(p.column.index) + ") has " +
                                  std::to_string(p.column.rows.size()) + " rows, layer " +
                                  std::to_string(l) + " is needed");
    }
    return p.column.rows[l - 1];
  };
  for (size_t i = 0; i < drg_parents.size(); ++i)
    distinct.push_back(row(drg_parents[i], layer, "DRG", i));
  if (layer > 1) {
    for (size_t i = 0; i < exp_parents.size(); ++i)
      distinct.push_back(row(exp_parents[i], layer - 1, "expander", i));
  }
  return repeat_label_parents(distinct);
}

PorepChallengeProof make_challenge_proof(MerkleProof comm_d_proof, ColumnProof c_x,
                                         std::vector<ColumnProof> drg_parents,
                                         std::vector<ColumnProof> exp_parents,
                                         MerkleProof comm_r_last_proof) {
  PorepChallengeProof p;
  const uint64_t challenge = c_x.column.index;
  const unsigned layers = static_cast<unsigned>(c_x.column.rows.size());
  if (layers == 0) {
    throw std::invalid_argument("make_challenge_proof: the column of node " +
                                std::to_string(challenge) + " has no rows");
  }
  for (unsigned layer = 1; layer <= layers; ++layer) {
    p.labeling_proofs.push_back(
        {label_parents_from_columns(drg_parents, exp_parents, layer), layer, challenge});
  }
  p.encoding_proof = p.labeling_proofs.back();
  p.comm_d_proofs = std::move(comm_d_proof);
  p.comm_r_last_proof = std::move(comm_r_last_proof);
  p.replica_column_proofs = {std::move(c_x), std::move(drg_parents), std::move(exp_parents)};
  return p;
}

}  // namespace cuzk::filecoin
