#include "porep/seal_commit_phase2.hpp"

#include <algorithm>

#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"
#include "porep/vanilla/porep_verify.hpp"
#include "util/text.hpp"

namespace cuzk::porep {

namespace {

bool all_zero(std::span<const uint8_t> b) {
  return std::all_of(b.begin(), b.end(), [](uint8_t x) { return x == 0; });
}

}  // namespace

// seal.rs `seal_commit_phase2_circuit_proofs`'s ensure!s, then the vanilla verifier.
void check_c1(const filecoin::SealCommitPhase1Output& c1, const PublicParams& pp,
              ThreadPool* pool) {
  if (pp.registered && c1.registered_proof != *pp.registered) {
    throw std::invalid_argument(
        "porep c2: the C1 is " + std::string(filecoin::seal_proof_info(c1.registered_proof).name) +
        ", the parameters are for " + std::string(filecoin::seal_proof_info(*pp.registered).name));
  }
  if (all_zero(c1.comm_d)) throw C1RejectedError("Invalid all zero commitment (comm_d)");
  if (all_zero(c1.comm_r)) throw C1RejectedError("Invalid all zero commitment (comm_r)");
  // Upstream requires a seed for every variant, NI included (it does not derive from it there).
  if (all_zero(c1.seed)) throw C1RejectedError("Invalid porep challenge seed (all zero)");
  if (!filecoin::is_canonical_fr(c1.comm_r)) {
    throw C1RejectedError("comm_r is not a field element (as_safe_commitment)");
  }
  if (c1.vanilla_proofs.empty() ||
      std::any_of(c1.vanilla_proofs.begin(), c1.vanilla_proofs.end(),
                  [](const auto& partition) { return partition.empty(); })) {
    throw C1RejectedError("C1 output contains no vanilla proofs");
  }
  try {
    filecoin::PorepVerifyOptions o;
    o.pool = pool;
    filecoin::verify_seal_commit_phase1(c1, porep_config_of(pp), o);
  } catch (const filecoin::PorepVerifyError& e) {
    throw C1RejectedError(e.what());
  } catch (const std::invalid_argument& e) {  // malformed beyond what the checks name
    throw C1RejectedError(e.what());
  }
}

filecoin::PorepConfig porep_config_of(const PublicParams& pp) {
  filecoin::PorepConfig c;
  c.sector_size = pp.sector_size();
  c.porep_id = pp.porep_id;
  c.api_version = pp.api_version;
  c.feature = pp.feature;
  c.registered = pp.registered;
  return c;
}

bool verify_seal_proof(const PublicParams& pp, const groth16::VerifyingKey& vk,
                       const PorepPublicInputs& inputs, std::span<const uint8_t> proof_bytes,
                       std::vector<bool>* per_partition) {
  const size_t want = size_t{pp.partitions} * groth16::kProofBytes;
  if (proof_bytes.size() != want) {
    throw std::invalid_argument("porep verify: " + std::to_string(proof_bytes.size()) +
                                " proof bytes, " + binary_size_name(pp.sector_size()) + " needs " +
                                std::to_string(pp.partitions) + " x 192 = " + std::to_string(want));
  }
  const auto proofs = groth16::decode_proofs(proof_bytes);
  if (!proofs) throw std::invalid_argument("porep verify: " + proofs.error().message());
  if (vk.ic.size() != 1 + public_input_count(pp)) {
    throw std::invalid_argument("porep verify: the verifying key has " +
                                std::to_string(vk.ic.size()) + " IC points, the circuit has " +
                                std::to_string(1 + public_input_count(pp)) + " inputs");
  }
  const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(vk);
  const filecoin::StackedGraph graph = pp.graph();
  bool all = true;
  if (per_partition != nullptr) per_partition->clear();
  for (unsigned k = 0; k < pp.partitions; ++k) {
    const bool ok = groth16::verify_proof(pvk, (*proofs)[k], public_inputs(pp, inputs, k, &graph));
    all = all && ok;
    if (per_partition != nullptr) per_partition->push_back(ok);
  }
  return all;
}

}  // namespace cuzk::porep
