// KeyAssembly: records the circuit's matrices without a witness and appends one
// input_i * 0 = 0 row per input (ONE included) on finish, as bellperson's generator does.
#include "cs/key_assembly.hpp"

#include <gtest/gtest.h>

#include <set>

#include "cs_test_circuits.hpp"

namespace cuzk {
namespace {

TEST(KeyAssembly, RecordsTheMatricesWithoutAWitness) {
  KeyAssembly ka;
  test::HandCircuit(false).synthesize(ka);  // would throw if a value were asked for
  const R1cs r1cs = ka.finish();
  EXPECT_EQ(r1cs.num_inputs, 3u);
  EXPECT_EQ(r1cs.num_aux, 4u);
  // Circuit rows: A has (a, x), (c), (y); B has (b), (ONE, x), (a); C has (c), (d), (a).
  size_t circuit_a = 0;
  for (const R1csEntry& e : r1cs.a)
    circuit_a += e.row < 3;
  EXPECT_EQ(circuit_a, 4u);
  EXPECT_EQ(r1cs.b.size(), 4u);
  EXPECT_EQ(r1cs.c.size(), 3u);
}

TEST(KeyAssembly, FinishAppendsOneInputTimesZeroRowPerInput) {
  KeyAssembly ka;
  test::HandCircuit(false).synthesize(ka);
  const R1cs r1cs = ka.finish();
  ASSERT_EQ(r1cs.num_constraints, 3u + 3u);
  std::set<uint32_t> input_rows_seen;
  for (const R1csEntry& e : r1cs.a) {
    if (e.row < 3) continue;
    // Row 3 + i holds exactly input i with coefficient one.
    EXPECT_TRUE(e.var.is_input());
    EXPECT_EQ(e.var.index, e.row - 3);
    EXPECT_EQ(e.coeff, Fr::one());
    EXPECT_TRUE(input_rows_seen.insert(e.row).second);
  }
  EXPECT_EQ(input_rows_seen.size(), 3u);
  for (const R1csEntry& e : r1cs.b)
    EXPECT_LT(e.row, 3u);
  for (const R1csEntry& e : r1cs.c)
    EXPECT_LT(e.row, 3u);
}

}  // namespace
}  // namespace cuzk
