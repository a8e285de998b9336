#include "gadgets/multieq.hpp"

#include <stdexcept>

#include "gadgets/boolean.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::gadgets {

MultiEq::~MultiEq() {
  if (std::uncaught_exceptions() == uncaught_at_start_) finish();
}

void MultiEq::accumulate() {
  // lhs * 1 = rhs
  cs_.enforce(
      NameN{"multieq ", ops_}, [&](LinearCombination& lc) { lc += lhs_; },
      [](LinearCombination& lc) { lc += Variable::one(); },
      [&](LinearCombination& lc) { lc += rhs_; });
  lhs_.clear();
  rhs_.clear();
  bits_used_ = 0;
  ++ops_;
}

void MultiEq::enforce_equal(size_t num_bits, const LinearCombination& lhs,
                            const LinearCombination& rhs) {
  if (cs_.is_witness_only()) return;  // only the constraint reads the batch
  if (kFrCapacity <= bits_used_ + num_bits) accumulate();
  if (kFrCapacity <= bits_used_ + num_bits) {
    throw std::invalid_argument("MultiEq: an equality wider than the field capacity");
  }
  const Fr coeff = Fr::from_u64(2).pow(bits_used_);
  lhs_.add_scaled(coeff, lhs);
  rhs_.add_scaled(coeff, rhs);
  bits_used_ += num_bits;
}

void MultiEq::finish() {
  if (bits_used_ > 0) accumulate();
}

}  // namespace cuzk::gadgets
