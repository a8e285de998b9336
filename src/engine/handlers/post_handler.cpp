#include "engine/handlers/post_handler.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "post/fallback_circuit.hpp"
#include "post/parameter_cache.hpp"
#include "post/public_inputs.hpp"
#include "post/vanilla/post_request.hpp"

namespace cuzk::engine {

namespace {

using filecoin::PoStKind;

std::string_view kind_name(PoStKind kind) {
  return kind == PoStKind::kWinning ? "winning" : "wpost";
}

class PoStHandler final : public CircuitHandler {
 public:
  explicit PoStHandler(PoStKind kind) : kind_(kind) {}

  ProofKind kind() const override {
    return kind_ == PoStKind::kWinning ? ProofKind::kWinningPost : ProofKind::kWindowPostPartition;
  }

  std::string circuit_id(const ProofRequest& r) const override {
    const filecoin::PoStConfig c =
        filecoin::post_request_config(kind_, r.registered_proof, r.sector_size);
    return post_circuit_id(kind_, c.sector_size);
  }

  // A Window request with more sectors than one partition holds is proved as consecutive
  // partitions from partition_index, sector_count sectors each (the last may be short), its
  // proof their proofs concatenated: filecoin-proofs' generate_window_post_with_vanilla over
  // those partitions. Curio sends one partition per request, the Rust daemon takes no more.
  std::unique_ptr<PreparedJob> prepare(const ProofRequest& r, ThreadPool& pool) const override {
    filecoin::PoStRequest req;
    req.kind = kind_;
    req.registered_proof = r.registered_proof;
    req.sector_size = r.sector_size;
    req.randomness = r.randomness;
    req.miner_id = r.miner_id;
    const std::span<const std::vector<uint8_t>> all(r.vanilla_proofs);
    size_t per_partition = all.size();
    if (kind_ == PoStKind::kWindow && !all.empty()) {
      per_partition =
          filecoin::post_request_config(kind_, r.registered_proof, r.sector_size).sector_count;
    }
    std::vector<filecoin::PoStJob> parts;
    size_t first = 0;
    do {  // once for an empty request: decode_post_request names the problem
      const size_t n = std::min(per_partition, all.size() - first);
      req.vanilla_proofs = all.subspan(first, n);
      req.partition_index = static_cast<uint32_t>(
          std::min<uint64_t>(uint64_t{r.partition_index} + parts.size(), UINT32_MAX));
      try {
        parts.push_back(filecoin::decode_post_request(req, &pool));
      } catch (const filecoin::PoStRequestError& e) {
        if (parts.empty() && first + n == all.size()) throw;  // one partition: as it was
        throw filecoin::PoStRequestError("sectors " + std::to_string(first) + "-" +
                                         std::to_string(first + n - 1) + " (partition " +
                                         std::to_string(req.partition_index) + "): " + e.what());
      }
      first += n;
    } while (first < all.size());
    return post::make_post_job(std::move(parts));
  }

  std::optional<SrsSpec> srs_spec(const std::string& id,
                                  const ParameterSource& source) const override {
    const auto pp = params_of(id);
    if (!pp) return std::nullopt;
    return srs_spec_of(id, source, post::parameter_set(*pp));
  }

  std::optional<BlankCircuit> blank_circuit(const std::string& id) const override {
    const auto pp = params_of(id);
    if (!pp) return std::nullopt;
    BlankCircuit out;
    out.circuit =
        std::make_unique<post::FallbackPoStCircuit>(post::FallbackPoStCircuit::blank(*pp));
    // Window V1 and V1_2 differ in their challenges only: one circuit, "any" API version.
    out.identity = {kind_ == PoStKind::kWinning ? "winning-post" : "window-post", pp->sector_size,
                    "any", post::kFallbackPoStCircuitVersion};
    return out;
  }

 private:
  // nullopt for another handler's id; std::invalid_argument for an id with this prefix and an
  // unknown size.
  std::optional<filecoin::FallbackPoStParams> params_of(const std::string& id) const {
    const std::string prefix = std::string(kind_name(kind_)) + "-";
    if (id.rfind(prefix, 0) != 0) return std::nullopt;
    for (uint32_t p = 0; p < filecoin::kPoStProofCount; ++p) {
      const filecoin::PoStProofInfo& info = filecoin::post_proof_info(p);
      if (info.kind == kind_ && post_circuit_id(kind_, info.sector_size) == id) {
        return filecoin::fallback_post_params(filecoin::post_config(kind_, info.sector_size));
      }
    }
    throw std::invalid_argument("unknown circuit id \"" + id + "\" (" + prefix +
                                "2k, 8m, 512m, 32g or 64g)");
  }

  PoStKind kind_;
};

}  // namespace

std::string post_circuit_id(PoStKind kind, uint64_t sector_size) {
  return circuit_id_of(kind_name(kind), sector_size);
}

std::shared_ptr<const CircuitHandler> make_winning_post_handler() {
  return std::make_shared<PoStHandler>(PoStKind::kWinning);
}

std::shared_ptr<const CircuitHandler> make_window_post_handler() {
  return std::make_shared<PoStHandler>(PoStKind::kWindow);
}

}  // namespace cuzk::engine
