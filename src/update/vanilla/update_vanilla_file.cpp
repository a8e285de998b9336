#include "update/vanilla/update_vanilla_file.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "filecoin/base64.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

std::string encode_update_vanilla_file(const UpdateVanillaFile& f) {
  nlohmann::json j;
  j["registered_proof"] = f.registered_proof;
  j["sector_size"] = f.sector_size;
  j["comm_r_old"] = to_hex(f.comm_r_old);
  j["comm_r_new"] = to_hex(f.comm_r_new);
  j["comm_d_new"] = to_hex(f.comm_d_new);
  nlohmann::json proofs = nlohmann::json::array();
  for (const std::vector<uint8_t>& p : f.vanilla_proofs)
    proofs.push_back(base64_encode(p));
  j["vanilla_proofs"] = std::move(proofs);
  return j.dump(1) + "\n";
}

UpdateVanillaFile parse_update_vanilla_file(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw std::invalid_argument("update vanilla file: not a JSON object");
  }
  const auto field = [&](const char* name) -> const nlohmann::json& {
    if (!j.contains(name)) {
      throw std::invalid_argument(std::string("update vanilla file: no \"") + name + "\"");
    }
    return j.at(name);
  };
  const auto number = [&](const char* name) {
    const nlohmann::json& v = field(name);
    if (!v.is_number_unsigned()) {
      throw std::invalid_argument(std::string("update vanilla file: \"") + name +
                                  "\" is not an unsigned integer");
    }
    return v.get<uint64_t>();
  };
  const auto domain = [&](const char* name) {
    const nlohmann::json& v = field(name);
    try {
      if (!v.is_string()) throw std::invalid_argument("not a string");
      return domain_from_hex(v.get<std::string>());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("update vanilla file: \"") + name +
                                  "\": " + e.what());
    }
  };
  UpdateVanillaFile f;
  const uint64_t id = number("registered_proof");
  f.sector_size = number("sector_size");
  try {
    const UpdateProofInfo& info = update_proof_info(id);
    if (info.sector_size != f.sector_size) {
      throw std::invalid_argument(std::string(info.name) + " is not a " +
                                  std::to_string(f.sector_size) + "-byte proof");
    }
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("update vanilla file: registered_proof: ") + e.what());
  }
  f.registered_proof = static_cast<uint32_t>(id);
  f.comm_r_old = domain("comm_r_old");
  f.comm_r_new = domain("comm_r_new");
  f.comm_d_new = domain("comm_d_new");
  const nlohmann::json& proofs = field("vanilla_proofs");
  if (!proofs.is_array()) {
    throw std::invalid_argument("update vanilla file: \"vanilla_proofs\" is not an array");
  }
  for (size_t i = 0; i < proofs.size(); ++i) {
    try {
      if (!proofs[i].is_string()) throw std::invalid_argument("not a string");
      f.vanilla_proofs.push_back(base64_decode(proofs[i].get<std::string>()));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("update vanilla file: vanilla_proofs[" + std::to_string(i) +
                                  "]: " + e.what());
    }
  }
  return f;
}

}  // namespace cuzk::filecoin
