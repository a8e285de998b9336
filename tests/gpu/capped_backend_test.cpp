// GpuBackend under [gpus] memory_limit (memory_plan.hpp): caps that make the plan stream the
// bases, and each forced fallback (witness re-expanded, host SpMV, two-vector H chain, every
// section streamed or some resident), prove the CPU backend's bytes for the same r, s, and
// verify; the backend never holds more than the cap; a second set is kept beside the first only
// while room allows; a cap below the working set and an allocation past the cap are clear
// errors. (The fixture: capped_fixture.hpp.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "capped_fixture.hpp"
#include "gpu/device/cuda_check.hpp"
#include "msm_test_util.hpp"
#include "pce/packed_matrix.hpp"
#include "pce/pce_file.hpp"
#include "pce/spmv.hpp"

namespace cuzk::gpu {
namespace {

using cuzk::testing::RandomCircuit;
using testing::CappedGpuProof;
using testing::options;
using testing::pool;
using testing::randomness;

TEST_F(CappedGpuProof, UnderTheResidentPeakTheBasesStreamAndTheBytesAreTheCpus) {
  const MemoryPlan p = prove_capped(resident_ - 1);
  std::cout << p.summary() << "\n";
  EXPECT_FALSE(p.all_resident);
  EXPECT_EQ(p.chunk_scalars, 256u);
  // The front keeps one block for b and c, then the H MSM's slots and scratch (proved twice
  // above: the second proof's front takes them from the first's block).
  EXPECT_NE(p.arena_bytes, 0u) << p.summary();
}

// Uncapped, the bases reach the device by warm steps of 4 KiB (copied a piece at a time through
// the pinned slots, as the engine's steps between which a WinningPoSt may run); the proof that
// follows has the CPU's bytes. A capped plan streams its bases: no steps.
TEST_F(CappedGpuProof, WarmStepsCopyTheBasesByPiecesAndTheBytesAreTheCpus) {
  GpuBackendOptions o = options(0, kMaxChunkScalars);
  o.warm_step_bytes = 4096;
  GpuBackend gpu(0, o);
  const uint64_t bases = bases_bytes(params_);
  size_t steps = 0;
  while (gpu.warm_step(params_, input()))
    ASSERT_LT(++steps, 1000000u);
  EXPECT_GE(steps, bases / 4096);
  EXPECT_GE(gpu.h2d_bytes(), bases);
  const groth16::ProofRandomness r = randomness(13);
  EXPECT_EQ(groth16::encode_proof(gpu.prove(params_, input(), r, nullptr)), cpu_proof(r));
  EXPECT_FALSE(gpu.warm_step(params_, input()));
  const std::optional<groth16::DeviceHolding> held = gpu.device_holding();
  EXPECT_TRUE(held && !held->streams && held->bases_bytes > 0);  // the whole set stays
  GpuBackend capped(0, options(resident_ - 1));
  EXPECT_FALSE(capped.warm_step(params_, input()));
}

// A capped device's streamed sections page-locked in place (the engine takes these locks once
// per loaded set): their arrays read as page-locked, their chunks leave from them with no
// staging copy, the proof keeps the CPU's bytes, and once the handles go the arrays are
// pageable again. An uncapped device streams nothing and locks nothing.
TEST_F(CappedGpuProof, PageLockedPointsStreamInPlaceAndTheBytesAreTheCpus) {
  // (just under the resident peak this circuit keeps h resident: every section streamed here,
  // as at 16 and 24 GiB for a 32 GiB PoRep; the H100 run of 2026-12-06 caught the assumption)
  GpuBackendOptions o = options(resident_ - 1);
  o.adjust_plan = [](MemoryPlan& plan) {
    for (SectionPlan& sec : plan.sections)
      sec.resident = false;
  };
  GpuBackend gpu(0, o);
  const MemoryPlan plan = gpu.plan_for(params_, input());
  ASSERT_FALSE(plan.all_resident);
  EXPECT_FALSE(is_page_locked(params_.h.data()));
  {
    const groth16::PageLocks locks = gpu.lock_streamed_points(params_, input());
    uint64_t streamed = 0;  // every section's whole array (a's and b's inputs are not streamed)
    for (const SectionPlan& sec : plan.sections)
      streamed += sec.bytes;
    // h is locked first, so nothing locked before can share its pages: it must be locked. (A
    // later array sharing a page with an earlier one may be refused and stays staged: these
    // arrays are small enough to come from the heap; a 32 GiB set's are mappings of their own.)
    EXPECT_TRUE(is_page_locked(params_.h.data()));
    EXPECT_TRUE(is_page_locked(params_.h.data() + params_.h.size() - 1));
    EXPECT_GE(locks.bytes, params_.h.size() * sizeof(G1Affine));
    EXPECT_LE(locks.bytes, streamed);
    for (uint64_t seed : {14, 15}) {
      const groth16::ProofRandomness r = randomness(seed);
      EXPECT_EQ(groth16::encode_proof(gpu.prove(params_, input(), r, nullptr)), cpu_proof(r));
    }
  }
  EXPECT_FALSE(is_page_locked(params_.h.data()));
  GpuBackend uncapped(0, options(0, kMaxChunkScalars));
  EXPECT_TRUE(uncapped.lock_streamed_points(params_, input()).handles.empty());
}

TEST_F(CappedGpuProof, JustAboveTheSmallestWorkingSet) {
  // Bisect the smallest cap the plan accepts, then prove there.
  uint64_t lo = 1, hi = resident_;
  while (hi - lo > 4096) {
    const uint64_t mid = lo + (hi - lo) / 2;
    GpuBackend probe(0, options(mid));
    try {
      probe.plan_for(params_, input());
      hi = mid;
    } catch (const DeviceMemoryError&) {
      lo = mid;
    }
  }
  const MemoryPlan p = prove_capped(hi);
  std::cout << "smallest cap " << hi << " bytes: " << p.summary() << "\n";
  EXPECT_TRUE(p.streams());
}

// Every fallback forced on one partition: the same bytes each time.
TEST_F(CappedGpuProof, EveryFallbackProvesTheSameBytes) {
  const auto stream_all = [](MemoryPlan& p) {
    for (SectionPlan& s : p.sections)
      s.resident = false;
  };
  const auto keep_b = [](MemoryPlan& p) {
    for (SectionPlan& s : p.sections)
      s.resident = s.name == "b_g1" || s.name == "b_g2";
  };
  struct Case {
    const char* name;
    bool device_spmv, keep_w, two, stream_matrices;
  };
  for (const Case c :
       {Case{"device spmv, w kept", true, true, false, false},
        Case{"device spmv, w freed", true, false, false, false},
        Case{"device spmv, matrices streamed by row blocks", true, true, false, true},
        Case{"host spmv", false, false, false, false},
        Case{"host spmv, two vectors", false, false, true, false}}) {
    for (const auto& sections :
         {std::function<void(MemoryPlan&)>(stream_all), std::function<void(MemoryPlan&)>(keep_b)}) {
      SCOPED_TRACE(c.name);
      const MemoryPlan p = prove_capped(resident_ - 1, [&](MemoryPlan& plan) {
        plan.spmv_on_device = plan.spmv_on_device && c.device_spmv;
        plan.witness_during_chain = plan.witness_during_chain && c.keep_w;
        plan.chain_two_vectors = plan.chain_two_vectors || c.two;
        plan.spmv_streams_matrices = plan.spmv_on_device && c.stream_matrices;
        sections(plan);
      });
      EXPECT_EQ(p.spmv_on_device, c.device_spmv);
      EXPECT_EQ(p.spmv_streams_matrices, c.stream_matrices);
      EXPECT_EQ(p.chain_two_vectors, c.two);
      EXPECT_TRUE(p.streams());
    }
  }
}

// The matrices streamed by row blocks of a few KiB (every matrix in many blocks; C checked block
// by block with one read of the first bad row at the end): the CPU's bytes; and a witness that
// breaks a row past the first blocks fails naming the row that the CPU's check names.
TEST_F(CappedGpuProof, SmallRowBlocksProveTheCpusBytesAndNameTheCpusFirstBadRow) {
  GpuBackendOptions o = options(resident_ - 1);
  o.matrix_slot_bytes = 4096;
  // (C's row offsets alone pass one slot: its check takes several blocks, so a block's first row
  // must be added to the row it finds)
  ASSERT_GT(rc_->c.row_ptr.size_bytes(), 2 * o.matrix_slot_bytes);
  o.adjust_plan = [](MemoryPlan& p) { p.spmv_streams_matrices = p.spmv_on_device; };
  GpuBackend gpu(0, o);
  const groth16::ProofRandomness r = randomness(21);
  EXPECT_EQ(groth16::encode_proof(gpu.prove(params_, input(), r, nullptr)), cpu_proof(r))
      << gpu.last_plan().summary();
  ASSERT_TRUE(gpu.last_plan().spmv_streams_matrices) << gpu.last_plan().summary();
  // A non-0/1 value whose change breaks a row in the second half first (the CPU's evaluation).
  const size_t rows = input().rows();
  pce::CompactWitness bad;
  std::optional<size_t> want;
  for (size_t k = witness_.aux_values.size(); k-- > 0 && !(want && *want >= rows / 2);) {
    bad = witness_;
    bad.aux_values[k] += Fr::one();
    std::vector<Fr> a(rows), b(rows), c(rows);
    pce::evaluate(*rc_, bad, a, b, c, pool());
    want = pce::first_unsatisfied_row(a, b, c, pool());
  }
  ASSERT_TRUE(want && *want >= rows / 2);
  try {
    gpu.prove(params_, groth16::PartitionInput::recorded(bad, *rc_), r, nullptr);
    FAIL() << "proved a witness that breaks row " << *want;
  } catch (const SynthesisError& e) {
    EXPECT_STREQ(e.what(), pce::unsatisfied_row_error(*want, *rc_).what());
  }
}

// A recording read from its PCE file, where the plan streams the matrices by row blocks: the
// engine's one lock per set packs them (pce/packed_matrix.hpp) into page-locked memory and locks
// none of the CSR; where the budget refuses the pack, the CSR's nine arrays are locked in place
// (the file is read into anonymous memory, which the driver locks); a backend whose caller locked
// nothing and whose budget refuses stages the CSR. Each way, the CPU's bytes.
TEST_F(CappedGpuProof, APceFilesMatricesArePackedOnceElseLockedInPlace) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) /
                                     ("capped-in-place-" + std::to_string(::getpid()) + ".pce");
  pce::write_pce_file(path, *rc_, pool());
  const pce::RecordedCircuit read = pce::read_pce_file(path, rc_->identity, pool());
  std::filesystem::remove(path);
  const auto input_read = [&] { return groth16::PartitionInput::recorded(witness_, read); };
  uint64_t matrix_bytes = 0;
  for (const pce::CsrMatrix* m : {&read.a, &read.b, &read.c})
    matrix_bytes += m->row_ptr.size_bytes() + m->cols.size_bytes() + m->coeffs.size_bytes();
  GpuBackendOptions o = options(resident_ - 1);
  o.matrix_slot_bytes = 4096;
  o.adjust_plan = [](MemoryPlan& p) { p.spmv_streams_matrices = p.spmv_on_device; };
  const auto csr_locked = [&](bool want) {
    for (const pce::CsrMatrix* m : {&read.a, &read.b, &read.c}) {
      EXPECT_EQ(is_page_locked(m->row_ptr.data()), want);
      EXPECT_EQ(is_page_locked(m->cols.data()), want);
      EXPECT_EQ(is_page_locked(m->coeffs.data()), want);
    }
  };
  const auto proves_the_cpus_bytes = [&](GpuBackend& gpu, uint64_t seed) {
    const groth16::ProofRandomness r = randomness(seed);
    EXPECT_EQ(groth16::encode_proof(gpu.prove(params_, input_read(), r, nullptr)), cpu_proof(r))
        << gpu.last_plan().summary();
    EXPECT_TRUE(gpu.last_plan().spmv_streams_matrices) << gpu.last_plan().summary();
  };
  const groth16::HostAdmission refuse{[](uint64_t) { return false; }, [](uint64_t) {}};
  {
    GpuBackend gpu(0, o);
    const groth16::PageLocks locks = gpu.lock_streamed_points(params_, input_read());
    csr_locked(false);
    // The backend's copy is the three packs (each's group offsets, then its bytes padded to 8),
    // smaller than the CSR even with this circuit's random coefficients (an index each).
    uint64_t pack_bytes = 0;
    for (const pce::CsrMatrix* m : {&read.a, &read.b, &read.c}) {
      const std::vector<uint64_t> offsets = pce::packed_group_offsets(*m, &pool());
      pack_bytes += offsets.size() * sizeof(uint64_t) + (offsets.back() + 7) / 8 * 8;
    }
    const uint64_t packed = gpu.matrix_copy_bytes();
    EXPECT_EQ(packed, pack_bytes);
    EXPECT_LT(packed, matrix_bytes);
    proves_the_cpus_bytes(gpu, 31);
    gpu.leave_circuit();  // (a WinningPoSt between two fronts: the pack stays)
    EXPECT_EQ(gpu.matrix_copy_bytes(), packed);
    proves_the_cpus_bytes(gpu, 32);
    EXPECT_EQ(gpu.matrix_copy_bytes(), packed);
    gpu.clear_caches();
    EXPECT_EQ(gpu.matrix_copy_bytes(), 0u);
  }
  {
    GpuBackend gpu(0, o);
    gpu.set_host_admission(refuse);
    const groth16::PageLocks locks = gpu.lock_streamed_points(params_, input_read());
    csr_locked(true);
    EXPECT_GE(locks.bytes, matrix_bytes);
    proves_the_cpus_bytes(gpu, 33);
    EXPECT_EQ(gpu.matrix_copy_bytes(), 0u);
  }
  csr_locked(false);
  GpuBackend unlocked(0, o);
  unlocked.set_host_admission(refuse);
  proves_the_cpus_bytes(unlocked, 34);
  EXPECT_EQ(unlocked.matrix_copy_bytes(), 0u);
}

