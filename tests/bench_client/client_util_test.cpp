#include "client_util.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace cuzk::bench {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(NormalizeAddress, UnixForms) {
  EXPECT_EQ(normalize_address("unix:///tmp/cuzk.sock"), "unix:///tmp/cuzk.sock");
  EXPECT_EQ(normalize_address("unix:/tmp/cuzk.sock"), "unix:///tmp/cuzk.sock");
  EXPECT_EQ(normalize_address("unix:run/cuzk.sock"), "unix:run/cuzk.sock");
  EXPECT_EQ(normalize_address("UNIX:///tmp/x"), "unix:///tmp/x");
  EXPECT_EQ(normalize_address("/run/curio/cuzk.sock"), "unix:///run/curio/cuzk.sock");
  EXPECT_EQ(normalize_address("./cuzk.sock"), "unix:./cuzk.sock");
  EXPECT_EQ(normalize_address("  unix:///tmp/x  "), "unix:///tmp/x");
}

TEST(NormalizeAddress, HostPort) {
  EXPECT_EQ(normalize_address("127.0.0.1:9820"), "127.0.0.1:9820");
  EXPECT_EQ(normalize_address("localhost:9820"), "localhost:9820");
  EXPECT_EQ(normalize_address("[::1]:9820"), "[::1]:9820");
  // The Rust cuzk-bench's default form.
  EXPECT_EQ(normalize_address("http://127.0.0.1:9820"), "127.0.0.1:9820");
  EXPECT_EQ(normalize_address("http://127.0.0.1:9820/"), "127.0.0.1:9820");
  EXPECT_EQ(normalize_address("tcp://prover:1"), "prover:1");
  EXPECT_EQ(normalize_address("dns:///prover:9820"), "dns:///prover:9820");
  EXPECT_EQ(normalize_address("unix-abstract:cuzk"), "unix-abstract:cuzk");
}

TEST(NormalizeAddress, RejectsMalformed) {
  for (const char* bad : {"", "   ", "localhost", "localhost:", "localhost:0", "localhost:65536",
                          "localhost:98x", "::1:9820", "[::1]", "[::1]9820", "unix:",
                          "unix://relative/path", "unix://", "https://prover:443", "host:1/path"}) {
    EXPECT_THROW(normalize_address(bad), std::invalid_argument) << '"' << bad << '"';
  }
}

TEST(ParseDuration, UnitsAndBareSeconds) {
  EXPECT_EQ(parse_duration("60s"), seconds(60));
  EXPECT_EQ(parse_duration("60"), seconds(60));
  EXPECT_EQ(parse_duration("1.5s"), milliseconds(1500));
  EXPECT_EQ(parse_duration("250ms"), milliseconds(250));
  EXPECT_EQ(parse_duration("10m"), minutes(10));
  EXPECT_EQ(parse_duration("2min"), minutes(2));
  EXPECT_EQ(parse_duration("1h"), minutes(60));
  EXPECT_EQ(parse_duration(" 3 s "), seconds(3));
  for (const char* bad : {"", "s", "0s", "-5s", "5x", "inf", "nan", "1e30h"}) {
    EXPECT_THROW(parse_duration(bad), std::invalid_argument) << '"' << bad << '"';
  }
}

TEST(ParseRate, CountOverPeriod) {
  Rate r = parse_rate("1/30s");
  EXPECT_EQ(r.count, 1);
  EXPECT_EQ(r.period, seconds(30));
  EXPECT_EQ(r.interval(), seconds(30));

  r = parse_rate("2/1m");
  EXPECT_EQ(r.count, 2);
  EXPECT_EQ(r.interval(), seconds(30));

  EXPECT_EQ(parse_rate("10/h").interval(), minutes(6));
  EXPECT_EQ(parse_rate("0.5/s").interval(), seconds(2));
  EXPECT_EQ(parse_rate("4/1").interval(), milliseconds(250));
  for (const char* bad :
       {"", "1", "1/", "/30s", "0/30s", "-1/30s", "x/30s", "1x/30s", "1/0s", "1/30q"}) {
    EXPECT_THROW(parse_rate(bad), std::invalid_argument) << '"' << bad << '"';
  }
}

TEST(SubmissionOffsets, WithinTheDuration) {
  EXPECT_EQ(submission_offsets(parse_rate("1/30s"), seconds(60)),
            (std::vector<nanoseconds>{seconds(0), seconds(30)}));
  EXPECT_EQ(submission_offsets(parse_rate("1/30s"), seconds(61)),
            (std::vector<nanoseconds>{seconds(0), seconds(30), seconds(60)}));
  EXPECT_EQ(submission_offsets(parse_rate("1/1m"), seconds(10)),
            (std::vector<nanoseconds>{seconds(0)}));
  // No drift: the 300th of 3 per second is at exactly 99.667 s.
  const auto many = submission_offsets(parse_rate("3/s"), seconds(100));
  ASSERT_EQ(many.size(), 300u);
  EXPECT_EQ(many.back(), nanoseconds(99'666'666'667));
}

TEST(Percentile, NearestRank) {
  const std::vector<double> v{15, 20, 35, 40, 50};
  EXPECT_EQ(percentile(v, 0), 15);
  EXPECT_EQ(percentile(v, 5), 15);
  EXPECT_EQ(percentile(v, 30), 20);
  EXPECT_EQ(percentile(v, 40), 20);
  EXPECT_EQ(percentile(v, 50), 35);
  EXPECT_EQ(percentile(v, 100), 50);
  EXPECT_EQ(percentile({3, 1, 2}, 50), 2);  // unsorted input
  EXPECT_EQ(percentile({7}, 99), 7);
  EXPECT_THROW(percentile({}, 50), std::invalid_argument);
  EXPECT_THROW(percentile({1}, 101), std::invalid_argument);
  EXPECT_THROW(percentile({1}, -1), std::invalid_argument);
}

TEST(Percentile, Summary) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i)
    v.push_back(i);
  const LatencySummary s = summarize_latencies(v);
  EXPECT_EQ(s.count, 100u);
  EXPECT_EQ(s.p50, 50);
  EXPECT_EQ(s.p90, 90);
  EXPECT_EQ(s.p99, 99);
  EXPECT_EQ(s.max, 100);
  EXPECT_DOUBLE_EQ(s.mean, 50.5);
  EXPECT_EQ(summarize_latencies({}).count, 0u);
}

