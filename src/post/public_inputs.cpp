#include "post/public_inputs.hpp"

#include <stdexcept>
#include <string>

#include "post/vanilla/post_challenges.hpp"

namespace cuzk::post {

std::vector<Fr> public_inputs(const filecoin::FallbackPoStParams& pp,
                              const filecoin::Domain& randomness,
                              std::span<const PublicSector> sectors, uint32_t partition_index) {
  pp.validate();
  if (sectors.empty() || sectors.size() > pp.sector_count) {
    throw std::invalid_argument("PoSt public inputs: " + std::to_string(sectors.size()) +
                                " sectors for a partition of " + std::to_string(pp.sector_count));
  }
  if (!filecoin::is_canonical_fr(randomness)) {
    throw std::invalid_argument("PoSt public inputs: the randomness is not a field element");
  }
  const size_t per_slot = 1 + pp.challenge_count;
  std::vector<Fr> inputs;
  inputs.reserve(per_slot * pp.sector_count);
  for (size_t i = 0; i < sectors.size(); ++i) {
    const auto comm_r = filecoin::try_domain_to_fr(sectors[i].comm_r);
    if (!comm_r) {
      throw std::invalid_argument("PoSt public inputs: comm_r of sector " +
                                  std::to_string(sectors[i].sector_id) + " is not a field element");
    }
    inputs.push_back(*comm_r);
    const uint64_t sector_index = uint64_t{partition_index} * pp.sector_count + i;
    for (const uint64_t leaf :
         filecoin::post_leaf_challenges(randomness, sectors[i].sector_id, pp.sector_size,
                                        pp.challenge_count, pp.api_version, sector_index)) {
      inputs.push_back(Fr::from_u64(leaf));
    }
  }
  // "duplicate last one if too little sectors available"
  const std::vector<Fr> last(inputs.end() - static_cast<ptrdiff_t>(per_slot), inputs.end());
  while (inputs.size() < per_slot * pp.sector_count)
    inputs.insert(inputs.end(), last.begin(), last.end());
  return inputs;
}

std::vector<PublicSector> public_sectors(const filecoin::PoStPartition& partition) {
  std::vector<PublicSector> out;
  out.reserve(partition.real_slots);
  for (size_t i = 0; i < partition.real_slots && i < partition.slots.size(); ++i)
    out.push_back({partition.slots[i].sector_id, partition.slots[i].comm_r});
  return out;
}

std::vector<Fr> public_inputs(const filecoin::FallbackPoStParams& pp,
                              const filecoin::Domain& randomness,
                              const filecoin::PoStPartition& partition) {
  const std::vector<PublicSector> sectors = public_sectors(partition);
  return public_inputs(pp, randomness, sectors, partition.index);
}

}  // namespace cuzk::post
