#include "filecoin/base64.hpp"

#include <array>
#include <stdexcept>

namespace cuzk::filecoin {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> make_reverse() {
  std::array<int8_t, 256> r{};
  for (auto& x : r)
    x = -1;
  for (int i = 0; i < 64; ++i)
    r[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  return r;
}
constexpr std::array<int8_t, 256> kReverse = make_reverse();

[[noreturn]] void bad(size_t at, const std::string& why) {
  throw std::invalid_argument("base64: " + why + " at character " + std::to_string(at));
}

// A printable ASCII symbol as itself in quotes, any other byte as 0xNN (messages stay UTF-8).
std::string symbol_name(uint8_t c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
}

}  // namespace

std::string base64_encode(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t{bytes[i]} << 16 | uint32_t{bytes[i + 1]} << 8 | bytes[i + 2];
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest != 0) {
    const uint32_t v = uint32_t{bytes[i]} << 16 | (rest == 2 ? uint32_t{bytes[i + 1]} << 8 : 0);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::vector<uint8_t> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    throw std::invalid_argument("base64: length " + std::to_string(text.size()) +
                                " is not a multiple of 4");
  }
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int pad = 0;
    uint32_t v = 0;
    for (size_t j = 0; j < 4; ++j) {
      const char c = text[i + j];
      if (c == '=') {
        if (!last || j < 2) bad(i + j, "padding '=' before the end");
        ++pad;
        v <<= 6;
        continue;
      }
      if (pad != 0) bad(i + j, "a symbol after padding");
      const int8_t s = kReverse[static_cast<uint8_t>(c)];
      if (s < 0) bad(i + j, "invalid symbol " + symbol_name(static_cast<uint8_t>(c)));
      v = v << 6 | static_cast<uint32_t>(s);
    }
    out.push_back(static_cast<uint8_t>(v >> 16));
    if (pad < 2) out.push_back(static_cast<uint8_t>(v >> 8));
    if (pad < 1) out.push_back(static_cast<uint8_t>(v));
    if ((pad == 1 && (v & 0xff) != 0) || (pad == 2 && (v & 0xffff) != 0)) {
      bad(i + 3, "non-zero unused bits in the last symbol");
    }
  }
  return out;
}

}  // namespace cuzk::filecoin
