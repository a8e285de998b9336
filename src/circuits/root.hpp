// Root: a value that is either an already-allocated number (shared with the caller) or a witness
// still to be allocated, as rust-fil-proofs storage-proofs-core/src/gadgets/variables.rs. The PoR
// gadget takes its leaf and root this way: standalone PoR circuits allocate both, the StackedDrg
// circuit passes its comm_d / comm_c / comm_r_last and leaf variables.
#pragma once

#include <optional>
#include <variant>

#include "cs/constraint_system.hpp"
#include "gadgets/num.hpp"

namespace cuzk::circuits {

class Root {
 public:
  static Root var(const gadgets::AllocatedNum& n) { return Root(n); }
  static Root val(const std::optional<Fr>& v) { return Root(v); }

  // Var: the variable itself (nothing allocated); Val: a new "num" in `cs`.
  gadgets::AllocatedNum allocated(ConstraintSystem& cs) const {
    if (const auto* n = std::get_if<gadgets::AllocatedNum>(&v_)) return *n;
    return gadgets::AllocatedNum::alloc(cs, std::get<std::optional<Fr>>(v_));
  }
  bool is_some() const {
    if (const auto* v = std::get_if<std::optional<Fr>>(&v_)) return v->has_value();
    return true;
  }

 private:
  explicit Root(const gadgets::AllocatedNum& n) : v_(n) {}
  explicit Root(const std::optional<Fr>& v) : v_(v) {}

  std::variant<gadgets::AllocatedNum, std::optional<Fr>> v_;
};

}  // namespace cuzk::circuits
