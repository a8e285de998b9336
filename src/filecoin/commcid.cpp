#include "filecoin/commcid.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace cuzk::filecoin {

namespace {

constexpr uint64_t kCidVersion = 1;
constexpr char kBase32[] = "abcdefghijklmnopqrstuvwxyz234567";  // RFC 4648, lower case

struct Codes {
  uint64_t codec;
  uint64_t multihash;
};

Codes codes_for(CommitmentKind kind) {
  return kind == CommitmentKind::kUnsealed ? Codes{0xf101, 0x1012} : Codes{0xf102, 0xb401};
}

void put_varint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

std::string base32(const std::vector<uint8_t>& bytes) {
  std::string s;
  uint32_t acc = 0;
  int bits = 0;
  for (uint8_t b : bytes) {
    acc = acc << 8 | b;
    bits += 8;
    while (bits >= 5) {
      s += kBase32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) s += kBase32[(acc << (5 - bits)) & 31];  // no '=' padding
  return s;
}

}  // namespace

std::string commitment_to_cid(const Domain& commitment, CommitmentKind kind) {
  const Codes c = codes_for(kind);
  std::vector<uint8_t> bin;
  put_varint(bin, kCidVersion);
  put_varint(bin, c.codec);
  put_varint(bin, c.multihash);
  put_varint(bin, commitment.size());
  bin.insert(bin.end(), commitment.begin(), commitment.end());
  return "b" + base32(bin);
}

Domain cid_to_commitment(std::string_view cid, CommitmentKind kind) {
  const auto fail = [&](const char* why) {
    return std::invalid_argument("cid_to_commitment: \"" + std::string(cid) + "\": " + why);
  };
  if (cid.empty() || cid[0] != 'b') throw fail("not base32 multibase (prefix 'b')");
  std::vector<uint8_t> bin;
  uint32_t acc = 0;
  int bits = 0;
  for (char ch : cid.substr(1)) {
    int v = -1;
    if (ch >= 'a' && ch <= 'z') v = ch - 'a';
    if (ch >= '2' && ch <= '7') v = ch - '2' + 26;
    if (v < 0) throw fail("not a base32 lower-case digit");
    acc = acc << 5 | static_cast<uint32_t>(v);
    bits += 5;
    if (bits >= 8) {
      bin.push_back(static_cast<uint8_t>(acc >> (bits - 8)));
      bits -= 8;
    }
  }
  size_t pos = 0;
  const auto varint = [&]() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= bin.size()) throw fail("truncated varint");
      const uint8_t b = bin[pos++];
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    throw fail("overlong varint");
  };
  const Codes c = codes_for(kind);
  if (varint() != kCidVersion) throw fail("not CIDv1");
  if (varint() != c.codec) throw fail("wrong codec for this commitment kind");
  if (varint() != c.multihash) throw fail("wrong multihash for this commitment kind");
  if (varint() != kNodeSize || bin.size() - pos != kNodeSize) throw fail("digest is not 32 bytes");
  return domain_from_bytes(std::span<const uint8_t>(bin).subspan(pos));
}

}  // namespace cuzk::filecoin
