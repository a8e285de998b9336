// insert / select / pick against rust-fil-proofs storage-proofs-core/src/gadgets/insertion.rs
// tests: every index of every size, the selected / inserted values, and the constraint counts
// (select: size - 1; insert: 2, 8, 22 for sizes 2, 4, 8, size * (size - 1) otherwise).
#include "circuits/insertion.hpp"

#include <gtest/gtest.h>

#include <random>

#include "circuit_test_util.hpp"
#include "cs/metric_cs.hpp"
#include "cs/test_cs.hpp"

namespace cuzk::circuits {
namespace {

using gadgets::AllocatedBit;
using gadgets::Name;
using gadgets::NameN;
using gadgets::Ns;
using test::alloc_nums;
using test::random_frs;

std::vector<Boolean> alloc_index_bits(ConstraintSystem& cs, size_t index, size_t n) {
  std::vector<Boolean> bits;
  for (size_t i = 0; i < n; ++i)
    bits.emplace_back(AllocatedBit::alloc(Ns(cs, NameN{"index bit ", i}), ((index >> i) & 1) != 0));
  return bits;
}

TEST(Insertion, SelectPicksTheIndexedElementWithSizeMinusOneConstraints) {
  for (size_t log_size = 1; log_size < 5; ++log_size) {
    const size_t size = size_t{1} << log_size;
    for (size_t index = 0; index < size; ++index) {
      std::mt19937_64 rng(1);
      TestConstraintSystem cs;
      const std::vector<Fr> vals = random_frs(rng, size);
      const std::vector<AllocatedNum> elements = alloc_nums(cs, vals, "element ");
      const std::vector<Boolean> bits = alloc_index_bits(cs, index, log_size);
      ASSERT_EQ(cs.num_constraints(), log_size);
      const AllocatedNum selected = select(Ns(cs, Name{"select"}), elements, bits);
      EXPECT_TRUE(cs.is_satisfied());
      EXPECT_EQ(*selected.value(), vals[index]);
      EXPECT_EQ(cs.num_constraints() - log_size, size - 1);
    }
  }
}

TEST(Insertion, InsertPlacesTheElementWithTheOptimizedCounts) {
  for (size_t log_size = 1; log_size <= 4; ++log_size) {
    const size_t size = size_t{1} << log_size;
    const size_t expected = size == 8 ? 22 : size == 4 ? 8 : size * (size - 1);
    for (size_t index = 0; index < size; ++index) {
      std::mt19937_64 rng(2);
      TestConstraintSystem cs;
      const std::vector<Fr> vals = random_frs(rng, size - 1);
      const std::vector<AllocatedNum> elements = alloc_nums(cs, vals, "element ");
      const Fr x = Fr::random(rng);
      const AllocatedNum to_insert = AllocatedNum::alloc(Ns(cs, Name{"insert"}), x);
      const std::vector<Boolean> bits = alloc_index_bits(cs, index, log_size);
      const size_t before = cs.num_constraints();
      std::vector<AllocatedNum> inserted = insert(cs, to_insert, bits, elements);
      EXPECT_TRUE(cs.is_satisfied()) << size << "/" << index;
      EXPECT_EQ(cs.num_constraints() - before, expected) << "size " << size;
      ASSERT_EQ(inserted.size(), size);
      EXPECT_EQ(*inserted[index].value(), x);
      inserted.erase(inserted.begin() + static_cast<ptrdiff_t>(index));
      for (size_t i = 0; i + 1 < size; ++i)
        EXPECT_EQ(*inserted[i].value(), vals[i]);
    }
  }
}

TEST(Insertion, Insert8NamesAndTampering) {
  std::mt19937_64 rng(3);
  TestConstraintSystem cs;
  const std::vector<AllocatedNum> elements = alloc_nums(cs, random_frs(rng, 7), "element ");
  const AllocatedNum x = AllocatedNum::alloc(Ns(cs, Name{"insert"}), Fr::random(rng));
  const std::vector<Boolean> bits = alloc_index_bits(cs, 5, 3);
  insert(cs, x, bits, elements);
  ASSERT_TRUE(cs.is_satisfied());
  EXPECT_NO_THROW(cs.get("b0 nor b1/nor result"));
  EXPECT_NO_THROW(cs.get("b0 and b1/and result"));
  cs.set("p5_xx1/pick result/num", Fr::from_u64(9));
  EXPECT_EQ(cs.which_is_unsatisfied(), "p5_xx1/pick");
}

TEST(Insertion, Size8NeedsPlainAllocatedBits) {
  TestConstraintSystem cs;
  const std::vector<AllocatedNum> elements = alloc_nums(cs, std::vector<Fr>(7), "element ");
  std::vector<Boolean> bits = alloc_index_bits(cs, 0, 3);
  bits[1] = bits[1].not_();
  EXPECT_THROW(insert(cs, elements[0], bits, elements), std::invalid_argument);
}

TEST(Insertion, MetricCountsMatchWithoutWitness) {
  for (size_t size : {2, 4, 8, 16}) {
    MetricCS mcs;
    std::vector<AllocatedNum> elements;
    for (size_t i = 0; i + 1 < size; ++i)
      elements.push_back(AllocatedNum::alloc(mcs, std::nullopt));
    const AllocatedNum x = AllocatedNum::alloc(mcs, std::nullopt);
    std::vector<Boolean> bits;
    for (size_t b = 1; b < size; b *= 2)
      bits.emplace_back(AllocatedBit::alloc(mcs, std::nullopt));
    const size_t before = mcs.num_constraints();
    insert(mcs, x, bits, elements);
    const size_t expected = size == 8 ? 22 : size == 4 ? 8 : size * (size - 1);
    EXPECT_EQ(mcs.num_constraints() - before, expected);
  }
}

}  // namespace
}  // namespace cuzk::circuits
