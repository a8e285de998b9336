#include "circuits/tree_hash.hpp"

#include <vector>

#include "circuits/bits.hpp"
#include "circuits/names.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"

namespace cuzk::circuits {

namespace {

// Appends little-endian bits padded to whole bytes and reversed per byte (message order).
void append_le_bits(std::vector<Boolean>& out, std::span<const Boolean> bits_le) {
  const std::vector<Boolean> r = reverse_bit_numbering({bits_le.begin(), bits_le.end()});
  out.insert(out.end(), r.begin(), r.end());
}

}  // namespace

const char* tree_hasher_name(TreeHasher h) {
  return h == TreeHasher::kPoseidon ? "poseidon" : "sha256";
}

AllocatedNum sha256_hash_circuit(ConstraintSystem& cs, std::span<const Boolean> bits) {
  const std::vector<Boolean> be_bits = gadgets::sha256(Ns(cs, Name{"hash"}), bits);
  const std::vector<Boolean> le_bits = reverse_bit_numbering(be_bits);
  return gadgets::pack_bits(Ns(cs, Name{"pack_le"}),
                            std::span<const Boolean>(le_bits).first(gadgets::kFrCapacity));
}

AllocatedNum sha256_hash2_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                  const AllocatedNum& b) {
  const std::vector<Boolean> a_bits = a.to_bits_le(Ns(cs, Name{"a_bits"}));
  const std::vector<Boolean> b_bits = b.to_bits_le(Ns(cs, Name{"b_bits"}));
  std::vector<Boolean> preimage;
  append_le_bits(preimage, a_bits);
  append_le_bits(preimage, b_bits);
  return sha256_hash_circuit(cs, preimage);
}

AllocatedNum sha256_hash_leaf_bits_circuit(ConstraintSystem& cs, std::span<const Boolean> left,
                                           std::span<const Boolean> right) {
  std::vector<Boolean> preimage;
  append_le_bits(preimage, left);
  append_le_bits(preimage, right);
  return sha256_hash_circuit(cs, preimage);
}

AllocatedNum hash_multi_leaf_circuit(ConstraintSystem& cs, TreeHasher hasher,
                                     std::span<const AllocatedNum> leaves) {
  if (hasher == TreeHasher::kPoseidon) return poseidon_hash_circuit(cs, leaves);
  std::vector<Boolean> bits;
  bits.reserve(256 * leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    const std::vector<Boolean> leaf_bits =
        leaves[i].to_bits_le(Ns(cs, NameNS{"", i, "_num_into_bits"}));
    append_le_bits(bits, leaf_bits);
  }
  return sha256_hash_circuit(cs, bits);
}

}  // namespace cuzk::circuits
