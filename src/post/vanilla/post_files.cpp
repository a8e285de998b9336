#include "post/vanilla/post_files.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "filecoin/base64.hpp"
#include "filecoin/commcid.hpp"

namespace cuzk::filecoin {

std::vector<std::vector<uint8_t>> parse_vanilla_proofs(std::string_view file_bytes) {
  const nlohmann::json doc = nlohmann::json::parse(file_bytes, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_array()) return {std::vector<uint8_t>(file_bytes.begin(), file_bytes.end())};
  std::vector<std::vector<uint8_t>> proofs;
  proofs.reserve(doc.size());
  for (size_t i = 0; i < doc.size(); ++i) {
    if (!doc[i].is_string()) {
      throw std::invalid_argument("vanilla proofs: entry " + std::to_string(i) +
                                  " is not a base64 string");
    }
    try {
      proofs.push_back(base64_decode(doc[i].get<std::string>()));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("vanilla proofs: entry " + std::to_string(i) + ": " + e.what());
    }
  }
  return proofs;
}

std::string vanilla_proofs_json(const std::vector<std::vector<uint8_t>>& proofs) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& p : proofs)
    j.push_back(base64_encode(p));
  return j.dump();
}

PoStVerifyInfo parse_post_verify_info(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw std::invalid_argument("PoSt verify info: not a JSON object");
  const auto field = [&](const nlohmann::json& o, const char* name) -> const nlohmann::json& {
    if (!o.is_object() || !o.contains(name)) {
      throw std::invalid_argument(std::string("PoSt verify info: no \"") + name + "\"");
    }
    return o.at(name);
  };
  const auto number = [&](const nlohmann::json& o, const char* name) {
    const nlohmann::json& v = field(o, name);
    if (!v.is_number_unsigned()) {
      throw std::invalid_argument(std::string("PoSt verify info: \"") + name +
                                  "\" is not an unsigned integer");
    }
    return v.get<uint64_t>();
  };
  const auto bytes = [&](const nlohmann::json& v, const char* name) {
    if (!v.is_string()) {
      throw std::invalid_argument(std::string("PoSt verify info: \"") + name +
                                  "\" is not a base64 string");
    }
    try {
      return base64_decode(v.get<std::string>());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("PoSt verify info: \"") + name + "\": " + e.what());
    }
  };
  PoStVerifyInfo info;
  const std::vector<uint8_t> r = bytes(field(j, "Randomness"), "Randomness");
  if (r.size() != 32) {
    throw std::invalid_argument("PoSt verify info: Randomness has " + std::to_string(r.size()) +
                                " bytes, expected 32");
  }
  info.randomness = domain_from_bytes(r);
  const nlohmann::json& proofs = field(j, "Proofs");
  if (!proofs.is_array() || proofs.size() != 1) {
    throw std::invalid_argument("PoSt verify info: \"Proofs\" must hold exactly one proof");
  }
  info.post_proof = number(proofs[0], "PoStProof");
  if (proofs[0].contains("ProofBytes") && !proofs[0].at("ProofBytes").is_null()) {
    info.proof = bytes(proofs[0].at("ProofBytes"), "ProofBytes");
  }
  const nlohmann::json& sectors = field(j, "ChallengedSectors");
  if (!sectors.is_array() || sectors.empty()) {
    throw std::invalid_argument("PoSt verify info: \"ChallengedSectors\" is empty");
  }
  for (const nlohmann::json& s : sectors) {
    ChallengedSector c;
    c.seal_proof = number(s, "SealProof");
    c.sector_number = number(s, "SectorNumber");
    const nlohmann::json& cid = field(field(s, "SealedCID"), "/");
    if (!cid.is_string()) throw std::invalid_argument("PoSt verify info: SealedCID is not a CID");
    try {
      c.comm_r = cid_to_commitment(cid.get<std::string>(), CommitmentKind::kSealed);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("PoSt verify info: SealedCID: ") + e.what());
    }
    info.sectors.push_back(c);
  }
  info.prover = number(j, "Prover");
  return info;
}

std::string post_verify_info_json(const PoStVerifyInfo& info) {
  nlohmann::ordered_json j;
  j["Randomness"] = base64_encode(info.randomness);
  nlohmann::ordered_json proof;
  proof["PoStProof"] = info.post_proof;
  proof["ProofBytes"] = info.proof ? nlohmann::ordered_json(base64_encode(*info.proof))
                                   : nlohmann::ordered_json(nullptr);
  j["Proofs"] = nlohmann::ordered_json::array({proof});
  j["ChallengedSectors"] = nlohmann::ordered_json::array();
  for (const ChallengedSector& s : info.sectors) {
    nlohmann::ordered_json c;
    c["SealProof"] = s.seal_proof;
    c["SectorNumber"] = s.sector_number;
    c["SealedCID"] = {{"/", commitment_to_cid(s.comm_r, CommitmentKind::kSealed)}};
    j["ChallengedSectors"].push_back(c);
  }
  j["Prover"] = info.prover;
  return j.dump();
}

}  // namespace cuzk::filecoin
