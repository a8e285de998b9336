// TestConstraintSystem: stores everything (named variables, values, constraints) to check a
// circuit: satisfaction, the namespace path of the first unsatisfied constraint, counts, and
// tampering with a named variable for negative tests. For tests and debugging, not production.
//
// As in bellpepper's TestConstraintSystem, variables, constraints and namespaces share one path
// space and every path may be created once: a gadget that reuses a name would panic there, so it
// throws here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cs/constraint_system.hpp"

namespace cuzk {

// Its overrides are declared as every ConstraintSystem's are (ProvingAssignment's, ...).
class TestConstraintSystem final : public ConstraintSystem {
 public:
  TestConstraintSystem();

  Variable alloc(NameFn name, ValueFn value) override;
  Variable alloc_input(NameFn name, ValueFn value) override;
  void enforce(NameFn name, LcFn a, LcFn b, LcFn c) override;
  void push_namespace(NameFn name) override;
  void pop_namespace() override;

  bool is_satisfied() const { return !which_is_unsatisfied().has_value(); }
  // Path of the first constraint (in order) with a * b != c.
  std::optional<std::string> which_is_unsatisfied() const;

  size_t num_inputs() const { return inputs_.size(); }  // including ONE
  size_t num_aux() const { return aux_.size(); }
  size_t num_constraints() const { return constraints_.size(); }

  // Value of the variable allocated at `path` ("ns/sub/name"); throws if there is none.
  Fr get(const std::string& path) const;
  // Overwrites it (to make a constraint fail on purpose).
  void set(const std::string& path, const Fr& value);
  // True when the public inputs after ONE equal `expected`.
  bool verify_inputs(std::span<const Fr> expected) const;

  std::span<const Fr> input_values() const { return inputs_; }
  std::span<const Fr> aux_values() const { return aux_; }

 private:
  struct Constraint {
    std::string path;
    LinearCombination a, b, c;
  };
  enum class PathKind : uint8_t { kVariable, kConstraint, kNamespace };
  struct Named {
    PathKind kind;
    Variable var;  // kVariable only
  };
  std::string path_of(const std::string& name) const;
  // alloc and alloc_input: value() appended to `values` as variable(its index), at name()'s path.
  Variable alloc_into(std::vector<Fr>& values, Variable (*variable)(uint32_t), NameFn name,
                      ValueFn value);
  void register_path(const std::string& path, PathKind kind, Variable v = {});
  const Variable& variable_at(const std::string& path) const;

  std::vector<std::string> namespace_;
  std::vector<Fr> inputs_, aux_;
  std::vector<Constraint> constraints_;
  std::map<std::string, Named> named_;
};

}  // namespace cuzk