// Distinct witnesses of the fixture's recorded circuit, for a batch.
struct BatchWitnesses {
  std::vector<RandomCircuit> circuits;
  std::vector<pce::CompactWitness> witnesses;
  std::vector<groth16::PartitionInput> inputs;
  BatchWitnesses(size_t partitions, size_t rows, const pce::RecordedCircuit& rc) {
    for (uint64_t k = 0; k < partitions; ++k) {
      circuits.emplace_back(rows, 4, 77, 900 + k);
      pce::WitnessCS wcs(&pool());
      circuits.back().synthesize(wcs);
      witnesses.push_back(std::move(wcs).finish());
    }
    for (const pce::CompactWitness& w : witnesses)
      inputs.push_back(groth16::PartitionInput::recorded(w, rc));
  }
};

// Each partition's proof from a batch's sums: the CPU backend's bytes for its r, s, verified.
void expect_cpus_bytes(const groth16::Parameters& params, const BatchWitnesses& batch,
                       const std::vector<groth16::MsmSums>& sums) {
  groth16::CpuBackend cpu(pool());
  const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(params.vk);
  for (size_t k = 0; k < sums.size(); ++k) {
    const groth16::ProofRandomness r = randomness(30 + k);
    const groth16::Proof got = groth16::assemble_proof(params.vk, sums[k], r);
    EXPECT_EQ(groth16::encode_proof(got),
              groth16::encode_proof(cpu.prove(params, batch.inputs[k], r, nullptr)))
        << k;
    EXPECT_TRUE(groth16::verify_proof(pvk, got, batch.circuits[k].public_inputs())) << k;
  }
}

