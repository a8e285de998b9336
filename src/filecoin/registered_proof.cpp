#include "filecoin/registered_proof.hpp"

#include <stdexcept>

namespace cuzk::filecoin {

namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;
constexpr uint64_t kSizes[5] = {2 * kKiB, 8 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};

using enum ApiVersion;
constexpr auto kSyn = ApiFeature::kSyntheticPoRep;
constexpr auto kNi = ApiFeature::kNonInteractivePoRep;

// api src/registry.rs: order, names and versions.
const SealProofInfo kSealProofs[kSealProofCount] = {
    {"StackedDrg2KiBV1", kSizes[0], kV1_0_0, std::nullopt},
    {"StackedDrg8MiBV1", kSizes[1], kV1_0_0, std::nullopt},
    {"StackedDrg512MiBV1", kSizes[2], kV1_0_0, std::nullopt},
    {"StackedDrg32GiBV1", kSizes[3], kV1_0_0, std::nullopt},
    {"StackedDrg64GiBV1", kSizes[4], kV1_0_0, std::nullopt},
    {"StackedDrg2KiBV1_1", kSizes[0], kV1_1_0, std::nullopt},
    {"StackedDrg8MiBV1_1", kSizes[1], kV1_1_0, std::nullopt},
    {"StackedDrg512MiBV1_1", kSizes[2], kV1_1_0, std::nullopt},
    {"StackedDrg32GiBV1_1", kSizes[3], kV1_1_0, std::nullopt},
    {"StackedDrg64GiBV1_1", kSizes[4], kV1_1_0, std::nullopt},
    {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", kSizes[0], kV1_2_0, kSyn},
    {"StackedDrg8MiBV1_1_Feat_SyntheticPoRep", kSizes[1], kV1_2_0, kSyn},
    {"StackedDrg512MiBV1_1_Feat_SyntheticPoRep", kSizes[2], kV1_2_0, kSyn},
    {"StackedDrg32GiBV1_1_Feat_SyntheticPoRep", kSizes[3], kV1_2_0, kSyn},
    {"StackedDrg64GiBV1_1_Feat_SyntheticPoRep", kSizes[4], kV1_2_0, kSyn},
    {"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", kSizes[0], kV1_2_0, kNi},
    {"StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", kSizes[1], kV1_2_0, kNi},
    {"StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", kSizes[2], kV1_2_0, kNi},
    {"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", kSizes[3], kV1_2_0, kNi},
    {"StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", kSizes[4], kV1_2_0, kNi},
};

const PoStProofInfo kPoStProofs[kPoStProofCount] = {
    {"StackedDrgWinning2KiBV1", kSizes[0], PoStKind::kWinning, kV1_0_0},
    {"StackedDrgWinning8MiBV1", kSizes[1], PoStKind::kWinning, kV1_0_0},
    {"StackedDrgWinning512MiBV1", kSizes[2], PoStKind::kWinning, kV1_0_0},
    {"StackedDrgWinning32GiBV1", kSizes[3], PoStKind::kWinning, kV1_0_0},
    {"StackedDrgWinning64GiBV1", kSizes[4], PoStKind::kWinning, kV1_0_0},
    {"StackedDrgWindow2KiBV1", kSizes[0], PoStKind::kWindow, kV1_0_0},
    {"StackedDrgWindow8MiBV1", kSizes[1], PoStKind::kWindow, kV1_0_0},
    {"StackedDrgWindow512MiBV1", kSizes[2], PoStKind::kWindow, kV1_0_0},
    {"StackedDrgWindow32GiBV1", kSizes[3], PoStKind::kWindow, kV1_0_0},
    {"StackedDrgWindow64GiBV1", kSizes[4], PoStKind::kWindow, kV1_0_0},
    {"StackedDrgWindow2KiBV1_2", kSizes[0], PoStKind::kWindow, kV1_2_0},
    {"StackedDrgWindow8MiBV1_2", kSizes[1], PoStKind::kWindow, kV1_2_0},
    {"StackedDrgWindow512MiBV1_2", kSizes[2], PoStKind::kWindow, kV1_2_0},
    {"StackedDrgWindow32GiBV1_2", kSizes[3], PoStKind::kWindow, kV1_2_0},
    {"StackedDrgWindow64GiBV1_2", kSizes[4], PoStKind::kWindow, kV1_2_0},
};

}  // namespace

std::string_view api_version_name(ApiVersion v) {
  switch (v) {
    case kV1_0_0:
      return "V1_0_0";
    case kV1_1_0:
      return "V1_1_0";
    case kV1_2_0:
      return "V1_2_0";
  }
  throw std::invalid_argument("api_version_name: unknown version");
}

ApiVersion api_version_from_name(std::string_view name) {
  for (ApiVersion v : {kV1_0_0, kV1_1_0, kV1_2_0})
    if (api_version_name(v) == name) return v;
  throw std::invalid_argument("unknown API version \"" + std::string(name) + "\"");
}

std::string_view api_feature_name(ApiFeature f) {
  return f == kSyn ? "SyntheticPoRep" : "NonInteractivePoRep";
}

ApiFeature api_feature_from_name(std::string_view name) {
  if (name == "SyntheticPoRep") return kSyn;
  if (name == "NonInteractivePoRep") return kNi;
  throw std::invalid_argument("unknown API feature \"" + std::string(name) + "\"");
}

const SealProofInfo& seal_proof_info(RegisteredSealProof p) {
  return kSealProofs[static_cast<uint32_t>(seal_proof_from_id(static_cast<uint32_t>(p)))];
}

RegisteredSealProof seal_proof_from_id(uint64_t id) {
  if (id >= kSealProofCount) {
    throw std::invalid_argument("unknown registered seal proof id " + std::to_string(id));
  }
  return static_cast<RegisteredSealProof>(id);
}

RegisteredSealProof seal_proof_from_name(std::string_view name) {
  for (uint32_t i = 0; i < kSealProofCount; ++i)
    if (kSealProofs[i].name == name) return static_cast<RegisteredSealProof>(i);
  throw std::invalid_argument("unknown registered seal proof \"" + std::string(name) + "\"");
}

PorepId porep_id(uint64_t registered_id, uint64_t nonce) {
  PorepId id{};
  for (int i = 0; i < 8; ++i) {
    id[i] = static_cast<uint8_t>(registered_id >> (8 * i));
    id[8 + i] = static_cast<uint8_t>(nonce >> (8 * i));
  }
  return id;
}

PorepId porep_id(RegisteredSealProof p) {
  return porep_id(static_cast<uint32_t>(seal_proof_from_id(static_cast<uint32_t>(p))), 0);
}

const PoStProofInfo& post_proof_info(uint32_t id) {
  if (id >= kPoStProofCount) {
    throw std::invalid_argument("unknown registered PoSt proof id " + std::to_string(id));
  }
  return kPoStProofs[id];
}

namespace {

// api src/registry.rs RegisteredUpdateProof.
const UpdateProofInfo kUpdateProofs[kUpdateProofCount] = {
    {"StackedDrg2KiBV1", kSizes[0], kV1_1_0},   {"StackedDrg8MiBV1", kSizes[1], kV1_1_0},
    {"StackedDrg512MiBV1", kSizes[2], kV1_1_0}, {"StackedDrg32GiBV1", kSizes[3], kV1_1_0},
    {"StackedDrg64GiBV1", kSizes[4], kV1_1_0},
};

}  // namespace

const UpdateProofInfo& update_proof_info(uint64_t id) {
  if (id >= kUpdateProofCount) {
    throw std::invalid_argument("unknown registered update proof id " + std::to_string(id) +
                                " (SnapDeals ids are 0-4)");
  }
  return kUpdateProofs[id];
}

uint32_t update_proof_for_sector_size(uint64_t sector_size) {
  for (uint32_t id = 0; id < kUpdateProofCount; ++id)
    if (kUpdateProofs[id].sector_size == sector_size) return id;
  throw std::invalid_argument("no registered update proof for sector size " +
                              std::to_string(sector_size));
}

}  // namespace cuzk::filecoin
