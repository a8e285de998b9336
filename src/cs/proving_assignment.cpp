#include "cs/proving_assignment.hpp"

namespace cuzk {

ProvingAssignment::ProvingAssignment() {
  alloc_input([] { return std::string("ONE"); }, [] { return Fr::one(); });
}

Variable ProvingAssignment::alloc(NameFn, ValueFn value) {
  aux_assignment.push_back(value());
  a_aux_density.add_element();
  b_aux_density.add_element();
  return Variable::aux(static_cast<uint32_t>(aux_assignment.size() - 1));
}

Variable ProvingAssignment::alloc_input(NameFn, ValueFn value) {
  input_assignment.push_back(value());
  b_input_density.add_element();
  return Variable::input(static_cast<uint32_t>(input_assignment.size() - 1));
}

void ProvingAssignment::enforce(NameFn name, LcFn a_fn, LcFn b_fn, LcFn c_fn) {
  // A: aux density only (inputs are all dense through the input constraints).
  scratch_.clear();
  a_fn(scratch_);
  mark_density(scratch_, nullptr, a_aux_density);
  a.push_back(scratch_.eval(input_assignment, aux_assignment));

  scratch_.clear();
  b_fn(scratch_);
  mark_density(scratch_, &b_input_density, b_aux_density);
  b.push_back(scratch_.eval(input_assignment, aux_assignment));

  scratch_.clear();
  c_fn(scratch_);
  c.push_back(scratch_.eval(input_assignment, aux_assignment));
  if (!first_unsatisfied_ && a.back() * b.back() != c.back())
    first_unsatisfied_ = Unsatisfied{c.size() - 1, name()};
}

void ProvingAssignment::reserve(size_t rows, size_t inputs, size_t aux) {
  a.reserve(rows);
  b.reserve(rows);
  c.reserve(rows);
  input_assignment.reserve(inputs);
  aux_assignment.reserve(aux);
  a_aux_density.reserve(aux);
  b_input_density.reserve(inputs);
  b_aux_density.reserve(aux);
}

void ProvingAssignment::add_input_constraints() {
  const size_t n = input_assignment.size();
  for (size_t i = 0; i < n; ++i) {
    a.push_back(input_assignment[i]);
    b.push_back(Fr::zero());
    c.push_back(Fr::zero());
  }
}

}  // namespace cuzk