// A batch of partitions of one recorded circuit (distinct witnesses): each partition's front,
// then every aux section over the whole batch with each chunk of bases uploaded once, give each
// partition the CPU backend's bytes for its r, s, and verify; the bases of a section cross once
// per batch (the batch's aux bytes are one pass, not one per partition).
TEST_F(CappedGpuProof, ABatchProvesEachPartitionsCpuBytes) {
  constexpr size_t kPartitions = 3;
  const BatchWitnesses batch(kPartitions, kRows, *rc_);
  const std::vector<groth16::PartitionInput>& inputs = batch.inputs;
  // Just under these witnesses' own resident peak, every base streamed; the matrices cached or
  // streamed, the tails summed per chunk or gathered for one Pippenger per partition.
  GpuBackend probe(0, options(0, kMaxChunkScalars));
  const uint64_t resident = probe.plan_for(params_, inputs[0]).peak();
  for (const bool streamed : {false, true}) {
    SCOPED_TRACE(streamed ? "matrices streamed, tails gathered" : "matrices cached, split chunks");
    GpuBackendOptions o = options(resident - 1);
    o.adjust_plan = [&](MemoryPlan& plan) {
      plan.spmv_streams_matrices = streamed;
      plan.batch_gathers_tails = streamed;
      for (SectionPlan& sec : plan.sections)
        sec.resident = false;
    };
    GpuBackend gpu(0, o);
    // (the cap just under the resident peak leaves room for few compact witnesses beyond the
    // plan's widest chunk; the batch below is the caller's, as the engine's is up to the limit)
    EXPECT_GE(gpu.batch_limit(params_, inputs[0]), 1u);
    std::vector<groth16::MsmSums> sums;
    std::vector<groth16::ProverTiming> timings(kPartitions);
    for (size_t k = 0; k < kPartitions; ++k)
      sums.push_back(gpu.prove_front(params_, inputs[k], &timings[k]));
    // The fronts shared one block.
    EXPECT_NE(gpu.last_plan().arena_bytes, 0u) << gpu.last_plan().summary();
    const uint64_t before = gpu.h2d_bytes();
    for (const groth16::AuxSection section : groth16::kAuxSections) {
      const uint64_t at = gpu.h2d_bytes();
      gpu.aux_msm(params_, section, inputs, sums, timings);
      std::cout << groth16::aux_section_name(section) << ": " << gpu.h2d_bytes() - at
                << " bytes to the device; " << gpu.last_plan().summary() << "\n";
    }
    // The sections laid out their slots and scratch in the block and kept it for the next
    // batch's fronts, or (the plan's block too wide for the batch's phase) freed it.
    if (gpu.last_plan().batch_in_arena) {
      EXPECT_GE(gpu.arena_block_bytes(), gpu.last_plan().arena_bytes);
    } else {
      EXPECT_EQ(gpu.arena_block_bytes(), 0u);
    }
    const uint64_t aux_bytes = gpu.h2d_bytes() - before;
    uint64_t one_pass = 0;  // every aux section's bases once
    for (const groth16::AuxSection section : groth16::kAuxSections) {
      const groth16::AuxSectionBases b = groth16::aux_section_bases(params_, section, inputs[0]);
      one_pass += b.g1.size_bytes() + b.g2.size_bytes();
    }
    EXPECT_GE(aux_bytes, one_pass);
    EXPECT_LT(aux_bytes, one_pass + kPartitions * (one_pass / 4)) << "bases crossed per partition";
    expect_cpus_bytes(params_, batch, sums);
    for (const groth16::ProverTiming& t : timings)
      EXPECT_GT(t.h2d_bytes, 0u);
    EXPECT_FALSE(gpu.last_plan().all_resident);
    EXPECT_EQ(gpu.last_plan().batch_gathers_tails, streamed);
    EXPECT_LE(gpu.memory_peak(), o.memory_limit);
  }
}

