// A random satisfiable circuit made of nested pieces (ConstraintSystem::pieces), for the witness
// synthesis: every piece allocates its own mix of bits, field values and public inputs, reads the
// variables allocated before its pieces() call, and some pieces split into pieces again. A
// sequential system and a concurrent WitnessCS must see the same variables in the same order.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "cs/constraint_system.hpp"

namespace cuzk::test {

class PieceCircuit final : public Circuit {
 public:
  PieceCircuit(uint64_t seed, size_t pieces, unsigned depth)
      : seed_(seed), pieces_(pieces), depth_(depth) {}

  void synthesize(ConstraintSystem& cs) const override {
    std::vector<Wire> shared;
    std::mt19937_64 rng(seed_);
    body(cs, rng, shared, 40, "root");
    section(cs, seed_ * 31 + 1, shared, depth_);
  }

 private:
  struct Wire {
    Variable var;
    Fr value;
  };

  // `count` constraints on new variables: bits, products of wires, and now and then an input.
  static void body(ConstraintSystem& cs, std::mt19937_64& rng, std::vector<Wire>& wires,
                   size_t count, const char* tag) {
    for (size_t j = 0; j < count; ++j) {
      // Unique names for the test system: "<tag> <j>" in the piece's namespace.
      Ns ns(cs, [&] { return std::string(tag) + " " + std::to_string(j); });
      const unsigned kind = static_cast<unsigned>(rng() % 5);
      if (kind == 0 || wires.empty()) {
        const Fr bit = (rng() & 1) ? Fr::one() : Fr::zero();
        const Variable b = cs.alloc([] { return std::string("bit"); }, [&] { return bit; });
        cs.enforce(
            [] { return std::string("boolean"); }, [&](LinearCombination& lc) { lc += b; },
            [&](LinearCombination& lc) { lc.add(Fr::one(), Variable::one()).add(-Fr::one(), b); },
            [](LinearCombination&) {});
        wires.push_back({b, bit});
      } else if (kind == 1) {
        const Fr v = Fr::random(rng);
        const Variable x = cs.alloc_input([] { return std::string("in"); }, [&] { return v; });
        const Variable y = cs.alloc([] { return std::string("copy var"); }, [&] { return v; });
        cs.enforce([] { return std::string("copy"); }, [&](LinearCombination& lc) { lc += x; },
                   [](LinearCombination& lc) { lc += Variable::one(); },
                   [&](LinearCombination& lc) { lc += y; });
        wires.push_back({y, v});
      } else {
        const Wire& p = wires[rng() % wires.size()];
        const Wire& q = wires[rng() % wires.size()];
        const Fr k = Fr::from_u64(rng() % 7 + 1);
        const Fr v = (p.value + k) * q.value;
        const Variable z = cs.alloc([] { return std::string("z"); }, [&] { return v; });
        cs.enforce([] { return std::string("product"); },
                   [&](LinearCombination& lc) { lc.add(Fr::one(), p.var).add(k, Variable::one()); },
                   [&](LinearCombination& lc) { lc += q.var; },
                   [&](LinearCombination& lc) { lc += z; });
        wires.push_back({z, v});
      }
    }
  }

  void section(ConstraintSystem& cs, uint64_t seed, const std::vector<Wire>& shared,
               unsigned depth) const {
    cs.pieces(pieces_, [&](size_t i, ConstraintSystem& pcs) {
      Ns ns(pcs, [&] { return "piece " + std::to_string(i); });
      std::mt19937_64 rng(seed + i);  // a piece's shape depends on its index only
      std::vector<Wire> wires = shared;
      body(pcs, rng, wires, 5 + rng() % 40, "head");
      if (depth > 0 && i % 2 == 0) section(pcs, seed * 7 + i, wires, depth - 1);
      body(pcs, rng, wires, rng() % 10, "tail");
    });
  }

  uint64_t seed_;
  size_t pieces_;
  unsigned depth_;
};

}  // namespace cuzk::test
