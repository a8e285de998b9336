// AllocatedBit and Boolean against bellpepper-core 0.2 boolean.rs: truth tables, the exact cost
// of each operand combination (constants and negations are free), names of variables and
// constraints, and failing constraints after tampering.
#include "gadgets/boolean.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "cs/key_assembly.hpp"
#include "cs/metric_cs.hpp"
#include "cs/test_cs.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::gadgets {
namespace {

Fr fr(bool b) {
  return b ? Fr::one() : Fr::zero();
}

enum class Operand { kTrue, kFalse, kAllocTrue, kAllocFalse, kNegAllocTrue, kNegAllocFalse };
constexpr std::array<Operand, 6> kOperands = {Operand::kTrue,         Operand::kFalse,
                                              Operand::kAllocTrue,    Operand::kAllocFalse,
                                              Operand::kNegAllocTrue, Operand::kNegAllocFalse};

bool is_constant(Operand o) {
  return o == Operand::kTrue || o == Operand::kFalse;
}
bool value_of(Operand o) {
  return o == Operand::kTrue || o == Operand::kAllocTrue || o == Operand::kNegAllocFalse;
}

Boolean make(ConstraintSystem& cs, Operand o, const char* name) {
  switch (o) {
    case Operand::kTrue:
      return Boolean::constant(true);
    case Operand::kFalse:
      return Boolean::constant(false);
    case Operand::kAllocTrue:
      return AllocatedBit::alloc(Ns(cs, Name{name}), true);
    case Operand::kAllocFalse:
      return AllocatedBit::alloc(Ns(cs, Name{name}), false);
    case Operand::kNegAllocTrue:
      return Boolean(AllocatedBit::alloc(Ns(cs, Name{name}), true)).not_();
    case Operand::kNegAllocFalse:
      break;
  }
  return Boolean(AllocatedBit::alloc(Ns(cs, Name{name}), false)).not_();
}

TEST(AllocatedBit, AcceptsZeroAndOneAndNamesTheBooleanConstraintWhenTwo) {
  TestConstraintSystem cs;
  const AllocatedBit b = AllocatedBit::alloc(cs, true);
  EXPECT_EQ(cs.get("boolean"), Fr::one());
  EXPECT_EQ(b.value(), true);
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("boolean", Fr::zero());
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("boolean", Fr::from_u64(2));
  EXPECT_EQ(cs.which_is_unsatisfied(), "boolean constraint");
  EXPECT_EQ(cs.num_constraints(), 1u);
  EXPECT_EQ(cs.num_aux(), 1u);
}

TEST(AllocatedBit, ConditionalAllocationForcesZeroWhileTheConditionIsSet) {
  for (bool cond : {false, true}) {
    for (bool v : {false, true}) {
      if (cond && v) continue;  // not satisfiable by construction
      TestConstraintSystem cs;
      const AllocatedBit must_be_false = AllocatedBit::alloc(Ns(cs, Name{"c"}), cond);
      AllocatedBit::alloc_conditionally(Ns(cs, Name{"b"}), v, must_be_false);
      EXPECT_TRUE(cs.is_satisfied());
      EXPECT_EQ(cs.num_constraints(), 2u);
      cs.set("b/boolean", fr(!v));
      EXPECT_EQ(cs.is_satisfied(), !cond) << cond << v;
      if (cond) {
        EXPECT_EQ(cs.which_is_unsatisfied(), "b/boolean constraint");
      }
    }
  }
}

TEST(AllocatedBit, BinaryGatesFollowTheirTruthTablesWithOneVariableAndOneConstraintEach) {
  struct Gate {
    const char* result;
    const char* constraint;
    AllocatedBit (*op)(ConstraintSystem&, const AllocatedBit&, const AllocatedBit&);
    bool (*truth)(bool, bool);
  };
  const Gate gates[] = {
      {"xor result", "xor constraint", AllocatedBit::xor_, [](bool a, bool b) { return a != b; }},
      {"and result", "and constraint", AllocatedBit::and_, [](bool a, bool b) { return a && b; }},
      {"and not result", "and not constraint", AllocatedBit::and_not,
       [](bool a, bool b) { return a && !b; }},
      {"nor result", "nor constraint", AllocatedBit::nor, [](bool a, bool b) { return !a && !b; }},
  };
  for (const Gate& g : gates) {
    for (bool a : {false, true}) {
      for (bool b : {false, true}) {
        TestConstraintSystem cs;
        const AllocatedBit x = AllocatedBit::alloc(Ns(cs, Name{"a"}), a);
        const AllocatedBit y = AllocatedBit::alloc(Ns(cs, Name{"b"}), b);
        const AllocatedBit r = g.op(cs, x, y);
        EXPECT_EQ(r.value(), g.truth(a, b));
        EXPECT_EQ(cs.get(g.result), fr(g.truth(a, b)));
        EXPECT_TRUE(cs.is_satisfied());
        EXPECT_EQ(cs.num_constraints(), 3u);
        EXPECT_EQ(cs.num_aux(), 3u);
        cs.set(g.result, fr(!g.truth(a, b)));
        EXPECT_EQ(cs.which_is_unsatisfied(), g.constraint) << g.result;
      }
    }
  }
}

TEST(Boolean, NegationFlipsTheViewWithoutTouchingTheSystem) {
  TestConstraintSystem cs;
  const Boolean b = AllocatedBit::alloc(cs, true);
  EXPECT_EQ(b.kind(), Boolean::Kind::kIs);
  EXPECT_EQ(b.not_().kind(), Boolean::Kind::kNot);
  EXPECT_EQ(b.not_().value(), false);
  EXPECT_EQ(b.not_().not_().kind(), Boolean::Kind::kIs);
  EXPECT_EQ(Boolean::constant(true).not_().value(), false);
  EXPECT_EQ(cs.num_constraints(), 1u);
}

TEST(Boolean, XorAndAndOfEveryOperandKindAreCorrectAndCostOneGateOnlyWithoutConstants) {
  for (Operand p : kOperands) {
    for (Operand q : kOperands) {
      for (int op = 0; op < 2; ++op) {
        TestConstraintSystem cs;
        const Boolean a = make(cs, p, "a");
        const Boolean b = make(cs, q, "b");
        const size_t before = cs.num_constraints();
        const Boolean r = op == 0 ? Boolean::xor_(cs, a, b) : Boolean::and_(cs, a, b);
        const bool expect = op == 0 ? value_of(p) != value_of(q) : value_of(p) && value_of(q);
        EXPECT_TRUE(cs.is_satisfied());
        EXPECT_EQ(r.value(), expect);
        const bool gate = !is_constant(p) && !is_constant(q);
        EXPECT_EQ(cs.num_constraints() - before, gate ? 1u : 0u);
        if (op == 1 && gate) {
          EXPECT_EQ(r.kind(), Boolean::Kind::kIs);
        }
        if (op == 1 && (p == Operand::kFalse || q == Operand::kFalse)) {
          EXPECT_TRUE(r.is_constant());
        }
        // XOR of one plain and one negated bit is the negation of a fresh xor.
        const bool mixed = gate && ((p == Operand::kNegAllocTrue || p == Operand::kNegAllocFalse) !=
                                    (q == Operand::kNegAllocTrue || q == Operand::kNegAllocFalse));
        if (op == 0 && gate) {
          EXPECT_EQ(r.kind(), mixed ? Boolean::Kind::kNot : Boolean::Kind::kIs);
        }
      }
    }
  }
}

TEST(Boolean, XorOfNegatedAndPlainBitDoublesThePlainBitLikeBellpepper) {
  // bellpepper matches (Not(x), Is(y)) as xor(Is(y), Is(x)): y is the doubled operand of A.
  KeyAssembly ka;
  const AllocatedBit x = AllocatedBit::alloc(Ns(ka, Name{"x"}), std::nullopt);
  const AllocatedBit y = AllocatedBit::alloc(Ns(ka, Name{"y"}), std::nullopt);
  Boolean::xor_(ka, Boolean(x).not_(), Boolean(y));
  const R1cs r1cs = ka.finish();
  Fr y_coeff, x_coeff;
  for (const R1csEntry& e : r1cs.a) {
    if (e.row != 2) continue;
    if (e.var == y.variable()) y_coeff += e.coeff;
    if (e.var == x.variable()) x_coeff += e.coeff;
  }
  EXPECT_EQ(y_coeff, Fr::from_u64(2));
  EXPECT_TRUE(x_coeff.is_zero());
}

TEST(Boolean, EnforceEqualHoldsExactlyForEqualValuesAndRejectsUnequalConstants) {
  for (Operand p : kOperands) {
    for (Operand q : kOperands) {
      TestConstraintSystem cs;
      const Boolean a = make(cs, p, "a");
      const Boolean b = make(cs, q, "b");
      const bool equal = value_of(p) == value_of(q);
      if (is_constant(p) && is_constant(q)) {
        if (equal) {
          EXPECT_NO_THROW(Boolean::enforce_equal(cs, a, b));
        } else {
          try {
            Boolean::enforce_equal(cs, a, b);
            ADD_FAILURE() << "unequal constants accepted";
          } catch (const SynthesisError& e) {
            EXPECT_EQ(e.kind(), SynthesisError::Kind::kUnsatisfiable);
          }
        }
        EXPECT_EQ(cs.num_constraints(), 0u);
        continue;
      }
      Boolean::enforce_equal(cs, a, b);
      EXPECT_EQ(cs.is_satisfied(), equal);
      const char* name = (p == Operand::kTrue || q == Operand::kTrue)     ? "enforce equal to one"
                         : (p == Operand::kFalse || q == Operand::kFalse) ? "enforce equal to zero"
                                                                          : "enforce equal";
      if (!equal) {
        EXPECT_EQ(cs.which_is_unsatisfied(), name);
      }
    }
  }
}

TEST(Boolean, Sha256ChAndMajAreCorrectForAllOperandKindsAndCostOneAndTwoConstraintsInGeneral) {
  for (Operand p : kOperands) {
    for (Operand q : kOperands) {
      for (Operand s : kOperands) {
        for (int op = 0; op < 2; ++op) {
          TestConstraintSystem cs;
          const Boolean a = make(cs, p, "a");
          const Boolean b = make(cs, q, "b");
          const Boolean c = make(cs, s, "c");
          const size_t before = cs.num_constraints();
          const bool x = value_of(p), y = value_of(q), z = value_of(s);
          const Boolean r =
              op == 0 ? Boolean::sha256_ch(cs, a, b, c) : Boolean::sha256_maj(cs, a, b, c);
          const bool expect =
              op == 0 ? ((x && y) != (!x && z)) : (((x && y) != (x && z)) != (y && z));
          EXPECT_TRUE(cs.is_satisfied());
          EXPECT_EQ(r.value(), expect);
          const size_t cost = cs.num_constraints() - before;
          if (is_constant(p) && is_constant(q) && is_constant(s)) {
            EXPECT_EQ(cost, 0u);
          }
          if (!is_constant(p) && !is_constant(q) && !is_constant(s)) {
            EXPECT_EQ(cost, op == 0 ? 1u : 2u);
          }
          EXPECT_LE(cost, op == 0 ? 1u : 2u);
        }
      }
    }
  }
}

TEST(Boolean, TamperedChAndMajNameTheirComputationConstraints) {
  TestConstraintSystem cs;
  const Boolean a = AllocatedBit::alloc(Ns(cs, Name{"a"}), true);
  const Boolean b = AllocatedBit::alloc(Ns(cs, Name{"b"}), false);
  const Boolean c = AllocatedBit::alloc(Ns(cs, Name{"c"}), true);
  Boolean::sha256_ch(Ns(cs, Name{"ch"}), a, b, c);
  Boolean::sha256_maj(Ns(cs, Name{"maj"}), a, b, c);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.get("maj/b and c/and result"), Fr::zero());
  cs.set("maj/maj", Fr::zero());
  EXPECT_EQ(cs.which_is_unsatisfied(), "maj/maj computation");
  cs.set("ch/ch", Fr::one());
  EXPECT_EQ(cs.which_is_unsatisfied(), "ch/ch computation");
}

