#include "filecoin/chacha.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

// "expand 32-byte k" as little-endian words.
constexpr uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

uint32_t load32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

inline void quarter(uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d) {
  a += b;
  d = std::rotl(d ^ a, 16);
  c += d;
  b = std::rotl(b ^ c, 12);
  a += b;
  d = std::rotl(d ^ a, 8);
  c += d;
  b = std::rotl(b ^ c, 7);
}

}  // namespace

void chacha_block(const uint32_t in[16], unsigned rounds, uint32_t out[16]) {
  uint32_t x[16];
  std::memcpy(x, in, sizeof x);
  for (unsigned r = 0; r < rounds; r += 2) {
    quarter(x[0], x[4], x[8], x[12]);  // columns
    quarter(x[1], x[5], x[9], x[13]);
    quarter(x[2], x[6], x[10], x[14]);
    quarter(x[3], x[7], x[11], x[15]);
    quarter(x[0], x[5], x[10], x[15]);  // diagonals
    quarter(x[1], x[6], x[11], x[12]);
    quarter(x[2], x[7], x[8], x[13]);
    quarter(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; ++i)
    out[i] = x[i] + in[i];
}

// ---- ChaChaRng ----

template <unsigned Rounds>
ChaChaRng<Rounds>::ChaChaRng(const ChaChaKey& seed) {
  for (int i = 0; i < 8; ++i)
    key_[i] = load32(seed.data() + 4 * i);
}

template <unsigned Rounds>
void ChaChaRng<Rounds>::refill() {
  uint32_t in[16];
  std::memcpy(in, kSigma, sizeof kSigma);
  std::memcpy(in + 4, key_, sizeof key_);
  in[12] = static_cast<uint32_t>(next_block_);
  in[13] = static_cast<uint32_t>(next_block_ >> 32);
  in[14] = static_cast<uint32_t>(stream_);
  in[15] = static_cast<uint32_t>(stream_ >> 32);
  chacha_block(in, Rounds, buf_);
  ++next_block_;  // wraps like the upstream 64-bit counter
  index_ = 0;
}

template <unsigned Rounds>
void ChaChaRng<Rounds>::fill_bytes(std::span<uint8_t> dest) {
  size_t i = 0;
  for (; i + 4 <= dest.size(); i += 4) {
    const uint32_t w = next_u32();
    std::memcpy(dest.data() + i, &w, 4);  // little endian host (static_assert in fr32.cpp)
  }
  if (i < dest.size()) {
    const uint32_t w = next_u32();  // the rest of this word is discarded, as upstream
    for (size_t k = 0; i < dest.size(); ++i, ++k)
      dest[i] = static_cast<uint8_t>(w >> (8 * k));
  }
}

template <unsigned Rounds>
unsigned __int128 ChaChaRng<Rounds>::get_word_pos() const {
  // The buffer holds block next_block_ - 1 (mod 2^64); index_ words of it are used.
  // The result is taken mod 2^68 like upstream, so a fresh generator is at word 0.
  const uint64_t buffered_block = next_block_ - 1;
  const unsigned __int128 mask = (static_cast<unsigned __int128>(1) << 68) - 1;
  return (static_cast<unsigned __int128>(buffered_block) * 16 + index_) & mask;
}

template <unsigned Rounds>
void ChaChaRng<Rounds>::set_word_pos(unsigned __int128 word_offset) {
  next_block_ = static_cast<uint64_t>(word_offset / 16);  // the upper bits cycle away
  refill();
  index_ = static_cast<unsigned>(word_offset % 16);
}

template <unsigned Rounds>
void ChaChaRng<Rounds>::set_stream(uint64_t stream) {
  stream_ = stream;
  if (index_ != 16) set_word_pos(get_word_pos());
}

template class ChaChaRng<8>;
template class ChaChaRng<12>;
template class ChaChaRng<20>;

// ---- ChaCha20 IETF ----

ChaCha20Ietf::ChaCha20Ietf(const ChaChaKey& key, const std::array<uint8_t, 12>& nonce) {
  std::memcpy(state_, kSigma, sizeof kSigma);
  for (int i = 0; i < 8; ++i)
    state_[4 + i] = load32(key.data() + 4 * i);
  state_[12] = 0;
  for (int i = 0; i < 3; ++i)
    state_[13 + i] = load32(nonce.data() + 4 * i);
}

void ChaCha20Ietf::seek(uint64_t byte_offset) {
  if (byte_offset > (uint64_t{1} << 32) * 64) {
    throw std::out_of_range("ChaCha20Ietf::seek: byte " + std::to_string(byte_offset) +
                            " is past the 2^32-block keystream");
  }
  pos_ = byte_offset;
}

void ChaCha20Ietf::apply_keystream(std::span<uint8_t> data) {
  constexpr uint64_t kEnd = (uint64_t{1} << 32) * 64;
  if (data.size() > kEnd - pos_) {
    throw std::out_of_range("ChaCha20Ietf: " + std::to_string(data.size()) + " bytes at position " +
                            std::to_string(pos_) + " run past the 2^32-block keystream");
  }
  size_t done = 0;
  while (done < data.size()) {
    uint32_t in[16], out[16];
    std::memcpy(in, state_, sizeof in);
    in[12] = static_cast<uint32_t>(pos_ / 64);
    chacha_block(in, 20, out);
    uint8_t ks[64];
    std::memcpy(ks, out, sizeof ks);  // little-endian words
    const size_t off = static_cast<size_t>(pos_ % 64);
    const size_t take = std::min<size_t>(64 - off, data.size() - done);
    for (size_t i = 0; i < take; ++i)
      data[done + i] ^= ks[off + i];
    done += take;
    pos_ += take;
  }
}

void ChaCha20Ietf::keystream(std::span<uint8_t> out) {
  std::fill(out.begin(), out.end(), uint8_t{0});
  apply_keystream(out);
}

}  // namespace cuzk::filecoin
