// What one PoRep (seal) is parameterised by: filecoin-proofs/src/types/porep_config.rs PoRepConfig
// (sector size, porep_id, API version and features, partitions) and what follows from it through
// constants.rs / parameters.rs (layers, tree shape, challenges per partition) and
// storage-proofs-porep/src/stacked/vanilla/graph.rs (the SDR graph).
//
// Most configs come from a registered seal proof (porep_id with nonce 0); the seal regression
// records use test porep_ids, which is why the porep_id is a field and not derived on use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "filecoin/graph/stacked_graph.hpp"
#include "filecoin/registered_proof.hpp"
#include "filecoin/sector_shape.hpp"
#include "porep/vanilla/porep_challenges.hpp"

namespace cuzk::filecoin {

struct PorepConfig {
  uint64_t sector_size = 0;
  PorepId porep_id{};
  ApiVersion api_version = ApiVersion::kV1_1_0;
  std::optional<ApiFeature> feature;
  // Set when the config is a registered proof (the C1 JSON names it).
  std::optional<RegisteredSealProof> registered;

  const SectorShape& shape() const { return sector_shape(sector_size); }
  uint64_t nodes() const { return sector_size / kNodeSize; }
  unsigned layers() const { return shape().layers; }
  unsigned partitions() const { return porep_partitions(sector_size, feature); }
  unsigned challenges_per_partition() const {
    return porep_challenges_per_partition(sector_size, feature, partitions());
  }
  PorepChallengeParams challenge_params() const {
    return {nodes(), challenges_per_partition(), feature};
  }
  // The SDR graph (builds the Feistel table: ~35 ms for 32/64 GiB).
  StackedGraph graph() const { return StackedGraph(nodes(), porep_id, api_version); }
};

// The config of a registered seal proof. Throws std::invalid_argument for an unknown id.
PorepConfig porep_config(RegisteredSealProof proof);

// The registered proof of a size, API version 1.1 (interactive), 1.1 synthetic or 1.2 NI.
RegisteredSealProof seal_proof_for(uint64_t sector_size, std::optional<ApiFeature> feature);

// The api crate's VanillaSealProof variant for a sector size: "StackedDrg<size>V1" for every
// version and feature (rust-filecoin-proofs-api src/seal.rs). Throws std::invalid_argument for
// sizes without a registered proof.
std::string vanilla_seal_proof_variant(uint64_t sector_size);
// Inverse: the sector size of a variant name (std::invalid_argument naming it when unknown).
uint64_t sector_size_of_vanilla_variant(const std::string& name);

}  // namespace cuzk::filecoin
