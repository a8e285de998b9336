// The payload spool: payloads survive the disk round trip, the disk share is bounded, and a
// damaged file is refused with a reason rather than read past its end.
#include "engine/payload_spool.hpp"

#include <gtest/gtest.h>

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
  const auto f = dir.path() / "bad.payload";
  {
    std::ofstream out(f, std::ios::binary);
    const uint64_t huge = uint64_t{1} << 60;  // an exabyte, in a 16-byte file
    out.write(reinterpret_cast<const char*>(&huge), sizeof huge);
    out.write("12345678", 8);
  }
  ProofRequest r;
  try {
    PayloadSpool::read(f, r);
    FAIL() << "read a 2^60-byte payload";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("past the end"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::engine
