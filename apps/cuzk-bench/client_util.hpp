// Pure helpers of the cuzk-bench daemon client (no gRPC here, so the unit tests need no socket):
// daemon addresses, submission rates and durations, latency percentiles, hex, the PoSt/SnapDeals
// vanilla proof files and the sector size of a registered proof id.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::bench {

// The gRPC target of a daemon address: "unix:///abs/path" and "unix:rel/path" as they are
// ("unix:/abs" becomes "unix:///abs"), a bare socket path ("/run/cuzk.sock", "./cuzk.sock") as
// unix, "host:port" and "[v6]:port" as they are ("http://" and "tcp://" prefixes and a trailing
// "/" dropped), and gRPC's own schemes (dns:, ipv4:, ipv6:, unix-abstract:) untouched. Throws
// std::invalid_argument for an empty address, a missing or bad port, "https://" (TLS is
// asked for with --tls-ca, not by a scheme) and "unix://host/path".
std::string normalize_address(std::string_view address);

// A span of time: a number (decimals allowed) and a unit ms, s, m (or min), h; a bare number is
// seconds. Throws std::invalid_argument unless it is positive and finite.
std::chrono::nanoseconds parse_duration(std::string_view text);

// "COUNT/PERIOD": COUNT submissions per PERIOD, e.g. "1/30s", "2/1m", "10/h", "0.5/s" (the
// period's number defaults to 1).
struct Rate {
  double count = 1;
  std::chrono::nanoseconds period{std::chrono::seconds(1)};
  // Time between two submissions.
  std::chrono::nanoseconds interval() const;
};
Rate parse_rate(std::string_view text);

// When each submission of a rate falls within `duration` from the start: 0, interval, 2 x
// interval, ... while below `duration` (so "1/30s" for 60s submits at 0 s and 30 s).
std::vector<std::chrono::nanoseconds> submission_offsets(const Rate& rate,
                                                         std::chrono::nanoseconds duration);

// Nearest-rank percentile (p in [0, 100]) of unsorted values: the smallest value that at least p%
// of the values do not exceed. Throws std::invalid_argument on no values or p out of range.
double percentile(std::vector<double> values, double p);

struct LatencySummary {
  size_t count = 0;
  double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
};
// All zero for no values.
LatencySummary summarize_latencies(const std::vector<double>& values);

std::string hex_encode(std::span<const uint8_t> bytes);
// Two digits a byte, either case, an optional "0x". Throws std::invalid_argument otherwise.
std::vector<uint8_t> hex_decode(std::string_view text);

// "1.50 GiB", "512.00 MiB", "2048 B": binary units, two decimals from KiB up.
std::string format_bytes(uint64_t bytes);

// The proof kinds of the API; values are the cuzk.v1 ProofKind numbers.
enum class ProofKindArg : int { kPoRep = 1, kSnapDeals = 2, kWindowPoSt = 3, kWinningPoSt = 4 };
// porep (porep-c2, seal-commit), snap (snap-deals, update), wpost (window-post), winning
// (winning-post), any case. Throws std::invalid_argument otherwise.
ProofKindArg parse_proof_kind(std::string_view name);
std::string_view proof_kind_name(ProofKindArg kind);  // "porep", "snap", "wpost", "winning"

// The registered proof id a kind gets when none is given: the 32 GiB one (PoRep's comes from its
// C1 instead): Winning StackedDrgWinning32GiBV1 = 3, Window StackedDrgWindow32GiBV1_2 = 13,
// Update StackedDrg32GiBV1 = 3.
uint64_t default_registered_proof(ProofKindArg kind);
// Sector size of a registered proof id of a kind (RegisteredSealProof 0..19, RegisteredPoStProof
// 0..14, RegisteredUpdateProof 0..4 — Filecoin's numbers). Throws std::invalid_argument for an
// unknown id.
uint64_t registered_proof_sector_size(ProofKindArg kind, uint64_t registered_proof);

// A PoSt / SnapDeals vanilla proof file as the Rust cuzk-bench reads one: a JSON array of
// standard-base64 strings (Go's json.Marshal of [][]byte), one proof each; any other content is
// one raw proof. Throws std::invalid_argument on a JSON array with a non-string or bad base64.
std::vector<std::string> parse_vanilla_proofs(std::string_view file_bytes);

}  // namespace cuzk::bench
