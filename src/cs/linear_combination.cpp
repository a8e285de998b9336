#include "cs/linear_combination.hpp"

#include <algorithm>

namespace cuzk {

LinearCombination LinearCombination::simplify() const {
  std::vector<Term> sorted = terms_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Term& x, const Term& y) {
    if (x.var.is_input() != y.var.is_input()) return x.var.is_input();
    return x.var.index < y.var.index;
  });
  LinearCombination out;
  for (const Term& t : sorted) {
    if (!out.terms_.empty() && out.terms_.back().var == t.var) {
      out.terms_.back().coeff += t.coeff;
    } else {
      out.terms_.push_back(t);
    }
  }
  return out;
}

}  // namespace cuzk
