#include "filecoin/domain.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

bool is_canonical_fr(const Domain& d) {
  return try_domain_to_fr(d).has_value();
}

std::optional<Fr> try_domain_to_fr(const Domain& d) {
  return Fr::from_bytes_le(std::span<const uint8_t, kNodeSize>(d));
}

Fr domain_to_fr(const Domain& d) {
  const auto f = try_domain_to_fr(d);
  if (!f) {
    throw std::invalid_argument("domain_to_fr: " + to_hex(d) +
                                " (little-endian bytes) is not a canonical Fr: value >= r");
  }
  return *f;
}

Fr domain_to_fr(const Domain& d, std::string_view context, std::string_view what) {
  if (auto f = try_domain_to_fr(d)) return *f;
  throw std::invalid_argument(std::string(context) + ": " + std::string(what) +
                              " is not a canonical field element (" + to_hex(d) + ")");
}

Fr domain_to_fr_safe(const Domain& d) {
  // 2^254 < r, so the trimmed value always decodes.
  return *try_domain_to_fr(trim_to_fr32(d));
}

Domain fr_to_domain(const Fr& f) {
  return f.to_bytes_le();
}

Domain domain_from_bytes(std::span<const uint8_t> bytes) {
  if (bytes.size() != kNodeSize) {
    throw std::invalid_argument("domain_from_bytes: expected 32 bytes, got " +
                                std::to_string(bytes.size()));
  }
  Domain d;
  std::copy(bytes.begin(), bytes.end(), d.begin());
  return d;
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::vector<uint8_t> bytes_from_hex(std::string_view hex) {
  const std::string_view original = hex;
  if (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
  if (hex.size() % 2 != 0) {
    throw std::invalid_argument("bytes_from_hex: odd number of hex digits in \"" +
                                std::string(original) + "\"");
  }
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = hex_value(hex[2 * i]);
    const int lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      throw std::invalid_argument("bytes_from_hex: not a hex digit in \"" + std::string(original) +
                                  "\"");
    }
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return out;
}

Domain domain_from_hex(std::string_view hex) {
  const std::vector<uint8_t> bytes = bytes_from_hex(hex);
  if (bytes.size() != kNodeSize) {
    throw std::invalid_argument("domain_from_hex: expected 64 hex digits, got \"" +
                                std::string(hex) + "\"");
  }
  return domain_from_bytes(bytes);
}

}  // namespace cuzk::filecoin
