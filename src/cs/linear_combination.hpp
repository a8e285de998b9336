// LinearCombination: sum of coeff * variable terms.
//
// Terms are appended, not merged: a variable may appear several times and its coefficients add up.
// This gives the same value, the same QAP polynomials and the same density sets as bellpepper's
// merged form (which also keeps a variable whose coefficients cancel to zero), without its sorted
// inserts; simplify() produces the merged, index-sorted form when a canonical listing is needed.
#pragma once

#include <span>
#include <vector>

#include "cs/variable.hpp"
#include "ff/fr.hpp"

namespace cuzk {

struct Term {
  Variable var;
  Fr coeff;
};

class LinearCombination {
 public:
  LinearCombination() = default;
  LinearCombination(Variable v) { terms_.push_back({v, Fr::one()}); }  // NOLINT: lc from a variable
  LinearCombination(Variable v, const Fr& coeff) { terms_.push_back({v, coeff}); }

  LinearCombination& add(const Fr& coeff, Variable v) {
    terms_.push_back({v, coeff});
    return *this;
  }
  LinearCombination& operator+=(Variable v) { return add(Fr::one(), v); }
  LinearCombination& operator-=(Variable v) { return add(-Fr::one(), v); }
  LinearCombination& operator+=(const LinearCombination& o) {
    terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
    return *this;
  }
  LinearCombination& operator-=(const LinearCombination& o) { return add_scaled(-Fr::one(), o); }
  // this += coeff * o
  LinearCombination& add_scaled(const Fr& coeff, const LinearCombination& o) {
    terms_.reserve(terms_.size() + o.terms_.size());
    for (const Term& t : o.terms_)
      terms_.push_back({t.var, t.coeff * coeff});
    return *this;
  }

  friend LinearCombination operator+(LinearCombination a, Variable v) { return a += v; }
  friend LinearCombination operator-(LinearCombination a, Variable v) { return a -= v; }
  friend LinearCombination operator+(LinearCombination a, const LinearCombination& b) {
    return a += b;
  }
  friend LinearCombination operator-(LinearCombination a, const LinearCombination& b) {
    return a -= b;
  }

  std::span<const Term> terms() const { return terms_; }
  bool empty() const { return terms_.empty(); }
  size_t size() const { return terms_.size(); }
  void clear() { terms_.clear(); }

  Fr eval(std::span<const Fr> inputs, std::span<const Fr> aux) const {
    Fr acc;
    for (const Term& t : terms_) {
      const Fr& v = t.var.is_input() ? inputs[t.var.index] : aux[t.var.index];
      acc += t.coeff.is_one() ? v : t.coeff * v;
    }
    return acc;
  }

  // Merged form: one term per variable (inputs first, then aux, each by index), zero sums kept.
  LinearCombination simplify() const;

 private:
  std::vector<Term> terms_;
};

}  // namespace cuzk
