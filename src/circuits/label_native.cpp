#include "circuits/label_native.hpp"

#include <array>

#include "filecoin/hash/sha256.hpp"

namespace cuzk::circuits {

filecoin::Domain create_label_native(const filecoin::Domain& replica_id, uint32_t layer,
                                     uint64_t node, std::span<const filecoin::Domain> parents) {
  if (!parents.empty() && parents.size() != kTotalParents) {
    throw std::invalid_argument("create_label_native: need 0 or 37 parents");
  }
  std::array<uint8_t, 64> prefix{};
  std::copy(replica_id.begin(), replica_id.end(), prefix.begin());
  for (int i = 0; i < 4; ++i)
    prefix[32 + i] = static_cast<uint8_t>(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i)
    prefix[36 + i] = static_cast<uint8_t>(node >> (56 - 8 * i));
  filecoin::Sha256 h;
  h.update(prefix);
  for (const filecoin::Domain& p : parents)
    h.update(p);
  return h.finish_trunc254();
}

}  // namespace cuzk::circuits
