#include "engine/handlers/porep_handler.hpp"

#include <stdexcept>
#include <string_view>

#include "filecoin/registered_proof.hpp"
#include "porep/parameter_cache.hpp"
#include "porep/porep_partitions.hpp"
#include "porep/public_inputs.hpp"
#include "porep/seal_commit_phase2.hpp"
#include "porep/stacked_circuit.hpp"
#include "porep/vanilla/c1_wrapper.hpp"

namespace cuzk::engine {

namespace {

using filecoin::ApiFeature;
using filecoin::RegisteredSealProof;

bool is_ni(RegisteredSealProof p) {
  const auto& f = filecoin::seal_proof_info(p).feature;
  return f && *f == ApiFeature::kNonInteractivePoRep;
}

std::string circuit_id_of(RegisteredSealProof p) {
  return porep_circuit_id(filecoin::seal_proof_info(p).sector_size, is_ni(p));
}

// The registered proof whose shape a circuit id names (parameter files depend on the shape
// only: V1, V1_1 and synthetic proofs of one size share them).
RegisteredSealProof proof_of_circuit_id(const std::string& id) {
  for (uint32_t i = 0; i < filecoin::kSealProofCount; ++i) {
    const auto p = static_cast<RegisteredSealProof>(i);
    if (filecoin::seal_proof_info(p).api_version == filecoin::ApiVersion::kV1_0_0) continue;
    if (circuit_id_of(p) == id) return p;
  }
  throw std::invalid_argument("unknown circuit id \"" + id +
                              "\" (PoRep ids: porep-2k, porep-8m, porep-512m, porep-32g, "
                              "porep-64g, porep-ni-<size>)");
}

class PorepHandler final : public CircuitHandler {
 public:
  ProofKind kind() const override { return ProofKind::kPorepSealCommit; }

  std::string circuit_id(const ProofRequest& r) const override {
    const RegisteredSealProof p = filecoin::seal_proof_from_id(r.registered_proof);
    const auto& info = filecoin::seal_proof_info(p);
    if (r.sector_size != 0 && r.sector_size != info.sector_size) {
      throw std::invalid_argument("sector_size " + std::to_string(r.sector_size) +
                                  " does not match registered proof " + std::string(info.name) +
                                  " (" + std::to_string(info.sector_size) + " bytes)");
    }
    return circuit_id_of(p);
  }

  std::unique_ptr<PreparedJob> prepare(const ProofRequest& r, ThreadPool& pool) const override {
    if (r.vanilla_proof.empty()) {
      throw std::invalid_argument("vanilla_proof is empty (PoRep needs the C1 output JSON)");
    }
    filecoin::C1Document doc;
    try {
      doc = filecoin::parse_c1_document(std::string_view(
          reinterpret_cast<const char*>(r.vanilla_proof.data()), r.vanilla_proof.size()));
    } catch (const std::exception& e) {
      throw std::invalid_argument(std::string("malformed C1 output: ") + e.what());
    }
    const RegisteredSealProof want = filecoin::seal_proof_from_id(r.registered_proof);
    if (doc.c1.registered_proof != want) {
      throw std::invalid_argument(
          "the request names " + std::string(filecoin::seal_proof_info(want).name) +
          ", the C1 output is " +
          std::string(filecoin::seal_proof_info(doc.c1.registered_proof).name));
    }
    if (doc.sector_num && r.sector_number != 0 && *doc.sector_num != r.sector_number) {
      throw std::invalid_argument("sector_number " + std::to_string(r.sector_number) +
                                  " does not match the C1 wrapper's SectorNum " +
                                  std::to_string(*doc.sector_num));
    }
    porep::PublicParams pp = porep::PublicParams::for_proof(doc.c1.registered_proof);
    try {
      porep::check_c1(doc.c1, pp, &pool);
    } catch (const porep::C1RejectedError& e) {
      throw std::invalid_argument(e.what());
    }
    return porep::make_porep_job(std::move(doc.c1), std::move(pp), r.vanilla_proof.size());
  }

  std::optional<SrsSpec> srs_spec(const std::string& id,
                                  const ParameterSource& source) const override {
    if (id.rfind("porep-", 0) != 0) return std::nullopt;
    const porep::PublicParams pp = porep::PublicParams::for_proof(proof_of_circuit_id(id));
    return srs_spec_of(id, source, porep::parameter_set(pp));
  }

  std::optional<BlankCircuit> blank_circuit(const std::string& id) const override {
    if (id.rfind("porep-", 0) != 0) return std::nullopt;
    const porep::PublicParams pp = porep::PublicParams::for_proof(proof_of_circuit_id(id));
    BlankCircuit out;
    out.circuit = std::make_unique<porep::StackedCircuit>(porep::StackedCircuit::blank(pp));
    // Interactive, synthetic and NI-PoRep partitions of one size share one circuit (and one
    // parameter file), whatever the API version: the versions differ in their challenges only.
    out.identity = {"porep", pp.sector_size(), "any", porep::kStackedCircuitVersion};
    return out;
  }
};

}  // namespace

std::string porep_circuit_id(uint64_t sector_size, bool non_interactive) {
  return circuit_id_of(non_interactive ? "porep-ni" : "porep", sector_size);
}

std::shared_ptr<const CircuitHandler> make_porep_handler() {
  return std::make_shared<PorepHandler>();
}

}  // namespace cuzk::engine
