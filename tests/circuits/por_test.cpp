// Merkle inclusion circuits against rust-fil-proofs storage-proofs-core/tests/por_circuit.rs:
// the same setup (leaves = 64 x base tree count, leaf and root allocated from values, root public
// or private), the pinned constraint and input counts of facts sheet 7.3 for every shape, public
// inputs equal to what the verifier computes (challenge, root), blank synthesis, tampering, and
// por_no_challenge_input.
#include "circuits/por.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "circuit_test_util.hpp"
#include "cs/metric_cs.hpp"
#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"

namespace cuzk::circuits {
namespace {

using gadgets::AllocatedBit;
using gadgets::Name;
using gadgets::NameN;
using gadgets::Ns;
using test::NativeTree;

struct Shape {
  TreeHasher hasher;
  TreeArity arity;
  size_t public_root_constraints;
  size_t private_root_constraints;  // 0: not pinned upstream
};

std::string shape_name(const Shape& s) {
  return std::string(tree_hasher_name(s.hasher)) + " " + std::to_string(s.arity.base) + "-" +
         std::to_string(s.arity.sub) + "-" + std::to_string(s.arity.top);
}

// Facts sheet 7.3 (rfp por_circuit.rs).
const Shape kPoseidonShapes[] = {
    {TreeHasher::kPoseidon, {2, 0, 0}, 1887, 1886}, {TreeHasher::kPoseidon, {4, 0, 0}, 1164, 1163},
    {TreeHasher::kPoseidon, {8, 0, 0}, 1063, 1062}, {TreeHasher::kPoseidon, {8, 2, 0}, 1377, 0},
    {TreeHasher::kPoseidon, {8, 8, 0}, 1593, 0},    {TreeHasher::kPoseidon, {8, 4, 2}, 1764, 0},
    {TreeHasher::kPoseidon, {8, 8, 2}, 1907, 0},    {TreeHasher::kPoseidon, {8, 2, 4}, 1764, 0}};
const Shape kSha256Shapes[] = {{TreeHasher::kSha256, {2, 0, 0}, 272295, 0},
                               {TreeHasher::kSha256, {4, 0, 0}, 216258, 0},
                               {TreeHasher::kSha256, {8, 0, 0}, 250987, 0}};

NativeTree make_tree(const Shape& s, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return NativeTree(s.hasher, s.arity, 64, rng);
}

// Challenges spread over the tree: first, last and two in between.
std::vector<size_t> sample_challenges(size_t leaves) {
  return {0, leaves - 1, leaves / 3, (2 * leaves) / 3 + 1};
}

void synthesize(ConstraintSystem& cs, const Shape& s, const NativeTree& tree, size_t c,
                bool private_root) {
  por_circuit(cs, s.hasher, Root::val(tree.leaf(c)), tree.path(c), Root::val(tree.root()),
              private_root);
}

TEST(PoRCircuit, PoseidonShapesMatchTheUpstreamCounts) {
  for (const Shape& s : kPoseidonShapes) {
    const NativeTree tree = make_tree(s, 1);
    ASSERT_EQ(tree.leaves(), 64 * s.arity.base_tree_count());
    for (size_t c : sample_challenges(tree.leaves())) {
      for (bool private_root : {false, true}) {
        TestConstraintSystem cs;
        synthesize(cs, s, tree, c, private_root);
        ASSERT_TRUE(cs.is_satisfied())
            << shape_name(s) << " c " << c << ": " << *cs.which_is_unsatisfied();
        EXPECT_EQ(cs.num_inputs(), private_root ? 2u : 3u);
        const size_t expected =
            private_root ? s.private_root_constraints : s.public_root_constraints;
        if (expected != 0) {
          EXPECT_EQ(cs.num_constraints(), expected) << shape_name(s);
        } else {
          EXPECT_EQ(cs.num_constraints(), s.public_root_constraints - 1) << shape_name(s);
        }
        const std::optional<Fr> root = private_root ? std::nullopt : std::optional<Fr>(tree.root());
        const std::vector<Fr> inputs = por_public_inputs(c, root);
        EXPECT_TRUE(cs.verify_inputs(inputs)) << shape_name(s) << " c " << c;
      }
    }
  }
}

TEST(PoRCircuit, Sha256ShapesMatchTheUpstreamCounts) {
  for (const Shape& s : kSha256Shapes) {
    const NativeTree tree = make_tree(s, 2);
    const size_t c = s.arity.base == 2 ? 37 : 61;
    // Counts without a witness, as for parameter generation.
    MetricCS mcs;
    por_circuit(mcs, s.hasher, Root::val(std::nullopt), AuthPath::blank(s.arity, tree.leaves()),
                Root::val(std::nullopt), false);
    EXPECT_EQ(mcs.num_constraints(), s.public_root_constraints) << shape_name(s);
    EXPECT_EQ(mcs.num_inputs(), 3u);
    // The prover's rows with a witness.
    ProvingAssignment pa;
    synthesize(pa, s, tree, c, false);
    EXPECT_EQ(pa.a.size(), s.public_root_constraints);
    EXPECT_TRUE(test::rows_satisfied(pa)) << shape_name(s);
    ASSERT_EQ(pa.input_assignment.size(), 3u);
    EXPECT_EQ(pa.input_assignment[1], Fr::from_u64(c));
    EXPECT_EQ(pa.input_assignment[2], tree.root());
    EXPECT_EQ(pa.aux_assignment.size(), mcs.num_aux());
  }
}

TEST(PoRCircuit, Sha256BinaryInTheTestSystem) {
  const Shape& s = kSha256Shapes[0];
  const NativeTree tree = make_tree(s, 3);
  TestConstraintSystem cs;
  synthesize(cs, s, tree, 42, false);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 272295u);
  EXPECT_TRUE(cs.verify_inputs(por_public_inputs(42, tree.root())));
  EXPECT_NO_THROW(
      cs.get("base/merkle tree hash 5/computation of commitment hash/pack_le/input/num"));
  EXPECT_NO_THROW(
      cs.get("base/merkle tree hash 0/computation of commitment hash/1_num_into_bits/bit 254/"
             "boolean"));
}

TEST(PoRCircuit, BlankSynthesisHasTheSameShape) {
  for (const Shape& s : kPoseidonShapes) {
    const NativeTree tree = make_tree(s, 4);
    TestConstraintSystem tcs;
    synthesize(tcs, s, tree, 5, false);
    MetricCS mcs(true);
    por_circuit(mcs, s.hasher, Root::val(std::nullopt), AuthPath::blank(s.arity, tree.leaves()),
                Root::val(std::nullopt), false);
    EXPECT_EQ(mcs.num_constraints(), tcs.num_constraints()) << shape_name(s);
    EXPECT_EQ(mcs.num_aux(), tcs.num_aux());
    EXPECT_EQ(mcs.num_inputs(), tcs.num_inputs());
    // The inputs appear only in the packing / inputize constraints' C and A, never in B.
    EXPECT_EQ(mcs.b_input_density().popcount(), 1u);
  }
}

TEST(PoRCircuit, TamperedVariablesAreNamed) {
  const Shape& s = kPoseidonShapes[4];  // 8-8-0
  const NativeTree tree = make_tree(s, 5);
  const auto fresh = [&] {
    auto cs = std::make_unique<TestConstraintSystem>();
    synthesize(*cs, s, tree, 300, false);
    EXPECT_TRUE(cs->is_satisfied());
    return cs;
  };
  auto cs = fresh();
  cs->set("root_value/num", Fr::from_u64(1));
  EXPECT_EQ(cs->which_is_unsatisfied(), "enforce root is correct");
  cs = fresh();
  cs->set("root/input variable", Fr::from_u64(1));
  EXPECT_EQ(cs->which_is_unsatisfied(), "root/enforce input is correct");
  cs = fresh();
  cs->set("path/input 0", Fr::from_u64(301));
  EXPECT_EQ(cs->which_is_unsatisfied(), "path/packing constraint 0");
  cs = fresh();
  cs->set("value/num", Fr::from_u64(7));
  EXPECT_EQ(cs->which_is_unsatisfied()->rfind("base/merkle tree hash 0/", 0), 0u);
  cs = fresh();
  cs->set("sub/merkle tree hash 0/path element 3/num", Fr::from_u64(7));
  EXPECT_EQ(cs->which_is_unsatisfied()->rfind("sub/merkle tree hash 0/", 0), 0u);
  // A wrong leaf whose path is otherwise honest fails only at the root comparison.
  TestConstraintSystem wrong;
  por_circuit(wrong, s.hasher, Root::val(tree.leaf(300) + Fr::one()), tree.path(300),
              Root::val(tree.root()), false);
  EXPECT_EQ(wrong.which_is_unsatisfied(), "enforce root is correct");
}

TEST(PoRCircuit, SharedVariablesAndPathValidation) {
  const Shape& s = kPoseidonShapes[2];  // 8-0-0
  const NativeTree tree = make_tree(s, 6);
  TestConstraintSystem cs;
  const AllocatedNum leaf = AllocatedNum::alloc(Ns(cs, Name{"leaf"}), tree.leaf(9));
  const AllocatedNum root = AllocatedNum::alloc(Ns(cs, Name{"comm"}), tree.root());
  por_circuit(Ns(cs, Name{"inclusion"}), s.hasher, Root::var(leaf), tree.path(9), Root::var(root),
              true);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints(), 1062u);
  // No leaf / root allocation inside: per level 3 bits, 7 siblings, 22 insert and 505 hash
  // variables.
  EXPECT_EQ(cs.num_aux(), 2u + 2 * (3 + 7 + 22 + 505));
  EXPECT_EQ(cs.num_inputs(), 2u);

