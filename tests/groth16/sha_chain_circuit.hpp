// A chain of SHA-256 compressions over one allocated 512-bit block, the state packed into public
// inputs: ~25,840 constraints per compression (2^20 constraints at 40 compressions), almost all
// witness values bits, like the Filecoin circuits. For the prover benchmark and its test.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/scope.hpp"
#include "gadgets/sha256.hpp"

namespace cuzk::testing {

class ShaChainCircuit final : public Circuit {
 public:
  ShaChainCircuit(size_t compressions, const std::array<uint8_t, 64>& block)
      : compressions_(compressions), block_(block) {}

  void synthesize(ConstraintSystem& cs) const override {
    using namespace gadgets;
    const std::vector<bool> bits = bytes_to_bits(block_);
    std::vector<Boolean> input;
    input.reserve(bits.size());
    for (size_t i = 0; i < bits.size(); ++i) {
      input.push_back(Boolean::is(AllocatedBit::alloc(Ns(cs, NameN{"input bit ", i}), bits[i])));
    }
    std::vector<UInt32> state = sha256_iv();
    for (size_t k = 0; k < compressions_; ++k) {
      state = sha256_compression_function(Ns(cs, NameN{"compression ", k}), input, state);
    }
    std::vector<Boolean> out;
    for (const UInt32& w : state) {
      const auto wb = w.into_bits_be();
      out.insert(out.end(), wb.begin(), wb.end());
    }
    pack_into_inputs(Ns(cs, Name{"pack"}), out);
  }

 private:
  size_t compressions_;
  std::array<uint8_t, 64> block_;
};

}  // namespace cuzk::testing
