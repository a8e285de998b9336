#include "engine/porep_handler.hpp"

#include <iterator>
#include <stdexcept>
#include <string_view>

#include "engine/post_handler.hpp"
#include "engine/update_handler.hpp"
#include "filecoin/registered_proof.hpp"
#include "porep/parameter_cache.hpp"
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
  const auto& info = filecoin::seal_proof_info(p);
  return std::string(is_ni(p) ? "porep-ni-" : "porep-") + sector_size_suffix(info.sector_size);
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

class PorepJob final : public PreparedJob {
 public:
  PorepJob(filecoin::SealCommitPhase1Output c1, porep::PublicParams pp, uint64_t payload_bytes)
      : c1_(std::move(c1)),
        pp_(std::move(pp)),
        graph_(pp_.graph()),
        inputs_(porep::PorepPublicInputs::from_c1(c1_)),
        payload_bytes_(payload_bytes) {}

  unsigned partitions() const override { return pp_.partitions; }
  // The parsed C1 is about as large as its JSON; the graph's Feistel table is small.
  uint64_t resident_bytes() const override { return payload_bytes_; }

  PartitionCircuit partition(unsigned k) const override {
    return timed_partition([&] { return porep::public_inputs(pp_, inputs_, k, &graph_); },
                           [&] {
                             return std::make_unique<porep::StackedCircuit>(
                                 porep::StackedCircuit::from_c1(c1_, pp_, k));
                           });
  }

 private:
  filecoin::SealCommitPhase1Output c1_;
  porep::PublicParams pp_;
  filecoin::StackedGraph graph_;
  porep::PorepPublicInputs inputs_;
  uint64_t payload_bytes_;
};

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
    return make_porep_job(std::move(doc.c1), std::move(pp), r.vanilla_proof.size());
  }

  std::optional<SrsSpec> srs_spec(const std::string& id,
                                  const ParameterSource& source) const override {
    if (id.rfind("porep-", 0) != 0) return std::nullopt;
    const porep::PublicParams pp = porep::PublicParams::for_proof(proof_of_circuit_id(id));
    SrsSpec spec;
    spec.circuit_id = id;
    spec.file = porep::parameter_files(source.dir, pp).params;
    spec.load = [source, pp](ThreadPool& pool) {
      return porep::read_parameter_file(source.dir, pp, source.checks, pool);
    };
    return spec;
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

std::unique_ptr<PreparedJob> make_porep_job(filecoin::SealCommitPhase1Output c1,
                                            porep::PublicParams pp, uint64_t payload_bytes) {
  return std::make_unique<PorepJob>(std::move(c1), std::move(pp), payload_bytes);
}

std::shared_ptr<const CircuitHandler> make_porep_handler() {
  return std::make_shared<PorepHandler>();
}

std::vector<std::shared_ptr<const CircuitHandler>> default_handlers() {
  return {make_porep_handler(), make_window_post_handler(), make_winning_post_handler(),
          make_update_handler()};
}

std::string sector_size_suffix(uint64_t bytes) {
  if (bytes == 0 || (bytes & (bytes - 1)) != 0 || bytes < 1024)
    throw std::invalid_argument("sector size " + std::to_string(bytes) + " is not a power of two");
  const char* units[] = {"k", "m", "g", "t"};
  uint64_t v = bytes / 1024;
  size_t u = 0;
  while (v >= 1024 && v % 1024 == 0 && u + 1 < std::size(units)) {
    v /= 1024;
    ++u;
  }
  return std::to_string(v) + units[u];
}

uint64_t sector_size_of_circuit_id(std::string_view circuit_id) {
  const size_t dash = circuit_id.rfind('-');
  const std::string_view s = dash == std::string_view::npos ? "" : circuit_id.substr(dash + 1);
  const size_t digits = s.find_first_not_of("0123456789");
  if (s.empty() || digits == 0 || digits == std::string_view::npos || digits + 1 != s.size() ||
      digits > 6) {
    return 0;
  }
  const std::string_view units = "kmgt";
  const size_t u = units.find(s.back());
  if (u == std::string_view::npos) return 0;
  return std::stoull(std::string(s.substr(0, digits))) << (10 * (u + 1));
}

BlankCircuit find_blank_circuit(const std::vector<std::shared_ptr<const CircuitHandler>>& handlers,
                                const std::string& circuit_id) {
  for (const auto& h : handlers) {
    if (auto blank = h->blank_circuit(circuit_id)) return std::move(*blank);
  }
  throw std::invalid_argument("no circuit \"" + circuit_id + "\" in this build");
}

uint64_t parameters_bytes(const groth16::Parameters& p) {
  return (p.vk.ic.size() + p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) *
             sizeof(G1Affine) +
         p.b_g2.size() * sizeof(G2Affine);
}

ShapeHint shape_of(const groth16::Parameters& p) {
  return {p.h.size() + 1, p.vk.ic.size(), p.l.size()};
}

uint64_t partition_working_set(const groth16::Parameters& p) {
  const uint64_t domain = p.h.size() + 1;             // rows <= domain
  const uint64_t vars = p.l.size() + p.vk.ic.size();  // aux + inputs
  const uint64_t fr = sizeof(Fr);
  // a, b, c and two more domain vectors in the quotient; the assignment and one scalar copy per
  // MSM in flight; densities (bits) and allocator slack: 1/16 on top.
  const uint64_t bytes = 5 * domain * fr + 2 * vars * fr + 3 * vars / 8;
  return bytes + bytes / 16;
}

}  // namespace cuzk::engine