  EXPECT_THROW(AuthPath(TreeArity{8, 0, 0}, {PathElement{{Fr::one()}, 0}}), std::invalid_argument);
  EXPECT_THROW(TreeArity({8, 0, 2}).validate(), std::invalid_argument);
  EXPECT_THROW(TreeArity({6, 0, 0}).validate(), std::invalid_argument);
  EXPECT_THROW(base_path_length({8, 0, 0}, 32), std::invalid_argument);
  EXPECT_EQ(base_path_length({8, 8, 0}, 512), 2u);
  EXPECT_EQ(base_path_length({2, 0, 0}, 64), 6u);
}

TEST(PoRCircuit, NoChallengeInputVariant) {
  for (const Shape& s : {kPoseidonShapes[0], kPoseidonShapes[4], kPoseidonShapes[6]}) {
    const NativeTree tree = make_tree(s, 7);
    const size_t c = tree.leaves() - 5;
    const AuthPath path = tree.path(c);
    TestConstraintSystem cs;
    std::vector<AllocatedBit> bits;
    for (size_t i = 0; (size_t{1} << i) < tree.leaves(); ++i)
      bits.push_back(AllocatedBit::alloc(Ns(cs, NameN{"challenge bit ", i}), ((c >> i) & 1) != 0));
    const AllocatedNum leaf = AllocatedNum::alloc(Ns(cs, Name{"leaf"}), tree.leaf(c));
    std::vector<std::vector<AllocatedNum>> values;
    size_t k = 0;
    for (const auto* part : {&path.base(), &path.sub(), &path.top()}) {
      for (const PathElement& e : *part) {
        std::vector<AllocatedNum> level;
        for (const auto& h : e.hashes)
          level.push_back(AllocatedNum::alloc(Ns(cs, NameN{"sibling ", k++}), h));
        values.push_back(std::move(level));
      }
    }
    const AllocatedNum root = AllocatedNum::alloc(Ns(cs, Name{"root"}), tree.root());
    por_no_challenge_input(cs, s.hasher, s.arity, bits, leaf, values, root);
    EXPECT_TRUE(cs.is_satisfied()) << shape_name(s);
    // The same work as por_circuit with a private root, without its packing constraint.
    EXPECT_EQ(cs.num_constraints(), s.public_root_constraints - 2) << shape_name(s);
    EXPECT_EQ(cs.num_inputs(), 1u);
    EXPECT_NO_THROW(cs.get("merkle proof hash (height=0)/hash result/allocate for Elt::Num/num"));
    bits.pop_back();
    TestConstraintSystem cs2;
    EXPECT_THROW(por_no_challenge_input(cs2, s.hasher, s.arity, bits, leaf, values, root),
                 std::invalid_argument);
  }
}

}  // namespace
}  // namespace cuzk::circuits
