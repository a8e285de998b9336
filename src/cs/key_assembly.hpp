// KeyAssembly: records the shape of a circuit (no witness) as an R1cs for parameter generation,
// including the input_i * 0 = 0 rows that bellperson's generator appends after synthesis.
#pragma once

#include "cs/constraint_system.hpp"
#include "cs/r1cs.hpp"

namespace cuzk {

class KeyAssembly final : public ConstraintSystem {
 public:
  KeyAssembly() {
    alloc_input([] { return std::string("ONE"); }, [] { return Fr::one(); });
  }

  Variable alloc(NameFn, ValueFn) override {
    return Variable::aux(static_cast<uint32_t>(r1cs_.num_aux++));
  }
  Variable alloc_input(NameFn, ValueFn) override {
    return Variable::input(static_cast<uint32_t>(r1cs_.num_inputs++));
  }
  void enforce(NameFn, LcFn a, LcFn b, LcFn c) override {
    const auto row = static_cast<uint32_t>(r1cs_.num_constraints++);
    record(a, row, r1cs_.a);
    record(b, row, r1cs_.b);
    record(c, row, r1cs_.c);
  }

  // Appends the input constraints and hands the system over. Call once, after synthesis.
  R1cs finish() {
    for (size_t i = 0; i < r1cs_.num_inputs; ++i) {
      r1cs_.a.push_back({static_cast<uint32_t>(r1cs_.num_constraints++),
                         Variable::input(static_cast<uint32_t>(i)), Fr::one()});
    }
    return std::move(r1cs_);
  }

 private:
  void record(LcFn fn, uint32_t row, std::vector<R1csEntry>& out) {
    scratch_.clear();
    fn(scratch_);
    for (const Term& t : scratch_.terms())
      out.push_back({row, t.var, t.coeff});
  }

  R1cs r1cs_;
  LinearCombination scratch_;
};

}  // namespace cuzk