// The H MSM's first chunk copied under the H chain (MemoryPlan::h_first_chunk_in_chain) inside
// a capped batch, with no plan adjusted: the first cap under the resident peak whose plan, as
// the engine plans, takes that layout; each partition's proof the CPU's bytes.
TEST_F(CappedGpuProof, TheHMsmsFirstChunkCopiedUnderTheChainProvesTheCpusBytes) {
  uint64_t cap = 0;
  for (uint64_t c = resident_ - 1; c > resident_ / 2 && cap == 0; c -= resident_ / 256) {
    GpuBackend probe(0, options(c));
    const MemoryPlan p = probe.plan_for(params_, input());
    if (p.h_first_chunk_in_chain && !p.resident("h")) cap = c;
  }
  ASSERT_NE(cap, 0u) << "no cap in [" << resident_ / 2 << ", " << resident_
                     << ") plans the first H chunk under the chain";
  const BatchWitnesses batch(3, kRows, *rc_);
  GpuBackend gpu(0, options(cap));
  // As many partitions as the plan's batch holds there (the engine's batch), up to 3.
  const size_t partitions = std::min<size_t>(3, gpu.batch_limit(params_, batch.inputs[0]));
  const std::span<const groth16::PartitionInput> inputs(batch.inputs.data(), partitions);
  std::vector<groth16::MsmSums> sums;
  std::vector<groth16::ProverTiming> timings(partitions);
  for (size_t k = 0; k < partitions; ++k)
    sums.push_back(gpu.prove_front(params_, inputs[k], &timings[k]));
  EXPECT_TRUE(gpu.last_plan().h_first_chunk_in_chain) << gpu.last_plan().summary();
  for (const groth16::AuxSection section : groth16::kAuxSections)
    gpu.aux_msm(params_, section, inputs, sums, timings);
  expect_cpus_bytes(params_, batch, sums);
  EXPECT_LE(gpu.memory_peak(), cap);
}

