#include "circuits/create_label.hpp"

#include <stdexcept>

#include "circuits/bits.hpp"
#include "circuits/label_native.hpp"
#include "circuits/names.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"

namespace cuzk::circuits {

using gadgets::Boolean;

gadgets::AllocatedNum create_label_circuit(ConstraintSystem& cs,
                                           std::span<const Boolean> replica_id,
                                           const std::vector<std::vector<Boolean>>& parents,
                                           const gadgets::UInt32& layer_index, const UInt64& node) {
  if (replica_id.size() < 32 || replica_id.size() > 256) {
    throw std::invalid_argument("create_label_circuit: replica id must have 32..256 bits");
  }
  if (parents.size() != kTotalParents) {
    throw std::invalid_argument("create_label_circuit: need 37 parents");
  }
  std::vector<Boolean> message(replica_id.begin(), replica_id.end());
  message.resize(256, Boolean::constant(false));
  const std::vector<Boolean> layer_bits = layer_index.into_bits_be();
  message.insert(message.end(), layer_bits.begin(), layer_bits.end());
  const std::vector<Boolean> node_bits = node.to_bits_be();
  message.insert(message.end(), node_bits.begin(), node_bits.end());
  message.resize(512, Boolean::constant(false));
  for (const std::vector<Boolean>& parent : parents) {
    message.insert(message.end(), parent.begin(), parent.end());
    while (message.size() % 256 != 0)
      message.push_back(Boolean::constant(false));
  }
  if (message.size() != (2 + kTotalParents) * 256) {
    throw std::invalid_argument("create_label_circuit: a parent is longer than 256 bits");
  }
  const std::vector<Boolean> digest = gadgets::sha256(Ns(cs, Name{"hash"}), message);
  const std::vector<Boolean> bits = reverse_bit_numbering(digest);
  return gadgets::pack_bits(Ns(cs, Name{"result_num"}),
                            std::span<const Boolean>(bits).first(gadgets::kFrCapacity));
}

}  // namespace cuzk::circuits
