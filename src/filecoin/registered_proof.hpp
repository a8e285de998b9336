// Registered proof types and what they fix: sector size, API version, features, and the 32-byte
// porep_id that seeds the SDR graph and the replica_id (facts sheet 1).
//
// Sources: rust-filecoin-proofs-api src/registry.rs (ids, names, `porep_id()`, api versions),
// rust-fil-proofs storage-proofs-core/src/api_version.rs (ApiVersion, ApiFeature), go-state-types
// abi/sector.go (same ids; the Go names of Window PoSt V1_2 end in V1_1).
//
// porep_id = u64_le(registered seal proof id) || u64_le(nonce = 0) || 16 zero bytes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::filecoin {

using PorepId = std::array<uint8_t, 32>;

enum class ApiVersion : uint8_t { kV1_0_0, kV1_1_0, kV1_2_0 };
// "V1_0_0" (the serde names used in JSON) and back; throws std::invalid_argument on other text.
std::string_view api_version_name(ApiVersion v);
ApiVersion api_version_from_name(std::string_view name);

enum class ApiFeature : uint8_t { kSyntheticPoRep, kNonInteractivePoRep };
// "SyntheticPoRep" / "NonInteractivePoRep" (serde names, as in the regression records).
std::string_view api_feature_name(ApiFeature f);
ApiFeature api_feature_from_name(std::string_view name);

// RegisteredSealProof: ids 0..19 (on-chain numbers).
enum class RegisteredSealProof : uint32_t {
  kStackedDrg2KiBV1 = 0,
  kStackedDrg8MiBV1 = 1,
  kStackedDrg512MiBV1 = 2,
  kStackedDrg32GiBV1 = 3,
  kStackedDrg64GiBV1 = 4,
  kStackedDrg2KiBV1_1 = 5,
  kStackedDrg8MiBV1_1 = 6,
  kStackedDrg512MiBV1_1 = 7,
  kStackedDrg32GiBV1_1 = 8,
  kStackedDrg64GiBV1_1 = 9,
  kStackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10,
  kStackedDrg8MiBV1_1_Feat_SyntheticPoRep = 11,
  kStackedDrg512MiBV1_1_Feat_SyntheticPoRep = 12,
  kStackedDrg32GiBV1_1_Feat_SyntheticPoRep = 13,
  kStackedDrg64GiBV1_1_Feat_SyntheticPoRep = 14,
  kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15,
  kStackedDrg8MiBV1_2_Feat_NonInteractivePoRep = 16,
  kStackedDrg512MiBV1_2_Feat_NonInteractivePoRep = 17,
  kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep = 18,
  kStackedDrg64GiBV1_2_Feat_NonInteractivePoRep = 19,
};
inline constexpr uint32_t kSealProofCount = 20;

struct SealProofInfo {
  std::string_view name;  // Rust enum name, e.g. "StackedDrg32GiBV1_1"
  uint64_t sector_size;
  ApiVersion api_version;  // Synthetic ids are 1.2.0 although named V1_1
  std::optional<ApiFeature> feature;
};
const SealProofInfo& seal_proof_info(RegisteredSealProof p);
// Throws std::invalid_argument for ids >= 20 or unknown names.
RegisteredSealProof seal_proof_from_id(uint64_t id);
RegisteredSealProof seal_proof_from_name(std::string_view name);

// porep_id of a registered seal proof (nonce 0), and the general rule.
PorepId porep_id(RegisteredSealProof p);
PorepId porep_id(uint64_t registered_id, uint64_t nonce);

// RegisteredPoStProof: 0..4 Winning V1, 5..9 Window V1 (API 1.0.0), 10..14 Window V1_2 (1.2.0).
enum class PoStKind : uint8_t { kWinning, kWindow };
struct PoStProofInfo {
  std::string_view name;  // Rust name, e.g. "StackedDrgWindow32GiBV1_2"
  uint64_t sector_size;
  PoStKind kind;
  ApiVersion api_version;
};
inline constexpr uint32_t kPoStProofCount = 15;
// Throws std::invalid_argument for ids >= 15.
const PoStProofInfo& post_proof_info(uint32_t registered_post_proof_id);

// RegisteredUpdateProof (SnapDeals): 0..4 StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, API 1.1.0.
// Its porep_id (same rule, from these ids) is not used by the update circuits.
struct UpdateProofInfo {
  std::string_view name;  // Rust name, e.g. "StackedDrg32GiBV1"
  uint64_t sector_size;
  ApiVersion api_version;
};
inline constexpr uint32_t kUpdateProofCount = 5;
// Throws std::invalid_argument for ids >= 5.
const UpdateProofInfo& update_proof_info(uint64_t registered_update_proof_id);
// The update proof of a sector size; std::invalid_argument for sizes without one.
uint32_t update_proof_for_sector_size(uint64_t sector_size);

}  // namespace cuzk::filecoin
