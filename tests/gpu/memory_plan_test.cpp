// The device memory plan (gpu/plan/memory_plan.hpp) with the real 32 GiB PoRep partition's sizes
// (facts sheet 7: 130,278,869 rows, 328 inputs, 130,169,893 aux, A-aux density 129,753,292,
// B-aux density 33,112,281 + ONE; perf-log 2026-12-01: 1,699,030 non-0/1 aux values, 5.90 GB
// of matrices) and G1 / G2 affine points of 96 / 192 bytes (sizeof in ec/): what streams at
// 16, 24, 80 GiB and 141 GB, every phase under the cap, and a clear error below the minimum.
// Host-only: built and run without CUDA.
#include "gpu/plan/memory_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>

#include "gpu/msm/msm_window.hpp"

namespace cuzk::gpu {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kN = uint64_t{1} << 27;

// The recorded 32 GiB circuit on the device: coefficient table, CSR of A, B, C (row offsets and
// column indices 4 bytes, 16-bit coefficient indices), three density bitmaps.
uint64_t pce_32g() {
  const uint64_t rows = 130'278'869, nnz = 309'405'051ull + 130'327'340 + 282'656'500;
  return 2466 * 32 + 3 * (rows + 1) * 4 + nnz * 4 + nnz * 2 + 3 * ((130'170'221 + 63) / 64) * 8;
}

ProverShape porep_32g() {
  ProverShape s;
  s.domain = kN;
  s.inputs = 328;
  s.aux = 130'169'893;
  s.witness_values = 1'699'030;
  s.recorded = true;
  s.pce_bytes = pce_32g();
  s.sections = {{"h", kN - 1, kN - 1, 96, 192},
                {"l", s.aux, s.aux, 96, 192},
                {"a", 328 + 129'753'292ull, s.aux, 96, 192},
                {"b_g1", 1 + 33'112'281ull, s.aux, 96, 192},
                {"b_g2", 1 + 33'112'281ull, s.aux, 192, 384}};
  return s;
}

// Every phase under the cap, the streaming ring present exactly when something streams, and
// the resident bases and the ring inside the MSM phase's peak.
void expect_consistent(const ProverShape& shape, const MemoryPlan& p) {
  EXPECT_LE(p.spmv_peak, p.cap);
  EXPECT_LE(p.chain_peak, p.cap);
  EXPECT_LE(p.msm_peak, p.cap);
  EXPECT_LE(p.batch_peak, p.cap);
  EXPECT_LE(p.peak(), p.cap);
  if (p.all_resident) {
    EXPECT_EQ(p.batch_partitions, 1u);  // nothing crosses the bus to share
    return;
  }
  EXPECT_GE(p.batch_partitions, 1u);
  EXPECT_LE(p.batch_partitions, kMaxBatchPartitions);
  EXPECT_EQ(p.chunk_scalars % 64, 0u);
  EXPECT_GE(p.chunk_scalars, 64u);
  EXPECT_EQ(p.streams(), p.ring_bytes != 0);
  uint64_t resident = 0;
  for (size_t i = 0; i < p.sections.size(); ++i) {
    const uint64_t bytes = shape.sections[i].points * shape.sections[i].point_bytes;
    EXPECT_EQ(p.sections[i].bytes, bytes);
    if (p.sections[i].resident) resident += bytes;
  }
  EXPECT_LE(resident, p.msm_peak) << p.summary();
  EXPECT_LE(resident + p.ring_bytes, std::max(p.msm_peak, p.batch_peak)) << p.summary();
}

TEST(DeviceMemoryPlan, TheModelsMsmScratchIsAtLeastItsLargestBuffers) {
  // 2^27 full scalars at c = 20: 13 windows of digits and entries (4 bytes each per scalar), the
  // tail's scalars and indices, 13 x 2^19 buckets of 192 bytes, and the radix sort's second key
  // buffer and payload pair (4 bytes per scalar each).
  ASSERT_EQ(msm_window_bits(kN), 20u);
  ASSERT_TRUE(msm_radix_sort(kN));
  const uint64_t floor = 2 * 13 * kN * 4 + kN * 36 + 13 * (uint64_t{1} << 19) * 192 + 3 * kN * 4;
  EXPECT_GE(msm_workspace_bytes(kN, 192), floor);
  EXPECT_LT(msm_workspace_bytes(kN, 192), floor + 4 * kGiB);
  EXPECT_LT(msm_workspace_bytes(1u << 20, 192), msm_workspace_bytes(1u << 24, 192));
  EXPECT_LT(msm_workspace_bytes(1u << 24, 192), msm_workspace_bytes(1u << 24, 384));
  EXPECT_EQ(msm_workspace_bytes(0, 192), 0u);
}

TEST(DeviceMemoryPlan, Porep32gStaysResidentOnTheH200) {
  const ProverShape s = porep_32g();
  // Bases 47.4 GB on the device (96-byte G1 points), PCE 5.9 GB, a, b, c 12.9 GB, w 4.2 GB,
  // twiddles 4.3 GB, whole-MSM scratch ~26 GB (an upper bound: every scalar in the tail, the
  // G2 query's buckets): 104 GB against the 96.4 GB peak sampled on the H200 (perf-log
  // 2026-12-01).
  const uint64_t peak = resident_peak(s);
  std::cout << "32 GiB PoRep resident peak " << gib(peak) << "\n";
  EXPECT_GT(peak, 90'000'000'000ull);
  EXPECT_LT(peak, 110'000'000'000ull);
  const MemoryPlan p = plan_device_memory(s, 141'000'000'000ull, true);
  EXPECT_TRUE(p.all_resident) << p.summary();
  EXPECT_FALSE(p.streams());
  EXPECT_EQ(p.layout_key(), "resident");
  expect_consistent(s, p);
}

TEST(DeviceMemoryPlan, Porep32gAt80GiBKeepsTheBasesAndRunsWholeMsms) {
  const ProverShape s = porep_32g();
  const MemoryPlan p = plan_device_memory(s, 80 * kGiB, true);
  std::cout << p.summary() << "\n";
  // Whole MSMs need ~33 GB of scratch (G2 buckets): beside the 47.4 GB of bases that is ~82 GB
  // of the 85.9 (with 104-byte points, 51.0 GB of bases, it was not, and the MSMs ran in 2^26-
  // scalar chunks); the H chain (bases 47.4 + PCE 5.9 + twiddles 4.3 + a, b, c 12.9 + w 4.2 =
  // 74.7 GB) fits: every base stays resident, nothing streams, nothing to batch.
  EXPECT_FALSE(p.all_resident);
  EXPECT_TRUE(p.spmv_on_device);
  EXPECT_TRUE(p.witness_during_chain);
  EXPECT_FALSE(p.chain_two_vectors);
  EXPECT_FALSE(p.streams());
  EXPECT_EQ(p.chunk_scalars, kN);
  EXPECT_EQ(p.batch_partitions, 1u);
  expect_consistent(s, p);
}

TEST(DeviceMemoryPlan, Porep32gAt24GiBStreamsEveryBaseAndReexpandsTheWitness) {
  const ProverShape s = porep_32g();
  const MemoryPlan p = plan_device_memory(s, 24 * kGiB, true);
  std::cout << p.summary() << "\n";
  // SpMV on the device fits (PCE 5.9 + w 4.2 + a, b, c 12.9 = 23.0 GB of 25.8); the chain with
  // w too would not (27.3 GB): w is expanded again for the MSMs. No section fits beside the
  // first phase (B_G1 3.4 GB would make it 26.4 GB).
  EXPECT_FALSE(p.all_resident);
  EXPECT_TRUE(p.spmv_on_device);
  EXPECT_FALSE(p.witness_during_chain);
  EXPECT_FALSE(p.chain_two_vectors);
  for (const SectionPlan& sec : p.sections)
    EXPECT_FALSE(sec.resident) << sec.name;
  // 2^25-scalar chunks would need 12 GiB of G2 slots: 2^24, two slots of 192-byte points.
  EXPECT_EQ(p.chunk_scalars, uint64_t{1} << 24);
  EXPECT_EQ(p.ring_bytes, 2 * (uint64_t{1} << 24) * 192);
  // One block kept across partitions and batches: the front lays out b and c (8.6 GB) in it,
  // with the H MSM's first slot of 2^24 G1 points (1.6 GB) at its top for the first chunk's
  // copy during the chain, then the H MSM's other slot and its scratch; each batch section its
  // slots and scratch, B_G2's the widest (two slots of 2^24 G2 points, 6.4 GB). The block is
  // the widest of these, held in every phase.
  const uint64_t v = kN * 32, slot = (uint64_t{1} << 24) * 96;
  const uint64_t scratch = msm_workspace_bytes(uint64_t{1} << 24, 192, kN - 1);
  const uint64_t g2_slots = 2 * (uint64_t{1} << 24) * 192;
  const uint64_t g2_scratch = msm_workspace_bytes(uint64_t{1} << 24, 384);
  EXPECT_EQ(p.arena_bytes, std::max({2 * v + slot, 2 * slot + scratch, g2_slots + g2_scratch}));
  EXPECT_TRUE(p.batch_in_arena);
  EXPECT_TRUE(p.h_first_chunk_in_chain);
  EXPECT_EQ(p.msm_peak, s.pce_bytes + v + p.arena_bytes);
  expect_consistent(s, p);
}

uint64_t front_peak(const MemoryPlan& p) {
  return std::max({p.spmv_peak, p.chain_peak, p.msm_peak});
}

// Each cap just under the front's highest phase with the block before: the next narrower block,
// the same layout and batch width.
TEST(DeviceMemoryPlan, TheArenaOnlyWhereEveryPhaseHoldsIt) {
  const ProverShape s = porep_32g();
  const uint64_t v = kN * 32, slot = (uint64_t{1} << 24) * 96;
  const uint64_t h_layout = 2 * slot + msm_workspace_bytes(uint64_t{1} << 24, 192, kN - 1);
  const uint64_t batch_layout =
      2 * (uint64_t{1} << 24) * 192 + msm_workspace_bytes(uint64_t{1} << 24, 384);
  const MemoryPlan at24 = plan_device_memory(s, 24 * kGiB, true);
  ASSERT_TRUE(at24.h_first_chunk_in_chain) << at24.summary();
  const auto narrower = [&](const MemoryPlan& wider) {
    const MemoryPlan p = plan_device_memory(s, front_peak(wider) - 1, true);
    EXPECT_EQ(p.layout_key(), at24.layout_key()) << p.summary();
    EXPECT_EQ(p.batch_partitions, at24.batch_partitions) << p.summary();
    EXPECT_LT(p.arena_bytes, wider.arena_bytes) << p.summary();
    expect_consistent(s, p);
    return p;
  };
  // Without the first chunk's slot beside b and c: the batch's block (wider than the front's).
  const MemoryPlan batch = narrower(at24);
  EXPECT_FALSE(batch.h_first_chunk_in_chain);
  EXPECT_TRUE(batch.batch_in_arena);
  EXPECT_EQ(batch.arena_bytes, std::max({2 * v, h_layout, batch_layout}));
  // The front's block alone: b and c, then the H MSM's slots and scratch.
  const MemoryPlan front = narrower(batch);
  EXPECT_FALSE(front.h_first_chunk_in_chain);
  EXPECT_FALSE(front.batch_in_arena);
  EXPECT_EQ(front.arena_bytes, std::max(2 * v, h_layout));
  // No block: the buffers by cudaMalloc.
  const MemoryPlan none = narrower(front);
  EXPECT_EQ(none.arena_bytes, 0u);
  EXPECT_FALSE(none.batch_in_arena);
  EXPECT_FALSE(none.h_first_chunk_in_chain);
  // The matrices streamed by row blocks hold two vectors and the slots in turn: no arena.
  const MemoryPlan at16 = plan_device_memory(s, 16 * kGiB, true);
  EXPECT_EQ(at16.arena_bytes, 0u);
  EXPECT_FALSE(at16.batch_in_arena);
  EXPECT_FALSE(at16.h_first_chunk_in_chain);
}

TEST(DeviceMemoryPlan, Porep32gAt16GiBStreamsTheMatricesAndBatchesSixteen) {
  const ProverShape s = porep_32g();
  const MemoryPlan p = plan_device_memory(s, 16 * kGiB, true);
  std::cout << p.summary() << "\n";
  // The recorded matrices (5.9 GB) do not fit beside w and a, b, c (21.5 GB): they stream by row
  // blocks, the SpMV stays on the device, and the chain holds a, b, w and one twiddle table
  // (4.2 + 8.6 + 2.1 = 15.0 GB of 17.18).
  EXPECT_TRUE(p.spmv_on_device);
  EXPECT_TRUE(p.spmv_streams_matrices);
  EXPECT_FALSE(p.chain_two_vectors);
  EXPECT_TRUE(p.streams());
  for (const SectionPlan& sec : p.sections)
    EXPECT_FALSE(sec.resident) << sec.name;
  // The H MSM holds h (4.3 GB), two slots of 2^24 G1 points (3.2 GB) and their scratch (3.3 GB).
  EXPECT_EQ(p.chunk_scalars, uint64_t{1} << 24);
  EXPECT_GT(p.chain_peak, 14'500'000'000ull);
  EXPECT_LT(p.chain_peak, 15'500'000'000ull);
  // The batch phase: G2 slots and scratch (10.4 GB), and per partition its compact witness
  // (95 MB) and its tail (1.7 M non-0/1 values with a G2 base each, 381 MB): the ten
  // partitions of a PoRep proof fit in one batch.
  EXPECT_GE(p.batch_partitions, 10u);
  expect_consistent(s, p);
}

// `memory_limit = "24GiB"` / "16GiB" on the H200 (what the benchmarks measure) against the free
// memory the default `memory_limit = 0` plans on a 24 GB or 16 GB card (nvidia-smi: 24,564 MiB
// on an RTX 4090, about 16,300 on a 5070 Ti), less a CUDA context of up to 700 MiB (the H200's and
// H100's took ~0.5-0.7 GiB, outside the cap): the same layout, and a batch still wide enough for
// a PoRep job's ten partitions.
TEST(DeviceMemoryPlan, ARealCardsFreeMemoryPlansAsTheEmulatedCap) {
  const ProverShape s = porep_32g();
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  const struct {
    uint64_t emulated, card_mib;
  } cards[] = {{24 * kGiB, 24'564}, {16 * kGiB, 16'303}};
  for (const auto& c : cards) {
    const MemoryPlan emulated = plan_device_memory(s, c.emulated, true);
    const MemoryPlan card = plan_device_memory(s, (c.card_mib - 700) * kMiB, true);
    EXPECT_EQ(card.layout_key(), emulated.layout_key()) << card.summary();
    EXPECT_EQ(card.arena_bytes, emulated.arena_bytes) << card.summary();
    EXPECT_EQ(card.h_first_chunk_in_chain, emulated.h_first_chunk_in_chain) << card.summary();
    EXPECT_GE(card.batch_partitions, 10u) << card.summary();
  }
}

TEST(DeviceMemoryPlan, Porep32gBatchSizes) {
  const ProverShape s = porep_32g();
  // A partition's compact witness on the device: two bitmaps, ranks and 1.7 M values.
  const uint64_t words = (s.aux + 63) / 64;
  EXPECT_EQ(compact_witness_bytes(s), 2 * words * 8 + words * 4 + s.witness_values * 32);
  const uint64_t per_partition = compact_witness_bytes(s) + batch_tail_bytes(s);
  EXPECT_EQ(batch_tail_bytes(s),
            tail_scalars_offset(s.witness_values, 192) + s.witness_values * 32);
  EXPECT_EQ(plan_device_memory(s, 16 * kGiB, true).batch_partitions, 13u);
  EXPECT_EQ(plan_device_memory(s, 24 * kGiB, true).batch_partitions, 16u);
  EXPECT_EQ(plan_device_memory(s, 80 * kGiB, true).batch_partitions, 1u);  // nothing streams
  EXPECT_EQ(plan_device_memory(s, 141'000'000'000ull, true).batch_partitions, 1u);
  // Just above the smallest plan the batch shrinks to what the phase holds (>= 1).
  for (uint64_t cap = 12 * kGiB; cap <= 16 * kGiB; cap += kGiB / 8) {
    try {
      const MemoryPlan p = plan_device_memory(s, cap, true);
      EXPECT_LE(p.batch_peak, cap);
      if (p.batch_partitions < kMaxBatchPartitions) {
        EXPECT_GT(p.batch_peak + per_partition, cap) << p.summary();
      }
    } catch (const DeviceMemoryError&) {
    }
  }
}

TEST(DeviceMemoryPlan, BelowTheSmallestWorkingSetIsAClearError) {
  const ProverShape s = porep_32g();
  try {
    plan_device_memory(s, 8 * kGiB, true);
    FAIL() << "planned a 32 GiB partition in 8 GiB";
  } catch (const DeviceMemoryError& e) {
    const std::string what = e.what();
    std::cout << what << "\n";
    EXPECT_EQ(e.cap(), 8 * kGiB);
    // h and w alone are 8.5 GB.
    EXPECT_GT(e.needed(), 8 * kGiB);
    EXPECT_LT(e.needed(), 14 * kGiB);
    EXPECT_NE(what.find("needs at least " + std::to_string(e.needed()) + " bytes"),
              std::string::npos);
    EXPECT_NE(what.find(std::to_string(8 * kGiB)), std::string::npos);
  }
  // Without a host SpMV the device SpMV needs w, a, b and a twiddle table (15.05 GB beside the
  // streamed matrices): 14 GiB is too small.
  EXPECT_TRUE(plan_device_memory(s, 16 * kGiB, false).spmv_streams_matrices);
  try {
    plan_device_memory(s, 14 * kGiB, false);
    FAIL() << "planned without a host SpMV";
  } catch (const DeviceMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("no host SpMV"), std::string::npos) << e.what();
    EXPECT_GT(e.needed(), 14 * kGiB);
  }
  EXPECT_THROW(plan_device_memory(s, 0, true), std::invalid_argument);
  ProverShape odd = s;
  odd.domain = 3 << 20;
  EXPECT_THROW(plan_device_memory(odd, 16 * kGiB, true), std::invalid_argument);
}

// Every cap from the smallest working set to above the resident peak: a plan under the cap or
// the error, never a plan over it; more memory never makes the proof need less than it did.
TEST(DeviceMemoryPlan, EveryCapGivesAPlanUnderItOrTheError) {
  const ProverShape s = porep_32g();
  uint64_t first_ok = 0;
  for (uint64_t cap = 6 * kGiB; cap <= 150 * kGiB; cap += kGiB / 4) {
    try {
      const MemoryPlan p = plan_device_memory(s, cap, true);
      if (first_ok == 0) first_ok = cap;
      expect_consistent(s, p);
      if (cap >= resident_peak(s)) {
        EXPECT_TRUE(p.all_resident);
      }
    } catch (const DeviceMemoryError& e) {
      EXPECT_EQ(first_ok, 0u) << "a larger cap failed: " << e.what();
      EXPECT_GT(e.needed(), cap);
    }
  }
  std::cout << "smallest cap that plans: " << gib(first_ok) << "\n";
  EXPECT_GT(first_ok, 8 * kGiB);
  EXPECT_LE(first_ok, 16 * kGiB);
}

// A WindowPoSt-like partition (every scalar full width, all of aux non-0/1: the witness upload
// is as large as w) and a SnapDeals-like one (2^27 domain, small L/A/B) plan too.
TEST(DeviceMemoryPlan, OtherKindsPlanUnderTheCaps) {
  ProverShape wpost;
  wpost.domain = kN;
  wpost.inputs = 23'491;
  wpost.aux = 127'000'000;
  wpost.witness_values = wpost.aux;
  wpost.recorded = true;
  wpost.pce_bytes = 7 * kGiB;
  wpost.sections = {{"h", kN - 1, kN - 1, 96, 192},
                    {"l", wpost.aux, wpost.aux, 96, 192},
                    {"a", 120'000'000, wpost.aux, 96, 192},
                    {"b_g1", 92'000'000, wpost.aux, 96, 192},
                    {"b_g2", 92'000'000, wpost.aux, 192, 384}};
  // Its parameters are 61 GB on disk (perf-log, session 2): resident on the H200 as last visit
  // (118.3 GB sampled there), so the default path does not change for it either.
  std::cout << "WindowPoSt-like resident peak " << gib(resident_peak(wpost)) << "\n";
  EXPECT_TRUE(plan_device_memory(wpost, 139 * kGiB, true).all_resident);
  ProverShape snap = porep_32g();
  snap.aux = 81'000'000;
  snap.sections[1].points = snap.sections[1].scalars = snap.aux;
  for (const ProverShape* s : {&wpost, &snap}) {
    for (uint64_t cap : {16 * kGiB, 24 * kGiB, 80 * kGiB}) {
      const MemoryPlan p = plan_device_memory(*s, cap, true);
      std::cout << p.summary() << "\n";
      expect_consistent(*s, p);
    }
  }
}

uint64_t bases_bytes(const ProverShape& s) {
  uint64_t b = 0;
  for (const MsmSectionShape& m : s.sections)
    b += m.points * m.point_bytes;
  return b;
}

// Sets kept on the device from earlier circuits (plan_beside): kept where the plan beside them
// lays the device out as the plan without them would, else dropped (keep_others false) and the
// plan is the one without them.
TEST(DeviceMemoryPlan, SetsKeptFromEarlierCircuitsNeverChangeThePlan) {
  const ProverShape porep = porep_32g();
  ProverShape small;  // a 2^20-row recorded circuit
  small.domain = uint64_t{1} << 20;
  small.inputs = 133;
  small.aux = 1'000'000;
  small.witness_values = small.aux;
  small.recorded = true;
  small.pce_bytes = 64 << 20;
  small.sections = {{"h", small.domain - 1, small.domain - 1, 96, 192},
                    {"l", small.aux, small.aux, 96, 192},
                    {"a", small.aux, small.aux, 96, 192},
                    {"b_g1", small.aux, small.aux, 96, 192},
                    {"b_g2", small.aux, small.aux, 192, 384}};
  constexpr uint64_t kH200 = 141'000'000'000ull;
  // The small circuit beside PoRep's 47.4 GB of bases on the H200, and PoRep back beside it.
  const PlanBeside small_beside = plan_beside(small, kH200, bases_bytes(porep), true);
  EXPECT_TRUE(small_beside.keep_others);
  EXPECT_TRUE(small_beside.plan.all_resident);
  EXPECT_LE(small_beside.plan.peak() + bases_bytes(porep), kH200);
  const PlanBeside porep_beside = plan_beside(porep, kH200, bases_bytes(small), true);
  EXPECT_TRUE(porep_beside.keep_others);
  EXPECT_TRUE(porep_beside.plan.all_resident);
  // At 80 GiB PoRep's plan needs 79.6 GiB: 4 GiB kept beside it would stream a section.
  const PlanBeside tight = plan_beside(porep, 80 * kGiB, 4 * kGiB, true);
  EXPECT_FALSE(tight.keep_others);
  EXPECT_EQ(tight.plan.layout_key(), plan_device_memory(porep, 80 * kGiB, true).layout_key());
  for (const uint64_t cap : {16 * kGiB, 24 * kGiB, 80 * kGiB, kH200}) {
    const MemoryPlan alone = plan_device_memory(porep, cap, true);
    for (const uint64_t others :
         {uint64_t{0}, uint64_t{256} << 20, kGiB, 4 * kGiB, 16 * kGiB, 64 * kGiB, cap}) {
      SCOPED_TRACE(gib(cap) + " beside " + gib(others));
      const PlanBeside p = plan_beside(porep, cap, others, true);
      EXPECT_EQ(p.plan.layout_key(), alone.layout_key());
      EXPECT_EQ(p.plan.batch_partitions, alone.batch_partitions);
      if (others == 0) {
        EXPECT_TRUE(p.keep_others);
      }
      if (p.keep_others) {
        EXPECT_LE(p.plan.peak() + others, cap) << p.plan.summary();
      } else {
        EXPECT_EQ(p.plan.peak(), alone.peak());
      }
    }
  }
}

// Small chunks on request (the GPU tests force several chunks on small circuits).
TEST(DeviceMemoryPlan, MaxChunkIsHonouredAndRoundedToWords) {
  ProverShape s;
  s.domain = 1 << 12;
  s.inputs = 4;
  s.aux = 4000;
  s.witness_values = 100;
  s.recorded = true;
  s.pce_bytes = 1 << 20;
  s.sections = {{"h", 4095, 4095, 96, 192}, {"l", 4000, 4000, 96, 192}};
  const uint64_t all = resident_peak(s);
  const MemoryPlan p = plan_device_memory(s, all - 1, true, 300);
  EXPECT_FALSE(p.all_resident);
  EXPECT_EQ(p.chunk_scalars, 256u);
  expect_consistent(s, p);
  EXPECT_TRUE(plan_device_memory(s, all, true).all_resident);
}

}  // namespace
}  // namespace cuzk::gpu
