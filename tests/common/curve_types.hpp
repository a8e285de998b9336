// The two curves as a gtest type list, named G1 and G2 in the test names, for the typed suites
// of the ec and msm layers.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "ec/g1.hpp"
#include "ec/g2.hpp"

namespace cuzk {

using Curves = ::testing::Types<G1Curve, G2Curve>;

struct CurveNames {
  template <class Curve>
  static std::string GetName(int) {
    return std::is_same_v<Curve, G1Curve> ? "G1" : "G2";
  }
};

}  // namespace cuzk
