#include "engine/handlers/update_handler.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

#include "filecoin/registered_proof.hpp"
#include "update/parameter_cache.hpp"
#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"
#include "update/update_proof.hpp"
#include "update/vanilla/update_proof.hpp"

namespace cuzk::engine {

namespace {

using filecoin::UpdateParams;

constexpr std::string_view kKind = "snap";
constexpr std::string_view kPrefix = "snap-";

// The registered update proof a circuit id names (std::invalid_argument for others).
uint32_t proof_of_circuit_id(const std::string& id) {
  for (uint32_t p = 0; p < filecoin::kUpdateProofCount; ++p)
    if (update_circuit_id(filecoin::update_proof_info(p).sector_size) == id) return p;
  throw std::invalid_argument(
      "unknown circuit id \"" + id +
      "\" (SnapDeals ids: snap-2k, snap-8m, snap-512m, snap-32g, snap-64g)");
}

UpdateParams params_of(uint32_t proof) {
  return UpdateParams::for_sector_size(filecoin::update_proof_info(proof).sector_size);
}

filecoin::Domain commitment(const std::vector<uint8_t>& bytes, const char* name) {
  if (bytes.size() != filecoin::kNodeSize) {
    throw std::invalid_argument(std::string(name) + " is " + std::to_string(bytes.size()) +
                                " bytes (a raw 32-byte commitment is expected, not a CID)");
  }
  return filecoin::domain_from_bytes(bytes);
}

// A decoded proof whose shape is another sector size's is named as such (the verifier would only
// say which check failed).
void check_shape(const UpdateParams& pp, const filecoin::UpdatePartitionProof& p, unsigned k,
                 std::string_view proof_name) {
  const auto mismatch = [&](const std::string& what) {
    throw std::invalid_argument("vanilla_proofs[" + std::to_string(k) + "] is not a " +
                                std::string(proof_name) + " partition proof (" + what +
                                "): a vanilla proof of another sector size?");
  };
  if (p.apex_leafs.size() != pp.apex_leaf_count) {
    mismatch(std::to_string(p.apex_leafs.size()) + " apex leafs, want " +
             std::to_string(pp.apex_leaf_count));
  }
  if (p.challenge_proofs.size() != pp.challenge_count) {
    mismatch(std::to_string(p.challenge_proofs.size()) + " challenge proofs, want " +
             std::to_string(pp.challenge_count));
  }
  const size_t d_levels = p.challenge_proofs[0].proof_d_new.path_length();
  if (d_levels != pp.challenge_bit_len) {
    mismatch("tree_d paths of " + std::to_string(d_levels) + " levels, want " +
             std::to_string(pp.challenge_bit_len));
  }
}

class UpdateHandler final : public CircuitHandler {
 public:
  ProofKind kind() const override { return ProofKind::kSnapDealsUpdate; }

  std::string circuit_id(const ProofRequest& r) const override {
    const filecoin::UpdateProofInfo& info = filecoin::update_proof_info(r.registered_proof);
    if (r.sector_size != 0 && r.sector_size != info.sector_size) {
      throw std::invalid_argument("sector_size " + std::to_string(r.sector_size) +
                                  " does not match registered update proof " +
                                  std::string(info.name) + " (" + std::to_string(info.sector_size) +
                                  " bytes)");
    }
    return update_circuit_id(info.sector_size);
  }

  std::unique_ptr<PreparedJob> prepare(const ProofRequest& r, ThreadPool& pool) const override {
    const uint32_t proof = static_cast<uint32_t>(r.registered_proof);
    const std::string_view name = filecoin::update_proof_info(proof).name;
    const UpdateParams pp = params_of(proof);
    filecoin::UpdatePublicInputs in;
    in.comm_r_old = commitment(r.comm_r_old, "comm_r_old");
    in.comm_r_new = commitment(r.comm_r_new, "comm_r_new");
    in.comm_d_new = commitment(r.comm_d_new, "comm_d_new");
    in.h = pp.h_default();
    if (r.vanilla_proofs.size() != pp.partition_count) {
      throw std::invalid_argument(std::to_string(r.vanilla_proofs.size()) + " vanilla_proofs, a " +
                                  std::string(name) + " update has " +
                                  std::to_string(pp.partition_count) +
                                  " partitions (one bincode PartitionProof each)");
    }
    std::vector<filecoin::UpdatePartitionProof> proofs;
    uint64_t bytes = 0;
    for (unsigned k = 0; k < r.vanilla_proofs.size(); ++k) {
      try {
        proofs.push_back(filecoin::decode_update_partition_proof(r.vanilla_proofs[k]));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("vanilla_proofs[" + std::to_string(k) +
                                    "] is not a bincode PartitionProof: " + e.what());
      }
      check_shape(pp, proofs.back(), k, name);
      bytes += r.vanilla_proofs[k].size();
    }
    try {
      update::check_update_vanilla(pp, in, proofs, &pool);
    } catch (const update::VanillaRejectedError& e) {
      throw std::invalid_argument(e.what());
    }
    return make_update_job(pp, in, std::move(proofs), bytes);
  }

  std::optional<SrsSpec> srs_spec(const std::string& id,
                                  const ParameterSource& source) const override {
    if (id.rfind(kPrefix, 0) != 0) return std::nullopt;
    const UpdateParams pp = params_of(proof_of_circuit_id(id));
    return srs_spec_of(id, source, update::parameter_set(pp));
  }

  std::optional<BlankCircuit> blank_circuit(const std::string& id) const override {
    if (id.rfind(kPrefix, 0) != 0) return std::nullopt;
    const UpdateParams pp = params_of(proof_of_circuit_id(id));
    BlankCircuit out;
    out.circuit = std::make_unique<update::EmptySectorUpdateCircuit>(
        update::EmptySectorUpdateCircuit::blank(pp));
    out.identity = {"snap", pp.sector_size(), "any", update::kEmptySectorUpdateCircuitVersion};
    return out;
  }
};

}  // namespace

// "snap-2k", "snap-8m", "snap-32g" (cuzk.v1 SRSStatus circuit ids).
std::string update_circuit_id(uint64_t sector_size) {
  return circuit_id_of(kKind, sector_size);
}

std::shared_ptr<const CircuitHandler> make_update_handler() {
  return std::make_shared<UpdateHandler>();
}

}  // namespace cuzk::engine
