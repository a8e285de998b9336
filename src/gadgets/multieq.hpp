// MultiEq: batches many small equalities lhs_k = rhs_k (each known to fit in num_bits_k bits)
// into one constraint (sum 2^{o_k} lhs_k) * 1 = sum 2^{o_k} rhs_k, as bellperson 0.27's
// `gadgets::multieq::MultiEq`. Packing stays below Fr::CAPACITY (254) bits so no sum wraps the
// modulus. SHA-256's additions use it, so it fixes where the "multieq i" constraints land.
//
// A MultiEq is itself a constraint system that forwards everything (namespaces included) to the
// wrapped one; a pending batch is emitted as "multieq <i>" under whatever namespace is current
// when it fills up, or at finish() (bellperson emits the last batch when the MultiEq is dropped).
#pragma once

#include <cstddef>
#include <exception>

#include "cs/constraint_system.hpp"

namespace cuzk::gadgets {

class MultiEq final : public ConstraintSystem {
 public:
  explicit MultiEq(ConstraintSystem& cs) : cs_(cs) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;
  // Emits a pending batch, like bellperson's Drop (nothing while unwinding). Gadgets call finish()
  // themselves: an exception thrown from here (a TestConstraintSystem name clash) terminates, as
  // a panic in Rust's drop would abort.
  ~MultiEq() override;

  // Adds lhs = rhs, both < 2^num_bits. Emits the pending batch first when this one would not
  // fit: bellperson's test is CAPACITY <= bits_used + num_bits.
  void enforce_equal(size_t num_bits, const LinearCombination& lhs, const LinearCombination& rhs);
  // Emits the pending batch, if any.
  void finish();

  size_t batches_emitted() const { return ops_; }

  Variable alloc(NameFn name, ValueFn value) override { return cs_.alloc(name, value); }
  Variable alloc_input(NameFn name, ValueFn value) override { return cs_.alloc_input(name, value); }
  void enforce(NameFn name, LcFn a, LcFn b, LcFn c) override { cs_.enforce(name, a, b, c); }
  void push_namespace(NameFn name) override { cs_.push_namespace(name); }
  void pop_namespace() override { cs_.pop_namespace(); }
  bool is_witness_only() const override { return cs_.is_witness_only(); }
  bool wants_linear_combinations() const override { return cs_.wants_linear_combinations(); }
  void alloc_bits(std::span<const uint64_t> words, size_t count) override {
    cs_.alloc_bits(words, count);
  }

 private:
  void accumulate();

  ConstraintSystem& cs_;
  size_t ops_ = 0;
  size_t bits_used_ = 0;
  LinearCombination lhs_, rhs_;
  int uncaught_at_start_ = std::uncaught_exceptions();
};

}  // namespace cuzk::gadgets
