// Insecure Groth16 parameters of a RandomCircuit, made on a two-thread pool that a test file's
// setups share: the small sets of the parameter-file tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "groth16/setup.hpp"
#include "random_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::testing {

inline ThreadPool& test_pool() {
  static ThreadPool p(2);
  return p;
}

inline groth16::Parameters random_parameters(size_t rows, size_t inputs, uint64_t seed,
                                             std::string_view toxic_seed) {
  return groth16::generate_parameters_insecure(RandomCircuit(rows, inputs, seed),
                                               groth16::ToxicWaste::insecure_from_seed(toxic_seed),
                                               test_pool());
}

}  // namespace cuzk::testing