// The classic path (a, b, c from the host) under a cap. Its resident peak is its own, below the
// recorded input's (no witness expansion on the device): the H200 run of 2026-12-01 found the
// recorded input's peak - 1 left it all resident.
TEST_F(CappedGpuProof, ClassicAssignmentUnderACap) {
  ProvingAssignment pa;
  circuit_->synthesize(pa);
  pa.add_input_constraints();
  const pce::CompactWitness w =
      pce::CompactWitness::from_assignment(pa.input_assignment, pa.aux_assignment);
  const groth16::PartitionInput classic = groth16::PartitionInput::evaluated(
      w, pa.a, pa.b, pa.c, pa.a_aux_density, pa.b_input_density, pa.b_aux_density);
  GpuBackend probe(0, options(0, kMaxChunkScalars));
  const uint64_t classic_resident = probe.plan_for(params_, classic).peak();
  ASSERT_LT(classic_resident, resident_);

  const GpuBackendOptions o = options(classic_resident - 1, 128);
  GpuBackend gpu(0, o);
  groth16::CpuBackend cpu(pool());
  const groth16::ProofRandomness r = randomness(21);
  EXPECT_EQ(groth16::encode_proof(groth16::prove(params_, *circuit_, r, gpu, nullptr)),
            groth16::encode_proof(groth16::prove(params_, *circuit_, r, cpu, nullptr)));
  EXPECT_FALSE(gpu.last_plan().all_resident);
  EXPECT_LE(gpu.memory_peak(), o.memory_limit);
}

