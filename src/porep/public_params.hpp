// What one StackedDrg (PoRep) partition circuit is built from: rust-fil-proofs
// storage-proofs-porep/src/stacked/vanilla/params.rs `PublicParams` (graph, layers, challenges per
// partition, tree shape) plus the compound partition count (storage-proofs-core/src/
// compound_proof.rs `PublicParams::partitions`), as filecoin-proofs/src/parameters.rs
// `setup_params` fills them from a PoRepConfig.
//
// The shape fields (nodes, layers, tree, challenges per partition) fix the circuit, hence the
// Groth16 parameters; porep_id, API version and feature only fix the graph and the challenge
// derivation, hence the public inputs. Unlike filecoin::PorepConfig, any shape is allowed, so the
// test shapes of rfp's stacked_circuit.rs (8 nodes per base tree, 2 layers, 1 challenge) are
// built by the same code as the production sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "circuits/por.hpp"
#include "filecoin/graph/stacked_graph.hpp"
#include "filecoin/merkle/tree_shape.hpp"
#include "filecoin/registered_proof.hpp"
#include "porep/vanilla/porep_challenges.hpp"
#include "porep/vanilla/porep_config.hpp"

namespace cuzk::porep {

struct PublicParams {
  uint64_t nodes = 0;        // graph.size(): sector size / 32
  unsigned layers = 0;       // num_layers
  filecoin::TreeShape tree;  // tree_c and tree_r_last (tree_d is binary SHA-256)
  unsigned challenges_per_partition = 0;
  unsigned partitions = 1;
  filecoin::PorepId porep_id{};
  filecoin::ApiVersion api_version = filecoin::ApiVersion::kV1_1_0;
  std::optional<filecoin::ApiFeature> feature;              // none: interactive challenges
  std::optional<filecoin::RegisteredSealProof> registered;  // set for registered proofs

  // From a (registered or test) PorepConfig: shape of its sector size, its partitions and
  // challenges per partition.
  static PublicParams from_config(const filecoin::PorepConfig& config);
  static PublicParams for_proof(filecoin::RegisteredSealProof proof);
  // The interactive V1_1 proof of a sector size (std::invalid_argument for other sizes).
  static PublicParams for_sector_size(uint64_t sector_size);

  uint64_t sector_size() const { return nodes * filecoin::kNodeSize; }
  circuits::TreeArity tree_arity() const { return {tree.base, tree.sub, tree.top}; }
  filecoin::PorepChallengeParams challenge_params() const {
    return {nodes, challenges_per_partition, feature};
  }
  // The SDR graph (Feistel table included: ~35 ms for 32/64 GiB).
  filecoin::StackedGraph graph() const {
    return filecoin::StackedGraph(nodes, porep_id, api_version);
  }

  // std::invalid_argument naming the field when the shape cannot be built: layers other than 2
  // or 11 (the column hash arities), no challenges, or nodes not splitting into base trees whose
  // leaf count is a power of the base arity (the tree_d needs a power of two).
  void validate() const;
};

}  // namespace cuzk::porep
