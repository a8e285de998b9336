// Bucket reduction: sum_j (j + 1) * bucket[j] by the running-sum trick, 2 additions per bucket
// instead of a scalar multiplication per bucket.
#pragma once

#include <cstddef>
#include <span>

#include "ec/xyzz.hpp"

namespace cuzk {

// Walking from the top bucket down, `running` holds bucket[j] + ... + bucket[top] and is added
// into `sum` once per step, so bucket[j] ends up counted j + 1 times. `bucket(j)` adds bucket j
// into the running sum it is given (so affine and XYZZ buckets can share this loop).
template <class Curve, class AddBucket>
Xyzz<Curve> running_sum_reduce(size_t count, AddBucket&& add_bucket) {
  Xyzz<Curve> running, sum;
  for (size_t j = count; j-- > 0;) {
    add_bucket(running, j);
    sum = sum + running;  // identity operands cost only a branch while the top buckets are empty
  }
  return sum;
}

}  // namespace cuzk
