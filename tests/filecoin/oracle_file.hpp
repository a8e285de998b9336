// Access to ../shared/reference/filecoin-oracles.json (the companion of the facts sheet) and to
// the golden data in ../shared/fixtures/filecoin-golden. CUZK_FILECOIN_ORACLES and
// CUZK_FILECOIN_GOLDEN override the paths; a missing or unreadable file is a test failure.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"
#include "filecoin/domain.hpp"

namespace cuzk::filecoin::test {

const nlohmann::json& oracles();

// A file of the golden-data directory; throws std::runtime_error when it is missing.
std::filesystem::path golden_file(std::string_view name);
std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path);
// A JSON array of byte values (the regression records' form of 32-byte values).
std::vector<uint8_t> byte_array(const nlohmann::json& j);
Domain domain_bytes(const nlohmann::json& j);
// The golden seal_regression_records-v18.json, one JSON object per line, in file order.
const std::vector<nlohmann::json>& regression_records_v18();

// "0x..." big-endian integer (the *_int_hex fields) as an Fr.
inline Fr fr_from_int_hex(std::string_view hex) {
  return Fr::from_hex(hex);
}
// A *_hex / *_le_hex field: stored little-endian bytes.
inline Domain domain_hex(const nlohmann::json& j) {
  return domain_from_hex(j.get<std::string>());
}

}  // namespace cuzk::filecoin::test
