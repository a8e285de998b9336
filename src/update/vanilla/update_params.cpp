#include "update/vanilla/update_params.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

// constants.rs, in nodes.
constexpr uint64_t k1KiB = 1 << 5, k2KiB = 1 << 6, k4KiB = 1 << 7, k8KiB = 1 << 8, k16KiB = 1 << 9,
                   k32KiB = 1 << 10, k8MiB = 1 << 18, k16MiB = 1 << 19, k512MiB = 1 << 24,
                   k32GiB = uint64_t{1} << 30, k64GiB = uint64_t{1} << 31;
constexpr uint64_t kAllowed[] = {k1KiB, k2KiB,  k4KiB,   k8KiB,  k16KiB, k32KiB,
                                 k8MiB, k16MiB, k512MiB, k32GiB, k64GiB};

unsigned partitions_of(uint64_t n) {
  if (n <= k8KiB) return 1;
  if (n <= k32KiB) return 2;
  if (n <= k16MiB) return 4;
  return 16;
}

unsigned challenges_of(uint64_t n) {
  return n <= k16MiB ? 10 : 86;
}

unsigned apex_leafs_of(uint64_t n) {
  return n <= k8KiB ? 8 : 128;
}

uint64_t allowed_nodes(uint64_t sector_bytes) {
  if (sector_bytes % kNodeSize == 0 && is_update_sector_nodes(sector_bytes / kNodeSize)) {
    return sector_bytes / kNodeSize;
  }
  throw std::invalid_argument("sector size " + std::to_string(sector_bytes) +
                              " is not a SnapDeals size (1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, "
                              "32, 64 GiB)");
}

unsigned log2(uint64_t v) {
  return static_cast<unsigned>(std::countr_zero(v));
}

}  // namespace

bool is_update_sector_nodes(uint64_t sector_nodes) {
  return std::find(std::begin(kAllowed), std::end(kAllowed), sector_nodes) != std::end(kAllowed);
}

UpdateParams UpdateParams::for_sector_size(uint64_t sector_bytes) {
  const uint64_t n = allowed_nodes(sector_bytes);
  UpdateParams p;
  p.sector_nodes = n;
  p.challenge_count = challenges_of(n);
  p.challenge_bit_len = log2(n);
  p.partition_count = partitions_of(n);
  p.partition_bit_len = log2(p.partition_count);
  p.apex_leaf_count = apex_leafs_of(n);
  p.apex_leaf_bit_len = log2(p.apex_leaf_count);
  return p;
}

UpdateParams UpdateParams::poseidon_for_sector_size(uint64_t sector_bytes) {
  const uint64_t n = allowed_nodes(sector_bytes);
  UpdateParams p;
  p.sector_nodes = n;
  p.challenge_count = challenges_of(n) * partitions_of(n);  // challenge_count_poseidon
  p.challenge_bit_len = log2(n);
  p.poseidon = true;
  return p;
}

// A table written as a switch: one case per sector size, sizes of one shape sharing a case.
TreeShape UpdateParams::tree_r_shape() const {
  switch (sector_nodes) {
    case k1KiB:
    case k8KiB:
      return {8, 4, 0};
    case k2KiB:
    case k8MiB:
    case k512MiB:
      return {8, 0, 0};
    case k4KiB:
    case k16MiB:
      return {8, 2, 0};
    case k16KiB:
    case k32GiB:
      return {8, 8, 0};
    case k32KiB:
    case k64GiB:
      return {8, 8, 2};
    default:
      throw std::invalid_argument("no SnapDeals tree_r shape for " + std::to_string(sector_nodes) +
                                  " nodes");
  }
}

UpdateHs UpdateParams::hs() const {
  if (sector_nodes <= k32KiB) return {1, 1, 1, 1, 1, 1};
  return {7, 8, 9, 10, 11, 12};
}

uint64_t UpdateParams::h_select(unsigned h) const {
  const UpdateHs allowed = hs();
  for (size_t i = 0; i < allowed.size(); ++i)
    if (allowed[i] == h) return uint64_t{1} << i;
  throw std::invalid_argument("h = " + std::to_string(h) + " is not allowed for " +
                              std::to_string(sector_nodes) + " nodes");
}

}  // namespace cuzk::filecoin
