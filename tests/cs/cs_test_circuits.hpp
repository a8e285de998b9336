// Circuits shared by the cs tests: a hand-sized one whose densities are worked out by hand, and
// a SHA-256 circuit (the gadgets layer) large enough to exercise every system.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cs/constraint_system.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/scope.hpp"
#include "gadgets/sha256.hpp"

namespace cuzk::test {

// Inputs ONE, x, y; aux a, b, c, d.
//   (a + x) * b       = c
//   c       * (1 + x) = d
//   y       * a       = a
// A touches aux a, c; B touches inputs ONE, x (not y) and aux b, a (not c, d).
// With x = 2, y = 1, a = 3, b = 4: c = 20, d = 60.
class HandCircuit final : public Circuit {
 public:
  explicit HandCircuit(bool witness) : witness_(witness) {}

  void synthesize(ConstraintSystem& cs) const override {
    const auto v = [&](uint64_t k) {
      return [this, k] {
        if (!witness_) throw SynthesisError(SynthesisError::Kind::kAssignmentMissing, "no witness");
        return Fr::from_u64(k);
      };
    };
    const auto n = [](const char* s) { return [s] { return std::string(s); }; };
    const Variable x = cs.alloc_input(n("x"), v(2));
    const Variable y = cs.alloc_input(n("y"), v(1));
    const Variable a = cs.alloc(n("a"), v(3));
    const Variable b = cs.alloc(n("b"), v(4));
    const Variable c = cs.alloc(n("c"), v(20));
    const Variable d = cs.alloc(n("d"), v(60));
    cs.enforce(
        n("first"),
        [&](LinearCombination& lc) {
          lc += a;
          lc += x;
        },
        [&](LinearCombination& lc) { lc += b; }, [&](LinearCombination& lc) { lc += c; });
    cs.enforce(
        n("second"), [&](LinearCombination& lc) { lc += c; },
        [&](LinearCombination& lc) {
          lc += ConstraintSystem::one();
          lc += x;
        },
        [&](LinearCombination& lc) { lc += d; });
    cs.enforce(
        n("third"), [&](LinearCombination& lc) { lc += y; },
        [&](LinearCombination& lc) { lc += a; }, [&](LinearCombination& lc) { lc += a; });
  }

 private:
  bool witness_;
};

// SHA-256 of a 64-byte message (two blocks, the second constant padding), its first 254 digest
// bits as a public input, and the message length as an input through inputize.
class Sha256Circuit final : public Circuit {
 public:
  explicit Sha256Circuit(std::optional<std::vector<uint8_t>> message)
      : message_(std::move(message)) {}

  void synthesize(ConstraintSystem& cs) const override {
    using namespace gadgets;
    std::vector<Boolean> bits;
    for (size_t k = 0; k < 512; ++k) {
      std::optional<bool> b;
      if (message_) b = (((*message_)[k / 8] >> (7 - k % 8)) & 1) != 0;
      bits.emplace_back(AllocatedBit::alloc(Ns(cs, NameN{"message bit ", k}), b));
    }
    const std::vector<Boolean> digest = sha256(Ns(cs, Name{"sha256"}), bits);
    pack_into_inputs(Ns(cs, Name{"digest"}), std::span(digest).first(254));
    std::optional<Fr> len;
    if (message_) len = Fr::from_u64(message_->size());
    const AllocatedNum n = AllocatedNum::alloc(Ns(cs, Name{"len"}), len);
    n.inputize(Ns(cs, Name{"len input"}));
  }

 private:
  std::optional<std::vector<uint8_t>> message_;
};

inline std::vector<uint8_t> sample_message() {
  std::vector<uint8_t> m(64);
  for (size_t i = 0; i < m.size(); ++i)
    m[i] = static_cast<uint8_t>(i * 37 + 11);
  return m;
}

}  // namespace cuzk::test
