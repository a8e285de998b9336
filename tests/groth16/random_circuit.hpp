// A random satisfiable circuit for Groth16 tests: public inputs, bits (b * (1 - b) = 0), products
// of random linear combinations, linear constraints, and inputs used in B, so every query and
// density path is exercised. Deterministic per seed. With a witness seed as well, the values
// (public inputs and bits) come from `witness_seed` and the shape from `seed` alone, the same
// shape as RandomCircuit(n, inputs, seed): one recording, several witnesses, as the partitions
// of one proof are.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "cs/constraint_system.hpp"

namespace cuzk::testing {

class RandomCircuit final : public Circuit {
 public:
  RandomCircuit(size_t num_constraints, size_t num_inputs, uint64_t seed)
      : RandomCircuit(num_constraints, num_inputs, seed, seed, false) {}
  RandomCircuit(size_t num_constraints, size_t num_inputs, uint64_t seed, uint64_t witness_seed)
      : RandomCircuit(num_constraints, num_inputs, seed, witness_seed, true) {}

  const std::vector<Fr>& public_inputs() const { return inputs_; }

  void synthesize(ConstraintSystem& cs) const override {
    std::mt19937_64 rng(seed_);  // the same shape (and witness) every time
    std::mt19937_64 witness_rng(witness_seed_);
    struct Wire {
      Variable var;
      Fr value;
    };
    std::vector<Wire> wires;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Fr v = inputs_[i];
      wires.push_back(
          {cs.alloc_input([&] { return "in" + std::to_string(i); }, [&] { return v; }), v});
    }
    const auto pick = [&]() -> const Wire& { return wires[rng() % wires.size()]; };
    const auto random_lc = [&](LinearCombination& lc, Fr& value) {
      const size_t terms = 1 + rng() % 3;
      for (size_t k = 0; k < terms; ++k) {
        const Wire& w = wires.empty() ? Wire{Variable::one(), Fr::one()} : pick();
        const Fr coeff = rng() % 2 ? Fr::one() : Fr::from_u64(rng() % 1000 + 2);
        lc.add(coeff, w.var);
        value += coeff * w.value;
      }
    };
    for (size_t j = 0; j < n_; ++j) {
      const unsigned kind = static_cast<unsigned>(rng() % 4);
      if (kind == 0) {  // a fresh bit
        // (the shape's generator draws here either way: one recording for every witness seed)
        const uint64_t draw = rng();
        const Fr bit = ((separate_ ? witness_rng() : draw) & 1) ? Fr::one() : Fr::zero();
        const Variable b = cs.alloc([&] { return "bit" + std::to_string(j); }, [&] { return bit; });
        cs.enforce(
            [&] { return "boolean" + std::to_string(j); }, [&](LinearCombination& lc) { lc += b; },
            [&](LinearCombination& lc) { lc.add(Fr::one(), Variable::one()).add(-Fr::one(), b); },
            [](LinearCombination&) {});
        wires.push_back({b, bit});
        continue;
      }
      LinearCombination la, lb;
      Fr va, vb;
      random_lc(la, va);
      if (kind == 1) {  // linear: la * 1 = z
        lb.add(Fr::one(), Variable::one());
        vb = Fr::one();
      } else {
        random_lc(lb, vb);
      }
      const Fr vz = va * vb;
      const Variable z = cs.alloc([&] { return "z" + std::to_string(j); }, [&] { return vz; });
      cs.enforce([&] { return "c" + std::to_string(j); }, [&](LinearCombination& lc) { lc += la; },
                 [&](LinearCombination& lc) { lc += lb; }, [&](LinearCombination& lc) { lc += z; });
      wires.push_back({z, vz});
    }
  }

 private:
  RandomCircuit(size_t num_constraints, size_t num_inputs, uint64_t seed, uint64_t witness_seed,
                bool separate)
      : n_(num_constraints),
        inputs_(num_inputs),
        seed_(seed),
        witness_seed_(witness_seed),
        separate_(separate) {
    std::mt19937_64 rng(witness_seed_ ^ 0x1234);
    for (auto& v : inputs_)
      v = Fr::random(rng);
  }

  size_t n_;
  std::vector<Fr> inputs_;
  uint64_t seed_, witness_seed_;
  bool separate_;
};

}  // namespace cuzk::testing
