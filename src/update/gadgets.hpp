// The gadgets of the SnapDeals circuits, constraint for constraint as rust-fil-proofs
// storage-proofs-update/src/gadgets.rs (facts sheet 7.5):
//
//   allocated_num_to_allocated_bits  255 bits ("bit i", least significant first) and
//                                    "binary decomp": (sum 2^i bit_i) * 1 = num (256 constraints;
//                                    unlike AllocatedNum::to_bits_le, A holds the bits);
//   gen_challenge_bits               per digest j: "digest_index_j" and its constraint
//                                    (dpp * k + j) * 1 = digest_index, "digest_j" =
//                                    Poseidon_2^{Custom(1)}(comm_r_new, digest_index) and its bits
//                                    (568 constraints per digest; 568 / 4 544 / 5 680 per
//                                    partition for the sizes of the table);
//   get_challenge_high_bits          per h of hs: pack the h high bits, times h_select's bit;
//                                    their sum (13 constraints);
//   label_r_new                      leaf_r_old + leaf_d_new * rho (2 constraints);
//   apex_por                         the apex tree over the apex leafs (SHA-256 nodes), then its
//                                    root up the partition path to comm_d (317 654 for 8 apex
//                                    leafs and 1 partition, 5 808 515 for 128 and 2).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "update/vanilla/update_params.hpp"

namespace cuzk::update {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;

// (sum 2^i bits_i) * 1 = num: the little-endian bits of a number, one constraint named `name`.
void enforce_binary_decomposition(ConstraintSystem& cs, NameFn name,
                                  std::span<const AllocatedBit> bits, const AllocatedNum& num);
std::vector<AllocatedBit> allocated_num_to_allocated_bits(ConstraintSystem& cs,
                                                          const AllocatedNum& num);

// The challenge bits of `challenges` challenges of bits_per_challenge random bits each (the
// partition bits are appended by the caller).
std::vector<std::vector<AllocatedBit>> gen_challenge_bits(ConstraintSystem& cs,
                                                          const AllocatedNum& comm_r_new,
                                                          const AllocatedNum& partition,
                                                          size_t challenges,
                                                          size_t bits_per_challenge);

// c_bits least significant first; h_select_bits.size() == hs.size().
AllocatedNum get_challenge_high_bits(ConstraintSystem& cs, std::span<const AllocatedBit> c_bits,
                                     std::span<const AllocatedBit> h_select_bits,
                                     const filecoin::UpdateHs& hs);

AllocatedNum label_r_new(ConstraintSystem& cs, const AllocatedNum& label_r_old,
                         const AllocatedNum& label_d_new, const AllocatedNum& rho);

// partition_bits least significant first; partition_path one sibling per level. The rows of the
// apex tree are hashed as pieces (cs.pieces), one per node.
void apex_por(ConstraintSystem& cs, std::span<const AllocatedNum> apex_leafs,
              std::span<const AllocatedBit> partition_bits,
              std::span<const std::vector<AllocatedNum>> partition_path,
              const AllocatedNum& comm_d);

// Poseidon_2 with the Custom(1) domain tag (HASH_TYPE_GEN_RANDOMNESS): phi, rho, the digests.
AllocatedNum gen_randomness_hash(ConstraintSystem& cs, const AllocatedNum& a,
                                 const AllocatedNum& b);

}  // namespace cuzk::update
