#include "util/utf8.hpp"

#include <cstdint>

namespace cuzk {
namespace {

// Length of the well-formed sequence starting at s[i], or 0.
size_t sequence_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t c = b(0);
  if (c < 0x80) return 1;
  size_t n;
  uint8_t lo = 0x80, hi = 0xbf;  // range of the second byte
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;  // overlong
    if (c == 0xed) hi = 0x9f;  // surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;  // overlong
    if (c == 0xf4) hi = 0x8f;  // above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() - i < n) return 0;
  if (b(1) < lo || b(1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (b(k) < 0x80 || b(k) > 0xbf) return 0;
  return n;
}

void append_hex(std::string& out, uint8_t c) {
  constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

}  // namespace

bool is_valid_utf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = sequence_length(bytes, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string escape_invalid_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = sequence_length(bytes, i);
    const auto c = static_cast<uint8_t>(bytes[i]);
    if (n == 0 || (n == 1 && ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f))) {
      append_hex(out, c);
      ++i;
      continue;
    }
    out.append(bytes.substr(i, n));
    i += n;
  }
  return out;
}

std::string quote_bytes(std::string_view bytes, size_t max_bytes) {
  const bool cut = bytes.size() > max_bytes;
  if (cut) {
    bytes = bytes.substr(0, max_bytes);
    // Do not split a multi-byte sequence at the cut: drop a trailing partial one.
    size_t back = 0;
    while (back < 3 && back < bytes.size() &&
           (static_cast<uint8_t>(bytes[bytes.size() - 1 - back]) & 0xc0) == 0x80)
      ++back;
    if (back < bytes.size() && static_cast<uint8_t>(bytes[bytes.size() - 1 - back]) >= 0xc0 &&
        sequence_length(bytes, bytes.size() - 1 - back) == 0)
      bytes.remove_suffix(back + 1);
  }
  std::string out = escape_invalid_utf8(bytes);
  if (cut) out += "...";
  return out;
}

}  // namespace cuzk
