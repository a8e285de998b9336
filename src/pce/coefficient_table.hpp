// CoefficientTable: the distinct coefficients of a recorded circuit, each stored once. Index 0 is
// 1 and index 1 is -1 (most entries), found without hashing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::pce {

class CoefficientTable {
 public:
  CoefficientTable();

  // The index of `c`, added when new.
  uint32_t index_of(const Fr& c);
  const std::vector<Fr>& values() const { return values_; }
  size_t size() const { return values_.size(); }

 private:
  struct LimbHash {
    size_t operator()(const std::array<uint64_t, 4>& w) const {
      return static_cast<size_t>((w[0] * 0x9e3779b97f4a7c15ull) ^ (w[1] >> 7) ^ (w[2] << 3) ^ w[3]);
    }
  };
  std::vector<Fr> values_;
  std::unordered_map<std::array<uint64_t, 4>, uint32_t, LimbHash> index_;
  Fr minus_one_;
};

}  // namespace cuzk::pce
