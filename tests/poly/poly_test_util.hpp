// Shared helpers of the poly tests: a gtest printer for Fr and seeded random vectors.
#pragma once

#include <cstddef>
#include <ostream>
#include <random>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk {

// Found by ADL, so failing EXPECT_EQ on Fr values print hex instead of raw bytes.
inline void PrintTo(const Fr& f, std::ostream* os) {
  *os << f.to_hex();
}

inline std::vector<Fr> random_vector(size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v)
    x = Fr::random(rng);
  return v;
}

}  // namespace cuzk