// A circuit switch and back, as the engine makes between a PoRep job and a WinningPoSt: a
// second set of the same shape proves beside the first's cached bases when the device has room
// (uncapped), so the device holds both and switching back adds none; under a cap of one set's
// resident peak its plan drops the first set's, which the way back caches again in place of the
// second's. Every proof is the CPU's. (The resident path's uploads are not in h2d_bytes: the
// device's bases are what tells.)
TEST_F(CappedGpuProof, ASecondSetProvesBesideTheFirstWhileRoomAllows) {
  RandomCircuit other(kRows, 4, 78);
  const groth16::Parameters other_params = groth16::generate_parameters_insecure(
      other, groth16::ToxicWaste::insecure_from_seed("gpu capped, other"), pool());
  pce::RecordingCS rec;
  other.synthesize(rec);
  const pce::RecordedCircuit other_rc = std::move(rec).finish({"random", kRows, "other", 1});
  pce::WitnessCS wcs(&pool());
  other.synthesize(wcs);
  const pce::CompactWitness other_witness = std::move(wcs).finish();
  const auto other_input = groth16::PartitionInput::recorded(other_witness, other_rc);
  groth16::CpuBackend cpu(pool());
  const groth16::ProofRandomness r = randomness(21);
  const auto other_cpu = groth16::encode_proof(cpu.prove(other_params, other_input, r, nullptr));
  const uint64_t both = bases_bytes(params_) + bases_bytes(other_params);
  const auto device_bases = [](GpuBackend& gpu) {
    const std::optional<groth16::DeviceHolding> held = gpu.device_holding();
    return held ? held->bases_bytes : 0;
  };
  for (const uint64_t limit : {uint64_t{0}, resident_}) {
    SCOPED_TRACE(limit == 0 ? "uncapped" : "capped at one set's resident peak");
    GpuBackend gpu(0, options(limit, kMaxChunkScalars));
    EXPECT_EQ(groth16::encode_proof(gpu.prove(params_, input(), r, nullptr)), cpu_proof(r));
    ASSERT_TRUE(gpu.last_plan().all_resident);
    EXPECT_TRUE(gpu.holds(params_));
    EXPECT_FALSE(gpu.holds(other_params));
    gpu.leave_circuit();
    EXPECT_EQ(groth16::encode_proof(gpu.prove(other_params, other_input, r, nullptr)), other_cpu);
    EXPECT_TRUE(gpu.holds(other_params));
    EXPECT_EQ(gpu.holds(params_), limit == 0);
    const uint64_t kept = device_bases(gpu);
    if (limit == 0) {
      EXPECT_GE(kept, both);
    } else {
      EXPECT_LT(kept, both);
    }
    gpu.leave_circuit();
    EXPECT_EQ(groth16::encode_proof(gpu.prove(params_, input(), r, nullptr)), cpu_proof(r));
    EXPECT_TRUE(gpu.holds(params_));
    EXPECT_EQ(gpu.holds(other_params), limit == 0);
    if (limit == 0) {
      EXPECT_EQ(device_bases(gpu), kept);  // every entry a hit: nothing uploaded again
    } else {
      EXPECT_LT(device_bases(gpu), both);  // the second set's bases went for the first's
    }
    if (limit != 0) {
      EXPECT_LE(gpu.memory_peak(), limit);
    }
  }
}

