// A parameter set whose points are behind a PointSource (groth16/point_source.hpp): its counts are
// the file's, wherever asked; the checks that need only counts pass and fail as for the host
// set; what needs the host points refuses it by name (the CPU prover, the writers, the aux bases)
// rather than reading empty vectors; and VectorSource, the host twin, reads what the file does.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "common/error_of.hpp"
#include "common/temp_dir.hpp"
#include "groth16/backend.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/params_file.hpp"
#include "groth16/setup.hpp"
#include "pce/recording_cs.hpp"
#include "pce/witness_cs.hpp"
#include "random_circuit.hpp"
#include "random_parameters.hpp"

namespace cuzk::groth16 {
namespace {

using cuzk::testing::error_of;
using cuzk::testing::test_pool;

struct SourcedSet {
  testing::TempDir dir{"point-source"};
  testing::RandomCircuit circuit{200, 3, 9};
  std::shared_ptr<const Parameters> host = std::make_shared<const Parameters>(
      generate_parameters_insecure(circuit, ToxicWaste::insecure_from_seed("source"), test_pool()));
  Parameters sourced;
  pce::RecordedCircuit rc;
  pce::CompactWitness witness;

  SourcedSet() {
    write_parameters(dir.path() / "set.params", *host);
    sourced = open_parameters(dir.path() / "set.params", SubgroupCheck::kCheck);
    pce::RecordingCS rec;
    circuit.synthesize(rec);
    rc = std::move(rec).finish({"random", 200, "source", 1});
    pce::WitnessCS cs(&test_pool());
    circuit.synthesize(cs);
    witness = std::move(cs).finish();
  }
  PartitionInput input() const { return PartitionInput::recorded(witness, rc); }
};

TEST(PointSource, ASourcedSetHasTheCountsOfItsFileAndNoHostPoints) {
  const SourcedSet s;
  const Parameters& h = *s.host;
  const SectionCounts want{h.h.size(), h.l.size(), h.a.size(), h.b_g1.size(), h.b_g2.size()};
  EXPECT_EQ(section_counts(h), want);
  EXPECT_EQ(section_counts(s.sourced), want);
  EXPECT_TRUE(has_host_points(h));
  EXPECT_FALSE(has_host_points(s.sourced));
  EXPECT_EQ(s.sourced.vk, h.vk);
  // 96 bytes a G1 point, 192 a G2 one (facts sheet 8.1): the file less its vk and five lengths.
  EXPECT_EQ(points_bytes(want), std::filesystem::file_size(s.dir.path() / "set.params") -
                                    serialize_verifying_key(h.vk).size() - 5 * 4);
}

TEST(PointSource, AVectorSourceReadsWhatTheFileSourceReads) {
  const SourcedSet s;
  const VectorSource v(s.host, "host");
  const PointSource& f = *s.sourced.source;
  EXPECT_EQ(v.counts(), f.counts());
  std::mt19937_64 rng(3);
  for (const Section section : kSections) {
    const uint64_t n = f.counts().of(section);
    for (int i = 0; i < 6; ++i) {
      const uint64_t first = rng() % n, count = rng() % (n - first + 1);
      if (section == Section::kBG2) {
        std::vector<G2Affine> a(count), b(count);
        v.read_g2(section, first, a, &test_pool());
        f.read_g2(section, first, b, nullptr);
        EXPECT_EQ(a, b);
      } else {
        std::vector<G1Affine> a(count), b(count);
        v.read_g1(section, first, a, nullptr);
        f.read_g1(section, first, b, &test_pool());
        EXPECT_EQ(a, b) << section_name(section);
      }
    }
  }
  std::vector<G1Affine> two(2);
  EXPECT_THROW(v.read_g1(Section::kH, v.counts().h - 1, two, nullptr), std::out_of_range);
  EXPECT_THROW(v.read_g1(Section::kBG2, 0, two, nullptr), std::invalid_argument);
  EXPECT_THROW(VectorSource(std::make_shared<const Parameters>(s.sourced), "twice"),
               std::invalid_argument);
}

TEST(PointSource, TheFitCheckNeedsOnlyTheCounts) {
  const SourcedSet s;
  const PartitionInput in = s.input();
  EXPECT_NO_THROW(check_partition_fits(s.sourced, in));
  EXPECT_NO_THROW(check_batch_fits(s.sourced, {&in, 1}, 1, 1));
  // Another circuit's set: the same refusal, host or sourced.
  const testing::RandomCircuit other(100, 3, 9);
  const Parameters small =
      generate_parameters_insecure(other, ToxicWaste::insecure_from_seed("small"), test_pool());
  write_parameters(s.dir.path() / "small.params", small);
  const Parameters small_sourced =
      open_parameters(s.dir.path() / "small.params", SubgroupCheck::kCheck);
  const std::string host_error = error_of([&] { check_partition_fits(small, in); });
  ASSERT_NE(host_error, "");
  EXPECT_EQ(error_of([&] { check_partition_fits(small_sourced, in); }), host_error);
}

// The host copy read through the opened file, whole from its map (a pool) or by pread pieces
// (none), is the set parse_parameters reads from it (and the generated set it was written from);
// a set with host points is its own copy.
TEST(PointSource, AHostCopyReadThroughTheSourceIsTheParsedSet) {
  const SourcedSet s;
  const Parameters copy = read_host_points(s.sourced, &test_pool());
  EXPECT_TRUE(has_host_points(copy));
  EXPECT_EQ(copy, read_parameters(s.dir.path() / "set.params", SubgroupCheck::kCheck, test_pool()));
  EXPECT_EQ(copy, *s.host);
  EXPECT_EQ(read_host_points(s.sourced, nullptr), *s.host);
  EXPECT_EQ(read_host_points(*s.host, nullptr), *s.host);
}

TEST(PointSource, WhatReadsHostPointsRefusesASourcedSetByName) {
  const SourcedSet s;
  const PartitionInput in = s.input();
  const std::string file = (s.dir.path() / "set.params").string();
  const auto refused = [&](const std::string& e, const char* who) {
    EXPECT_NE(e.find(std::string(who) + ": the set's points are not in host memory"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find(file), std::string::npos) << e;
  };
  CpuBackend cpu(test_pool());
  MsmSums sums;
  ProverTiming t;
  // The type the engine answers with the host copy.
  EXPECT_THROW((void)cpu.prove(s.sourced, in, ProofRandomness::from_os(), nullptr),
               HostPointsNeeded);
  refused(error_of([&] { (void)cpu.prove(s.sourced, in, ProofRandomness::from_os(), nullptr); }),
          "cpu");
  refused(error_of([&] { (void)cpu.prove_front(s.sourced, in, nullptr); }), "cpu");
  refused(error_of([&] {
            cpu.aux_msm(s.sourced, AuxSection::kL, {&in, 1}, {&sums, 1}, {&t, 1});
          }),
          "cpu");
  refused(error_of([&] { (void)aux_section_bases(s.sourced, AuxSection::kA, in); }),
          "aux_section_bases");
  refused(error_of([&] { (void)serialize_parameters(s.sourced); }), "serialize_parameters");
  const auto out = s.dir.path() / "copy.params";
  refused(error_of([&] { write_parameters(out, s.sourced); }), "serialize_parameters");
  EXPECT_FALSE(std::filesystem::exists(out));
  // The host set proves (the CPU's own checks, unchanged).
  EXPECT_NO_THROW((void)cpu.prove(*s.host, in, ProofRandomness::from_os(), nullptr));
}

}  // namespace
}  // namespace cuzk::groth16
