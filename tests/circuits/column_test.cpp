// Column hashing (rust-fil-proofs stacked/circuit/hash.rs tests: 311 constraints for hash2, 598
// for an 11-row column) against the native Poseidon, column allocation names, and a column proof
// (column hash included in a tree_c of the 8-8-0 shape, as the StackedDrg circuit checks every
// parent column).
#include "circuits/column.hpp"

#include <gtest/gtest.h>

#include <random>

#include "circuit_test_util.hpp"
#include "cs/metric_cs.hpp"
#include "cs/test_cs.hpp"
#include "filecoin/hash/poseidon.hpp"

namespace cuzk::circuits {
namespace {

using gadgets::Name;
using gadgets::Ns;
using test::random_frs;

TEST(Column, SingleColumnHashesMatchUpstreamCountsAndTheNativeHash) {
  std::mt19937_64 rng(1);
  for (const auto& [layers, count] : {std::pair<size_t, size_t>{11, 598}, {2, 311}}) {
    const std::vector<Fr> vals = random_frs(rng, layers);
    TestConstraintSystem cs;
    const AllocatedColumn col = Column{{vals.begin(), vals.end()}}.alloc(cs);
    const AllocatedNum h = col.hash(Ns(cs, Name{"hash_single_column"}));
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_constraints(), count);
    EXPECT_EQ(*h.value(),
              filecoin::poseidon_hash(filecoin::PoseidonConstants::standard(layers), vals));
    EXPECT_EQ(cs.get("column_num_row_0/num"), vals[0]);
    EXPECT_EQ(col.get_value(layers).value(), vals.back());
    EXPECT_THROW(col.get_value(0), std::out_of_range);
    EXPECT_THROW(col.get_value(layers + 1), std::out_of_range);
  }
  MetricCS blank;
  const AllocatedColumn three = Column::empty(3).alloc(blank);
  EXPECT_EQ(blank.num_aux(), 3u);
  EXPECT_THROW(three.hash(blank), std::invalid_argument);
}

TEST(Column, ColumnProofAllocatesUnderColumnAndVerifiesInTreeC) {
  std::mt19937_64 rng(2);
  const TreeArity shape{8, 8, 0};
  // A tree_c of the 32 GiB shape whose leaf 77 is the hash of an 11-row column.
  const std::vector<Fr> rows = random_frs(rng, 11);
  std::vector<Fr> leaves = random_frs(rng, 64 * shape.base_tree_count());
  leaves[77] = filecoin::poseidon_hash(filecoin::PoseidonConstants::standard(11), rows);
  const test::NativeTree tree_c(TreeHasher::kPoseidon, shape, 64, std::move(leaves));
  const ColumnProof proof{Column{{rows.begin(), rows.end()}}, tree_c.path(77)};

  // As the StackedDrg circuit checks a parent column (stacked/circuit/params.rs).
  TestConstraintSystem cs;
  const AllocatedNum comm_c = AllocatedNum::alloc(Ns(cs, Name{"comm_c"}), tree_c.root());
  const AllocatedColumn col = proof.alloc(Ns(cs, Name{"drg_parent_0_num"}));
  const AllocatedNum h = col.hash(Ns(cs, Name{"drg_parent_0_constraint"}));
  por_circuit(Ns(cs, Name{"drg_parent_0_inclusion"}), TreeHasher::kPoseidon, Root::var(h),
              proof.inclusion_path, Root::var(comm_c), true);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.get("drg_parent_0_num/column/column_num_row_10/num"), rows[10]);
  // 598 for the column hash, the 8-8-0 path with a private root (1593 - 1 for no inputize).
  EXPECT_EQ(cs.num_constraints(), 598u + 1592u);
  EXPECT_EQ(cs.num_inputs(), 2u);

  cs.set("drg_parent_0_num/column/column_num_row_4/num", Fr::from_u64(4));
  EXPECT_EQ(cs.which_is_unsatisfied(),
            "drg_parent_0_constraint/first round/quintic s-box 5/(l+rk)^2/squared sum constraint");
}

}  // namespace
}  // namespace cuzk::circuits
