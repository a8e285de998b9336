#include "cs/test_cs.hpp"

#include <stdexcept>

namespace cuzk {

TestConstraintSystem::TestConstraintSystem() {
  inputs_.push_back(Fr::one());
  named_.emplace("ONE", Named{PathKind::kVariable, Variable::one()});
}

std::string TestConstraintSystem::path_of(const std::string& name) const {
  if (name.find('/') != std::string::npos)
    throw std::invalid_argument("name contains '/': " + name);
  std::string p;
  for (const auto& ns : namespace_)
    p += ns + "/";
  return p + name;
}

void TestConstraintSystem::register_path(const std::string& path, PathKind kind, Variable v) {
  if (!named_.emplace(path, Named{kind, v}).second) {
    throw std::logic_error("path already in use: " + path);
  }
}

const Variable& TestConstraintSystem::variable_at(const std::string& path) const {
  const auto it = named_.find(path);
  if (it == named_.end() || it->second.kind != PathKind::kVariable) {
    throw std::out_of_range("no variable at path: " + path);
  }
  return it->second.var;
}

Variable TestConstraintSystem::alloc(NameFn name, ValueFn value) {
  return alloc_into(aux_, &Variable::aux, name, value);
}

Variable TestConstraintSystem::alloc_input(NameFn name, ValueFn value) {
  return alloc_into(inputs_, &Variable::input, name, value);
}

Variable TestConstraintSystem::alloc_into(std::vector<Fr>& values, Variable (*variable)(uint32_t),
                                          NameFn name, ValueFn value) {
  const std::string path = path_of(name());
  values.push_back(value());
  const Variable v = variable(static_cast<uint32_t>(values.size() - 1));
  register_path(path, PathKind::kVariable, v);
  return v;
}

void TestConstraintSystem::enforce(NameFn name, LcFn a, LcFn b, LcFn c) {
  Constraint k{path_of(name()), {}, {}, {}};
  register_path(k.path, PathKind::kConstraint);
  a(k.a);
  b(k.b);
  c(k.c);
  constraints_.push_back(std::move(k));
}

void TestConstraintSystem::push_namespace(NameFn name) {
  const std::string n = name();
  register_path(path_of(n), PathKind::kNamespace);
  namespace_.push_back(n);
}

void TestConstraintSystem::pop_namespace() {
  if (namespace_.empty()) throw std::logic_error("pop_namespace without push");
  namespace_.pop_back();
}

std::optional<std::string> TestConstraintSystem::which_is_unsatisfied() const {
  for (const Constraint& k : constraints_) {
    if (k.a.eval(inputs_, aux_) * k.b.eval(inputs_, aux_) != k.c.eval(inputs_, aux_)) return k.path;
  }
  return std::nullopt;
}

Fr TestConstraintSystem::get(const std::string& path) const {
  const Variable& v = variable_at(path);
  return v.is_input() ? inputs_[v.index] : aux_[v.index];
}

void TestConstraintSystem::set(const std::string& path, const Fr& value) {
  const Variable& v = variable_at(path);
  (v.is_input() ? inputs_ : aux_)[v.index] = value;
}

bool TestConstraintSystem::verify_inputs(std::span<const Fr> expected) const {
  if (expected.size() + 1 != inputs_.size()) return false;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (inputs_[i + 1] != expected[i]) return false;
  }
  return true;
}

}  // namespace cuzk
