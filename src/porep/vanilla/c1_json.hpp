// SealCommitPhase1Output as JSON, exactly as filecoin-proofs-api serializes it with serde_json
// (rust-filecoin-proofs-api src/seal.rs; the inner types of rust-fil-proofs
// storage-proofs-porep/src/stacked/vanilla/{params,column,column_proof,labeling_proof,
// encoding_proof}.rs and storage-proofs-core/src/merkle/proof.rs; facts sheet 6.5):
//
//   {"registered_proof":"StackedDrg2KiBV1_1",
//    "vanilla_proofs":{"StackedDrg2KiBV1":[[Proof,...],...]},
//    "comm_r":D,"comm_d":D,"replica_id":D,"seed":D,"ticket":D}
//   Proof = {"comm_d_proofs":MP,"comm_r_last_proof":MP,
//            "replica_column_proofs":{"c_x":CP,"drg_parents":[CP..],"exp_parents":[CP..]},
//            "labeling_proofs":[LP..],"encoding_proof":LP}
//   CP = {"column":{"index":n,"rows":[D..],"_h":null},"inclusion_proof":MP}
//   LP = {"parents":[D..],"layer_index":n,"node":n}
// with D a 32-byte value as an array of 32 integers and MP the Merkle proof form of
// merkle_proof_codec.hpp. Output is compact (serde_json::to_string), fields in declaration order.
//
// The parser accepts what serde accepts for these types: fields in any order, unknown fields
// ignored, every declared field required (the "_h": null of Column included, as serde requires
// its PhantomData), integers in range. Anything else is a C1JsonError whose message names the
// field by its path, e.g. vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.c_x.
// column.rows[1].
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::filecoin {

class C1JsonError : public std::invalid_argument {
 public:
  C1JsonError(std::string field, std::string detail)
      : std::invalid_argument("C1 JSON: " + (field.empty() ? std::string("document") : field) +
                              ": " + detail),
        field_(std::move(field)),
        detail_(std::move(detail)) {}
  // The path of the bad field ("" for the whole document) and what is wrong with it.
  const std::string& field() const { return field_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string field_, detail_;
};

std::string seal_commit_phase1_to_json(const SealCommitPhase1Output& c1);

// Parses and checks the structure (not the proofs: porep_verify.hpp does that): the
// vanilla_proofs variant must be the registered proof's size.
SealCommitPhase1Output seal_commit_phase1_from_json(std::string_view json);

}  // namespace cuzk::filecoin
