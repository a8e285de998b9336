// Access to ../shared/reference/filecoin-oracles.json (the companion of the facts sheet).
// CUZK_FILECOIN_ORACLES overrides the path; a missing or unreadable file is a test failure.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "ff/fr.hpp"
#include "filecoin/domain.hpp"

namespace cuzk::filecoin::test {

const nlohmann::json& oracles();

// "0x..." big-endian integer (the *_int_hex fields) as an Fr.
inline Fr fr_from_int_hex(std::string_view hex) {
  return Fr::from_hex(hex);
}
// A *_hex / *_le_hex field: stored little-endian bytes.
inline Domain domain_hex(const nlohmann::json& j) {
  return domain_from_hex(j.get<std::string>());
}

}  // namespace cuzk::filecoin::test