TEST(Boolean, U64IntoBooleanVecLeAllocatesSixtyFourBitsLeastSignificantFirst) {
  TestConstraintSystem cs;
  const uint64_t v = 17182120934178543809ull;  // bellpepper's test value
  const std::vector<Boolean> bits = u64_into_boolean_vec_le(cs, v);
  ASSERT_EQ(bits.size(), 64u);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 64u);
  for (size_t i = 0; i < 64; ++i)
    EXPECT_EQ(bits[i].value(), ((v >> i) & 1) != 0);
  EXPECT_EQ(cs.get("bit 63/boolean"), fr((v >> 63) & 1));
}

TEST(Boolean, FieldIntoAllocatedBitsLeAllocates255BitsLeastSignificantFirst) {
  TestConstraintSystem cs;
  const Fr r = -Fr::from_u64(12345);
  const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, r);
  ASSERT_EQ(bits.size(), 255u);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 255u);
  const auto canonical = r.to_canonical();
  for (size_t i = 0; i < 255; ++i)
    EXPECT_EQ(bits[i].value(), canonical.bit(i));
  EXPECT_EQ(cs.get("bit 0/boolean"), fr(canonical.bit(0)));
}

TEST(Boolean, GadgetsBuildTheSameShapeWithoutAWitness) {
  MetricCS metric;
  TestConstraintSystem test;
  const auto build = [](ConstraintSystem& cs, bool witness) {
    const auto v = [&](bool b) { return witness ? std::optional<bool>(b) : std::nullopt; };
    const Boolean a = AllocatedBit::alloc(Ns(cs, Name{"a"}), v(true));
    const Boolean b = AllocatedBit::alloc(Ns(cs, Name{"b"}), v(false));
    const Boolean c = AllocatedBit::alloc(Ns(cs, Name{"c"}), v(true));
    Boolean::sha256_maj(Ns(cs, Name{"maj"}), a, b.not_(), c);
    Boolean::sha256_ch(Ns(cs, Name{"ch"}), a.not_(), b, c);
    Boolean::xor_(Ns(cs, Name{"xor"}), a, b.not_());
    field_into_allocated_bits_le(Ns(cs, Name{"field"}),
                                 witness ? std::optional<Fr>(Fr::one()) : std::nullopt);
  };
  build(metric, false);
  build(test, true);
  EXPECT_TRUE(test.is_satisfied());
  EXPECT_EQ(metric.num_constraints(), test.num_constraints());
  EXPECT_EQ(metric.num_aux(), test.num_aux());
}

}  // namespace
}  // namespace cuzk::gadgets