TEST_F(CappedGpuProof, ACapBelowTheWorkingSetIsAClearError) {
  GpuBackend gpu(0, options(1 << 20));
  try {
    gpu.prove(params_, input(), randomness(1), nullptr);
    FAIL() << "proved under a 1 MiB cap";
  } catch (const DeviceMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("needs at least"), std::string::npos) << e.what();
    EXPECT_EQ(e.cap(), 1u << 20);
  }
  EXPECT_EQ(gpu.memory_in_use(), 0u);
}

// The single-MSM entry point is capped too: bases past the cap fail as out of memory.
TEST_F(CappedGpuProof, AnAllocationPastTheCapFailsAsOutOfMemory) {
  std::mt19937_64 rng(5);
  const auto bases = msm_test::random_bases<G1Curve>(1 << 14, rng);  // 1.6 MiB
  const std::vector<Fr> scalars = testing::random_frs(bases.size(), rng);
  GpuBackend gpu(0, options(1 << 20));
  try {
    gpu.msm_g1(bases, scalars);
    FAIL() << "uploaded 1.6 MiB of bases under a 1 MiB cap";
  } catch (const CudaError& e) {
    EXPECT_TRUE(e.out_of_memory()) << e.what();
    EXPECT_NE(std::string(e.what()).find("memory_limit"), std::string::npos) << e.what();
  }
  gpu.clear_caches();
  EXPECT_EQ(gpu.memory_in_use(), 0u);
}

}  // namespace
}  // namespace cuzk::gpu
