#include "pce/coefficient_table.hpp"

namespace cuzk::pce {

namespace {

std::array<uint64_t, 4> key_of(const Fr& c) {
  const auto& m = c.mont();
  return {m.w[0], m.w[1], m.w[2], m.w[3]};
}

}  // namespace

CoefficientTable::CoefficientTable() : minus_one_(-Fr::one()) {
  values_ = {Fr::one(), minus_one_};
  index_[key_of(Fr::one())] = 0;
  index_[key_of(minus_one_)] = 1;
}

uint32_t CoefficientTable::index_of(const Fr& c) {
  if (c.is_one()) return 0;
  if (c == minus_one_) return 1;
  const auto [it, added] = index_.try_emplace(key_of(c), static_cast<uint32_t>(values_.size()));
  if (added) values_.push_back(c);
  return it->second;
}

}  // namespace cuzk::pce