TEST(Hex, RoundTrip) {
  const std::vector<uint8_t> bytes{0x00, 0x01, 0xab, 0xff};
  EXPECT_EQ(hex_encode(bytes), "0001abff");
  EXPECT_EQ(hex_decode("0001abff"), bytes);
  EXPECT_EQ(hex_decode("0x0001ABFF"), bytes);
  EXPECT_TRUE(hex_decode("").empty());
  EXPECT_THROW(hex_decode("abc"), std::invalid_argument);
  EXPECT_THROW(hex_decode("zz"), std::invalid_argument);
}

TEST(FormatBytes, BinaryUnits) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(2048), "2.00 KiB");
  EXPECT_EQ(format_bytes(1536ull << 20), "1.50 GiB");
  EXPECT_EQ(format_bytes(32ull << 30), "32.00 GiB");
}

TEST(ProofKind, NamesAndSizes) {
  EXPECT_EQ(parse_proof_kind("porep"), ProofKindArg::kPoRep);
  EXPECT_EQ(parse_proof_kind("PoRep-C2"), ProofKindArg::kPoRep);
  EXPECT_EQ(parse_proof_kind("snap"), ProofKindArg::kSnapDeals);
  EXPECT_EQ(parse_proof_kind("wpost"), ProofKindArg::kWindowPoSt);
  EXPECT_EQ(parse_proof_kind("winning"), ProofKindArg::kWinningPoSt);
  EXPECT_THROW(parse_proof_kind("c2"), std::invalid_argument);
  EXPECT_EQ(static_cast<int>(ProofKindArg::kWinningPoSt), 4);  // cuzk.v1 WINNING_POST
  EXPECT_EQ(proof_kind_name(ProofKindArg::kWindowPoSt), "wpost");

  // Filecoin's numbers: seal 2KiB V1_1 = 5, 32GiB V1_1 = 8; Winning 32GiB = 3; Window 32GiB
  // V1_2 = 13; Update 512MiB = 2.
  EXPECT_EQ(registered_proof_sector_size(ProofKindArg::kPoRep, 5), 2048u);
  EXPECT_EQ(registered_proof_sector_size(ProofKindArg::kPoRep, 8), 32ull << 30);
  EXPECT_EQ(registered_proof_sector_size(ProofKindArg::kWinningPoSt, 3), 32ull << 30);
  EXPECT_EQ(registered_proof_sector_size(ProofKindArg::kWindowPoSt, 13), 32ull << 30);
  EXPECT_EQ(registered_proof_sector_size(ProofKindArg::kSnapDeals, 2), 512ull << 20);
  EXPECT_THROW(registered_proof_sector_size(ProofKindArg::kPoRep, 20), std::invalid_argument);
  EXPECT_THROW(registered_proof_sector_size(ProofKindArg::kSnapDeals, 5), std::invalid_argument);
  // A Winning id is not a Window proof, and the other way round.
  EXPECT_THROW(registered_proof_sector_size(ProofKindArg::kWindowPoSt, 3), std::invalid_argument);
  EXPECT_THROW(registered_proof_sector_size(ProofKindArg::kWinningPoSt, 13), std::invalid_argument);
  for (const ProofKindArg k : {ProofKindArg::kPoRep, ProofKindArg::kSnapDeals,
                               ProofKindArg::kWindowPoSt, ProofKindArg::kWinningPoSt}) {
    EXPECT_EQ(registered_proof_sector_size(k, default_registered_proof(k)), 32ull << 30);
  }
}

TEST(VanillaProofs, Base64ArrayOrRaw) {
  EXPECT_EQ(parse_vanilla_proofs(R"(["AAEC", "/w=="])"),
            (std::vector<std::string>{std::string("\x00\x01\x02", 3), "\xff"}));
  EXPECT_TRUE(parse_vanilla_proofs("[]").empty());
  // Not a JSON array: the whole file is one raw proof.
  EXPECT_EQ(parse_vanilla_proofs("\x01\x02not json"),
            (std::vector<std::string>{"\x01\x02not json"}));
  EXPECT_EQ(parse_vanilla_proofs(R"({"a": 1})"), (std::vector<std::string>{R"({"a": 1})"}));
  EXPECT_THROW(parse_vanilla_proofs("[1]"), std::invalid_argument);
  EXPECT_THROW(parse_vanilla_proofs(R"(["not base64!"])"), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::bench
