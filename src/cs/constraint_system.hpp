// ConstraintSystem: the one interface circuits and gadgets target (the shape of bellpepper's).
//
// Names and values are callbacks: only implementations that need them call them, so production
// synthesis pays nothing for names and shape-only systems (metric, key assembly) never compute a
// witness. The three linear combinations of a constraint are built by callbacks too, so a
// witness-only system skips building them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "cs/linear_combination.hpp"
#include "util/function_ref.hpp"

namespace cuzk {

class SynthesisError : public std::runtime_error {
 public:
  enum class Kind {
    kAssignmentMissing,  // a value was needed but the circuit was built without a witness
    kDivisionByZero,
    kUnsatisfiable,
    kInvalidInput,
  };
  SynthesisError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// The value of an optional witness, or kAssignmentMissing (for value callbacks).
template <class T>
const T& require_value(const std::optional<T>& v) {
  if (!v) throw SynthesisError(SynthesisError::Kind::kAssignmentMissing, "assignment missing");
  return *v;
}

using NameFn = FunctionRef<std::string()>;
using ValueFn = FunctionRef<Fr()>;
using LcFn = FunctionRef<void(LinearCombination&)>;
class ConstraintSystem;
using PieceFn = FunctionRef<void(size_t, ConstraintSystem&)>;

class ConstraintSystem {
 public:
  virtual ~ConstraintSystem() = default;

  static constexpr Variable one() { return Variable::one(); }

  virtual Variable alloc(NameFn name, ValueFn value) = 0;
  virtual Variable alloc_input(NameFn name, ValueFn value) = 0;
  // a * b = c
  virtual void enforce(NameFn name, LcFn a, LcFn b, LcFn c) = 0;
  virtual void push_namespace(NameFn name) { (void)name; }
  virtual void pop_namespace() {}

  // True for systems that read values only (WitnessCS): their enforce() never builds the
  // combinations, so gadgets skip work whose only reader is a constraint (linear combinations
  // built outside the callbacks: MultiEq batches, Poseidon's MDS terms). Variables and values
  // must come out the same either way.
  virtual bool is_witness_only() const { return false; }

  // Allocates `count` aux variables whose values are bits (bit i of words[i / 64]), exactly as
  // `count` alloc() calls with those values: the word-level witness paths of gadgets
  // (gadgets/sha256_witness.hpp) hand a witness-only system their bits this way.
  virtual void alloc_bits(std::span<const uint64_t> words, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const bool bit = ((words[i / 64] >> (i % 64)) & 1) != 0;
      alloc([] { return std::string("bit"); }, [bit] { return bit ? Fr::one() : Fr::zero(); });
    }
  }

  // `count` independent pieces of a circuit (its challenges, a challenge's labels): piece(i, cs)
  // allocates and constrains piece i through `cs` alone, and reads no value that another piece
  // of the same call produces. The variables and constraints are those of calling the pieces in
  // order on this system, which is what every system but the witness one does; WitnessCS
  // (pce/witness_cs.hpp) runs them concurrently, each into a system of its own, and joins them in
  // order. A piece may call pieces() again.
  virtual void pieces(size_t count, PieceFn piece) {
    for (size_t i = 0; i < count; ++i)
      piece(i, *this);
  }

  // False for a system that counts every constraint but never calls the linear-combination
  // callbacks of enforce (the metric CS without densities), and for every witness-only one:
  // gadgets that build combinations ahead of their constraints (the Poseidon circuit's linear
  // layers) may then track values only. Unlike is_witness_only(), it allows no skipped
  // constraint (MultiEq batches stay). A system that says false and still calls the callbacks
  // gets wrong combinations.
  virtual bool wants_linear_combinations() const { return !is_witness_only(); }

  // Convenience for already-built combinations (copies their terms when they are used).
  void enforce_lc(NameFn name, const LinearCombination& a, const LinearCombination& b,
                  const LinearCombination& c) {
    enforce(
        name, [&](LinearCombination& lc) { lc += a; }, [&](LinearCombination& lc) { lc += b; },
        [&](LinearCombination& lc) { lc += c; });
  }
};

// RAII namespace: pushes on construction, pops on destruction, and converts to `CS&` so that a
// temporary one passes where a system is expected (gadgets/scope.hpp: bellpepper's
// `cs.namespace(|| name)` idiom).
template <class CS>
class Ns {
 public:
  Ns(CS& cs, NameFn name) : cs_(cs) { cs_.push_namespace(name); }
  ~Ns() { cs_.pop_namespace(); }
  Ns(const Ns&) = delete;
  Ns& operator=(const Ns&) = delete;

  operator CS&() const { return cs_; }  // NOLINT: implicit so a scope passes as the system
  CS& cs() const { return cs_; }

 private:
  CS& cs_;
};

template <class CS, class F>
Ns(CS&, F&&) -> Ns<CS>;

// A circuit: synthesizes the same variables and constraints, in the same order, every time.
class Circuit {
 public:
  virtual ~Circuit() = default;
  virtual void synthesize(ConstraintSystem& cs) const = 0;
};

}  // namespace cuzk
