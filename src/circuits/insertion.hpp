// Insertion and selection of allocated numbers by index bits, as rust-fil-proofs
// storage-proofs-core/src/gadgets/insertion.rs; the PoR gadget uses insert() to place the
// running hash among the siblings of each Merkle level.
//
//   pick(cond, a, b):  "pick result" = cond ? a : b, constraint "pick": (b - a) * cond = b - c.
//   select(from, bits): a binary tree of picks, most significant bit first, namespaces
//                      "pick i, j" (size - 1 constraints).
//   insert(x, bits, elements): elements.size() + 1 = 2^bits.size() slots with x placed at the
//                      index the bits (least significant first) encode. Sizes 2, 4, 8 use the
//                      hand-optimized versions (2, 8, 22 constraints; size 8 needs bits[0] and
//                      bits[1] to be plain allocated bits); other sizes select every slot
//                      ("choice at pos", size * (size - 1) constraints).
#pragma once

#include <span>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace cuzk::circuits {

using gadgets::AllocatedNum;
using gadgets::Boolean;

AllocatedNum pick(ConstraintSystem& cs, const Boolean& condition, const AllocatedNum& a,
                  const AllocatedNum& b);

AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from,
                    std::span<const Boolean> path_bits);

std::vector<AllocatedNum> insert(ConstraintSystem& cs, const AllocatedNum& element,
                                 std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements);

}  // namespace cuzk::circuits
