// The payload spool: payloads survive the disk round trip, the disk share is bounded, a damaged
// file is refused with a reason rather than read past its end, and a configured directory is
// made, checked and locked when the spool is made.
#include "engine/resources/payload_spool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/temp_dir.hpp"

namespace cuzk::engine {
namespace {

ProofRequest request(size_t a, size_t b) {
  ProofRequest r;
  r.vanilla_proof.assign(a, 7);
  r.vanilla_proofs = {std::vector<uint8_t>(b, 1), std::vector<uint8_t>(3, 2)};
  return r;
}

TEST(PayloadSpool, PayloadsComeBackAndTheDiskShareIsBounded) {
  cuzk::testing::TempDir dir("spool");
  PayloadSpool spool(dir.path(), 1000);
  const auto f = spool.write("j1", request(100, 50));
  ProofRequest back;
  PayloadSpool::read(f, back);
  EXPECT_EQ(back.vanilla_proof, request(100, 50).vanilla_proof);
  EXPECT_EQ(back.vanilla_proofs, request(100, 50).vanilla_proofs);
  EXPECT_EQ(spool.bytes(), std::filesystem::file_size(f));
  try {
    spool.write("j2", request(900, 0));
    FAIL() << "spooled past the limit";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("spool is full"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "j2.payload"));
  spool.remove(f);
  EXPECT_EQ(spool.bytes(), 0u);
  EXPECT_NO_THROW(spool.write("j3", request(500, 100)));
}

TEST(PayloadSpool, ALengthPastTheEndIsRefusedBeforeAllocating) {
  cuzk::testing::TempDir dir("spool-bad");
  PayloadSpool spool(dir.path(), 0);
  ProofRequest small;
  small.vanilla_proof.assign(8, 'x');
  const auto f = spool.write("bad", small);
  {  // the vanilla_proof length (before its 8 bytes and the u64 count) made an exabyte
    std::fstream out(f, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(std::filesystem::file_size(f) - 24));
    const uint64_t huge = uint64_t{1} << 60;
    out.write(reinterpret_cast<const char*>(&huge), sizeof huge);
  }
  ProofRequest r;
  try {
    PayloadSpool::read(f, r);
    FAIL() << "read a 2^60-byte payload";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("past the end"), std::string::npos) << e.what();
  }
}

TEST(PayloadSpool, TheWholeRequestComesBackAndLeftoversAreFoundByANewSpool) {
  cuzk::testing::TempDir dir("spool-left");
  ProofRequest r = request(10, 5);
  r.request_id = "curio-17";
  r.kind = ProofKind::kSnapDealsUpdate;
  r.priority = Priority::kHigh;
  r.sector_size = 2048;
  r.registered_proof = 4;
  r.sector_number = 9;
  r.miner_id = 1000;
  r.partition_index = 3;
  r.randomness.assign(32, 5);
  r.comm_r_old.assign(32, 6);
  r.comm_r_new.assign(32, 7);
  r.comm_d_new.assign(32, 8);
  {
    PayloadSpool first(dir.path(), 0);
    first.write("job-4", r);
  }
  std::ofstream(dir.path() / "job-5.payload") << "garbage";
  std::ofstream(dir.path() / "notes.txt") << "not a payload";
  PayloadSpool second(dir.path(), 0);
  auto left = second.leftovers();
  ASSERT_EQ(left.size(), 2u);
  std::sort(left.begin(), left.end(), [](auto& a, auto& b) { return a.job_id < b.job_id; });
  EXPECT_EQ(left[0].job_id, "job-4");
  EXPECT_TRUE(left[0].error.empty()) << left[0].error;
  const ProofRequest& h = left[0].request;
  EXPECT_EQ(h.request_id, "curio-17");
  EXPECT_EQ(h.kind, ProofKind::kSnapDealsUpdate);
  EXPECT_EQ(h.priority, Priority::kHigh);
  EXPECT_EQ(h.sector_size, 2048u);
  EXPECT_EQ(h.registered_proof, 4u);
  EXPECT_EQ(h.sector_number, 9u);
  EXPECT_EQ(h.miner_id, 1000u);
  EXPECT_EQ(h.partition_index, 3u);
  EXPECT_EQ(h.randomness, r.randomness);
  EXPECT_EQ(h.comm_r_old, r.comm_r_old);
  EXPECT_EQ(h.comm_r_new, r.comm_r_new);
  EXPECT_EQ(h.comm_d_new, r.comm_d_new);
  EXPECT_TRUE(h.vanilla_proof.empty());  // the payload stays on disk
  EXPECT_EQ(second.bytes(), std::filesystem::file_size(left[0].file));
  ProofRequest full;
  PayloadSpool::read(left[0].file, full);
  EXPECT_EQ(full.vanilla_proofs, r.vanilla_proofs);
  EXPECT_EQ(full.request_id, "curio-17");
  EXPECT_EQ(left[1].job_id, "job-5");
  EXPECT_NE(left[1].error.find("not a cuzk spool file"), std::string::npos) << left[1].error;
}

// issue 29: a second daemon on one spool directory resumed and proved the first one's queued
// jobs (their clients got FAILED).
TEST(PayloadSpool, AConfiguredDirectoryIsLockedWhileItsSpoolLives) {
  cuzk::testing::TempDir dir("spool-lock");
  const auto d = dir.path() / "made" / "spool";
  {
    PayloadSpool first(d, 0);
    EXPECT_TRUE(std::filesystem::is_directory(d));  // made at once, not at the first write
    try {
      PayloadSpool second(d, 0);
      FAIL() << "two spools on one directory";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "[spool] dir " + d.string() +
                                           " is in use by another cuzk-daemon (it holds " +
                                           (d / "cuzk-spool.lock").string() + ")");
    }
  }
  EXPECT_NO_THROW(PayloadSpool again(d, 0));  // let go with the first
}

// issue 29: a spool directory that could not be listed was passed over in silence, and the jobs
// in it were not resumed.
TEST(PayloadSpool, ADirectoryThatCannotBeUsedIsAnErrorAtOnce) {
  cuzk::testing::TempDir dir("spool-bad-dir");
  const auto file = dir.path() / "a-file";
  std::ofstream(file) << "not a directory";
  try {
    PayloadSpool spool(file, 0);
    FAIL() << "a file taken as the spool directory";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(
        std::string(e.what()).starts_with("[spool] dir " + file.string() + ": cannot create it ("))
        << e.what();
  }
}

}  // namespace
}  // namespace cuzk::engine
