#include "porep/vanilla/porep_config.hpp"

#include <stdexcept>

namespace cuzk::filecoin {

namespace {

struct Variant {
  uint64_t sector_size;
  const char* name;
};
constexpr Variant kVariants[] = {
    {uint64_t{2} << 10, "StackedDrg2KiBV1"},     {uint64_t{8} << 20, "StackedDrg8MiBV1"},
    {uint64_t{512} << 20, "StackedDrg512MiBV1"}, {uint64_t{32} << 30, "StackedDrg32GiBV1"},
    {uint64_t{64} << 30, "StackedDrg64GiBV1"},
};

}  // namespace

PorepConfig porep_config(RegisteredSealProof proof) {
  const SealProofInfo& info = seal_proof_info(proof);
  PorepConfig c;
  c.sector_size = info.sector_size;
  c.porep_id = porep_id(proof);
  c.api_version = info.api_version;
  c.feature = info.feature;
  c.registered = proof;
  return c;
}

RegisteredSealProof seal_proof_for(uint64_t sector_size, std::optional<ApiFeature> feature) {
  for (uint32_t id = 0; id < kSealProofCount; ++id) {
    const RegisteredSealProof p = seal_proof_from_id(id);
    const SealProofInfo& info = seal_proof_info(p);
    if (info.sector_size != sector_size || info.feature != feature) continue;
    if (!feature && info.api_version == ApiVersion::kV1_0_0) continue;  // prefer V1_1
    return p;
  }
  throw std::invalid_argument("no registered seal proof for sector size " +
                              std::to_string(sector_size));
}

std::string vanilla_seal_proof_variant(uint64_t sector_size) {
  for (const Variant& v : kVariants)
    if (v.sector_size == sector_size) return v.name;
  throw std::invalid_argument("no VanillaSealProof variant for sector size " +
                              std::to_string(sector_size));
}

uint64_t sector_size_of_vanilla_variant(const std::string& name) {
  for (const Variant& v : kVariants)
    if (name == v.name) return v.sector_size;
  throw std::invalid_argument("unknown VanillaSealProof variant \"" + name + "\"");
}

}  // namespace cuzk::filecoin
