#include "porep/public_params.hpp"

#include <stdexcept>

#include "filecoin/sector_shape.hpp"
#include "util/text.hpp"

namespace cuzk::porep {

PublicParams PublicParams::from_config(const filecoin::PorepConfig& config) {
  const filecoin::SectorShape& shape = config.shape();
  PublicParams p;
  p.nodes = shape.nodes;
  p.layers = shape.layers;
  p.tree = shape.tree;
  p.partitions = config.partitions();
  p.challenges_per_partition = config.challenges_per_partition();
  p.porep_id = config.porep_id;
  p.api_version = config.api_version;
  p.feature = config.feature;
  p.registered = config.registered;
  p.validate();
  return p;
}

PublicParams PublicParams::for_proof(filecoin::RegisteredSealProof proof) {
  return from_config(filecoin::porep_config(proof));
}

PublicParams PublicParams::for_sector_size(uint64_t sector_size) {
  return for_proof(filecoin::seal_proof_for(sector_size, std::nullopt));
}

void PublicParams::validate() const {
  // hash_single_column only exists for the arities Filecoin instantiates (stacked/circuit/hash.rs).
  if (layers != 2 && layers != 11) {
    throw std::invalid_argument("porep::PublicParams: " + std::to_string(layers) +
                                " layers (the column hash exists for 2 and 11)");
  }
  if (challenges_per_partition == 0) {
    throw std::invalid_argument("porep::PublicParams: no challenges per partition");
  }
  if (partitions == 0) throw std::invalid_argument("porep::PublicParams: no partitions");
  if (nodes < 2 || (nodes & (nodes - 1)) != 0) {
    throw std::invalid_argument("porep::PublicParams: " + std::to_string(nodes) +
                                " nodes is not a power of two >= 2 (tree_d is binary)");
  }
  // Both throw std::invalid_argument naming the shape when the nodes do not fit it.
  (void)circuits::base_path_length(tree_arity(), nodes);
  (void)circuits::base_path_length({2, 0, 0}, nodes);
}

}  // namespace cuzk::porep
