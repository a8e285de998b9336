#include "update/gadgets.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "circuits/names.hpp"
#include "circuits/por.hpp"
#include "circuits/poseidon_circuit.hpp"
#include "circuits/tree_hash.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "gadgets/multipack.hpp"
#include "update/vanilla/update_encoding.hpp"

namespace cuzk::update {

using circuits::Name;
using circuits::NameN;
using circuits::NameNS;
using circuits::Ns;
using gadgets::Boolean;

namespace {

constexpr Variable kOne = Variable::one();

std::vector<Boolean> booleans(std::span<const AllocatedBit> bits) {
  return {bits.begin(), bits.end()};
}

}  // namespace

AllocatedNum gen_randomness_hash(ConstraintSystem& cs, const AllocatedNum& a,
                                 const AllocatedNum& b) {
  static const Fr tag = filecoin::poseidon_tag::custom(filecoin::kUpdateHashTypeId);
  const AllocatedNum preimage[2] = {a, b};
  return circuits::poseidon_hash_circuit(cs, preimage,
                                         circuits::PoseidonCircuitConstants::standard(2), tag);
}

void enforce_binary_decomposition(ConstraintSystem& cs, NameFn name,
                                  std::span<const AllocatedBit> bits, const AllocatedNum& num) {
  cs.enforce(
      name,
      [&](LinearCombination& lc) {
        Fr pow2 = Fr::one();
        for (const AllocatedBit& bit : bits) {
          lc.add(pow2, bit.variable());
          pow2 = pow2.dbl();
        }
      },
      [](LinearCombination& lc) { lc += kOne; },
      [&](LinearCombination& lc) { lc += num.variable(); });
}

std::vector<AllocatedBit> allocated_num_to_allocated_bits(ConstraintSystem& cs,
                                                          const AllocatedNum& num) {
  std::vector<AllocatedBit> bits = gadgets::field_into_allocated_bits_le(cs, num.value());
  enforce_binary_decomposition(cs, Name{"binary decomp"}, bits, num);
  return bits;
}

std::vector<std::vector<AllocatedBit>> gen_challenge_bits(ConstraintSystem& cs,
                                                          const AllocatedNum& comm_r_new,
                                                          const AllocatedNum& partition,
                                                          size_t challenges,
                                                          size_t bits_per_challenge) {
  const size_t per_digest = gadgets::kFrCapacity / bits_per_challenge;
  const size_t digests = (challenges + per_digest - 1) / per_digest;
  std::vector<std::vector<AllocatedBit>> out;
  out.reserve(challenges);
  for (size_t j = 0; j < digests; ++j) {
    std::optional<Fr> index;
    if (partition.value()) {
      index = *partition.value() * Fr::from_u64(digests) + Fr::from_u64(j);
    }
    const AllocatedNum digest_index = AllocatedNum::alloc(Ns(cs, NameN{"digest_index_", j}), index);
    cs.enforce(
        [&] {
          return "digest_index_" + std::to_string(j) + " == k * digests_per_partition + " +
                 std::to_string(j);
        },
        [&](LinearCombination& lc) {
          lc.add(Fr::from_u64(digests), partition.variable());
          lc.add(Fr::from_u64(j), kOne);
        },
        [](LinearCombination& lc) { lc += kOne; },
        [&](LinearCombination& lc) { lc += digest_index.variable(); });
    const AllocatedNum digest =
        gen_randomness_hash(Ns(cs, NameN{"digest_", j}), comm_r_new, digest_index);
    const std::vector<AllocatedBit> bits =
        allocated_num_to_allocated_bits(Ns(cs, NameNS{"digest_", j, "_bits"}), digest);
    const size_t take = j + 1 == digests ? challenges - out.size() : per_digest;
    for (size_t c = 0; c < take; ++c) {
      const auto first = bits.begin() + static_cast<ptrdiff_t>(c * bits_per_challenge);
      out.emplace_back(first, first + static_cast<ptrdiff_t>(bits_per_challenge));
    }
  }
  return out;
}

AllocatedNum get_challenge_high_bits(ConstraintSystem& cs, std::span<const AllocatedBit> c_bits,
                                     std::span<const AllocatedBit> h_select_bits,
                                     const filecoin::UpdateHs& hs) {
  if (h_select_bits.size() != hs.size()) {
    throw std::invalid_argument("get_challenge_high_bits: " + std::to_string(h_select_bits.size()) +
                                " h_select bits for " + std::to_string(hs.size()) + " h values");
  }
  const std::vector<Boolean> bits = booleans(c_bits);
  std::vector<AllocatedNum> scaled;
  scaled.reserve(hs.size());
  for (size_t k = 0; k < hs.size(); ++k) {
    const size_t h = hs[k];
    const auto suffix = [&] {
      return " (h=" + std::to_string(h) + ", k=" + std::to_string(k) + ")";
    };
    const AllocatedNum c_high =
        gadgets::pack_bits(Ns(cs, [&] { return "c_high" + suffix(); }), std::span(bits).last(h));
    const AllocatedBit& select = h_select_bits[k];
    std::optional<Fr> value;
    if (select.value()) {
      if (*select.value()) {
        value = c_high.value();
      } else {
        value = Fr::zero();
      }
    }
    const AllocatedNum c_high_or_zero =
        AllocatedNum::alloc(Ns(cs, [&] { return "c_high_or_zero" + suffix(); }), value);
    cs.enforce([&] { return "c_high_or_zero == c_high * h_select_bit" + suffix(); },
               [&](LinearCombination& lc) { lc += c_high.variable(); },
               [&](LinearCombination& lc) { lc += select.variable(); },
               [&](LinearCombination& lc) { lc += c_high_or_zero.variable(); });
    scaled.push_back(c_high_or_zero);
  }
  std::optional<Fr> sum = Fr::zero();
  for (const AllocatedNum& s : scaled) {
    if (sum && s.value()) {
      *sum += *s.value();
    } else {
      sum.reset();
    }
  }
  const AllocatedNum selected = AllocatedNum::alloc(Ns(cs, Name{"c_high_selected"}), sum);
  cs.enforce(
      Name{"c_high_selected == dot(c_highs, h_select_bits)"},
      [&](LinearCombination& lc) {
        for (const AllocatedNum& s : scaled)
          lc += s.variable();
      },
      [](LinearCombination& lc) { lc += kOne; },
      [&](LinearCombination& lc) { lc += selected.variable(); });
  return selected;
}

AllocatedNum label_r_new(ConstraintSystem& cs, const AllocatedNum& label_r_old,
                         const AllocatedNum& label_d_new, const AllocatedNum& rho) {
  const AllocatedNum product = label_d_new.mul(Ns(cs, Name{"label_d_new * rho"}), rho);
  std::optional<Fr> value;
  if (label_r_old.value() && product.value()) value = *label_r_old.value() + *product.value();
  const AllocatedNum out = AllocatedNum::alloc(Ns(cs, Name{"label_r_new"}), value);
  cs.enforce(
      Name{"label_r_new == label_r_old + label_d_new * rho"},
      [&](LinearCombination& lc) {
        lc += label_r_old.variable();
        lc += product.variable();
      },
      [](LinearCombination& lc) { lc += kOne; },
      [&](LinearCombination& lc) { lc += out.variable(); });
  return out;
}

void apex_por(ConstraintSystem& cs, std::span<const AllocatedNum> apex_leafs,
              std::span<const AllocatedBit> partition_bits,
              std::span<const std::vector<AllocatedNum>> partition_path,
              const AllocatedNum& comm_d) {
  if (apex_leafs.empty() || (apex_leafs.size() & (apex_leafs.size() - 1)) != 0) {
    throw std::invalid_argument("apex_por: " + std::to_string(apex_leafs.size()) +
                                " apex leafs (a power of two is needed)");
  }
  std::vector<AllocatedNum> row(apex_leafs.begin(), apex_leafs.end());
  for (size_t tree_row = 0; row.size() > 1; ++tree_row) {
    std::vector<AllocatedNum> next(row.size() / 2);
    // The nodes of a row are independent pieces (each reads two nodes of the row below).
    cs.pieces(next.size(), [&](size_t i, ConstraintSystem& pcs) {
      next[i] = circuits::sha256_hash2_circuit(
          Ns(pcs,
             [&] {
               return "apex_tree generation hash (tree_row=" + std::to_string(tree_row) +
                      ", siblings=" + std::to_string(i) + ")";
             }),
          row[2 * i], row[2 * i + 1]);
    });
    row = std::move(next);
  }
  circuits::por_no_challenge_input(Ns(cs, Name{"partition-tree por"}),
                                   circuits::TreeHasher::kSha256, {2, 0, 0}, partition_bits,
                                   row.front(), partition_path, comm_d);
}

}  // namespace cuzk::update
