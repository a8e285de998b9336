// The small relation helpers of rust-fil-proofs storage-proofs-core/src/gadgets/constraint.rs and
// encode.rs, with their exact constraint shapes (each is one constraint, B = ONE):
//   equal(a, b):              a * 1 = b
//   sum(a, b, s):             (a + b) * 1 = s
//   difference(a, b, d):      (d + b) * 1 = a
//   add(a, b):   "add_num" allocated, then sum(a, b, res) named "sum constraint"
//   sub(a, b):   "sub_num" allocated, then difference(a, b, res) named "subtraction constraint"
//   encode(key, value) = add in namespace "encode_add" (replica = label + data);
//   decode(key, value) = sub(value, key) in namespace "decode_sub".
#pragma once

#include "cs/constraint_system.hpp"
#include "gadgets/num.hpp"

namespace cuzk::circuits {

using gadgets::AllocatedNum;

void equal(ConstraintSystem& cs, NameFn annotation, const AllocatedNum& a, const AllocatedNum& b);
void sum(ConstraintSystem& cs, NameFn annotation, const AllocatedNum& a, const AllocatedNum& b,
         const AllocatedNum& sum);
void difference(ConstraintSystem& cs, NameFn annotation, const AllocatedNum& a,
                const AllocatedNum& b, const AllocatedNum& difference);

// a + b and a - b as new variables (1 variable, 1 constraint each).
AllocatedNum add(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b);
AllocatedNum sub(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b);

// encode.rs: the SDR encoding key + value, and its inverse value - key.
AllocatedNum encode(ConstraintSystem& cs, const AllocatedNum& key, const AllocatedNum& value);
AllocatedNum decode(ConstraintSystem& cs, const AllocatedNum& key, const AllocatedNum& value);

}  // namespace cuzk::circuits
