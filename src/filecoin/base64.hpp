// Standard base64 (RFC 4648 section 4, with '=' padding), the encoding Go's encoding/json gives a
// []byte field and so the form of "Phase1Out" in the cuzk c1.json wrapper (c1_wrapper.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::filecoin {

std::string base64_encode(std::span<const uint8_t> bytes);
// Strict: length a multiple of 4, only the 64 symbols, padding only at the end, unused bits of the
// last symbol zero (Go's StdEncoding rejects the rest too). Throws std::invalid_argument naming the
// offending position.
std::vector<uint8_t> base64_decode(std::string_view text);

}  // namespace cuzk::filecoin
