// ChaCha as rust-fil-proofs consumes it:
//   * ChaCha8Rng from rand_chacha 0.3.1 (rand_chacha/src/chacha.rs, guts.rs) seeds the SDR DRG
//     parent sampling (storage-proofs-core/src/drgraph.rs). State layout (Bernstein's original):
//     words 0-3 "expand 32-byte k", 4-11 the 32-byte seed as little-endian words, 12-13 a 64-bit
//     block counter from 0 (low word first), 14-15 a 64-bit stream id (0 unless set_stream).
//     Output words are the block words in order; rand_core 0.6 BlockRng makes next_u64 = two
//     consecutive words, low first (also across block boundaries), and fill_bytes take whole
//     words little-endian, dropping the unused bytes of the last word.
//   * ChaCha20 IETF (RFC 8439: 32-bit block counter in word 12, 96-bit nonce in words 13-15), as
//     the RustCrypto `chacha20` 0.9 crate used by synthetic PoRep challenge generation.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace cuzk::filecoin {

using ChaChaKey = std::array<uint8_t, 32>;

// One block: out = rounds(in) + in, for an even number of rounds (8, 12, 20).
void chacha_block(const uint32_t in[16], unsigned rounds, uint32_t out[16]);

// rand_chacha 0.3.1 ChaCha{8,12,20}Rng.
template <unsigned Rounds>
class ChaChaRng {
 public:
  explicit ChaChaRng(const ChaChaKey& seed);

  uint32_t next_u32() {
    if (index_ >= 16) refill();
    return buf_[index_++];
  }
  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    const uint64_t hi = next_u32();
    return hi << 32 | lo;
  }
  void fill_bytes(std::span<uint8_t> dest);

  // Offset from the start of the stream in 32-bit words (a 68-bit number upstream).
  unsigned __int128 get_word_pos() const;
  void set_word_pos(unsigned __int128 word_offset);
  // The stream id (words 14-15); the words from the current position on come from the new stream.
  void set_stream(uint64_t stream);
  uint64_t get_stream() const { return stream_; }

 private:
  void refill();

  uint32_t key_[8];
  uint64_t next_block_ = 0;  // counter of the next block to generate
  uint64_t stream_ = 0;
  uint32_t buf_[16] = {};
  unsigned index_ = 16;  // 16: the buffer is used up
};

using ChaCha8Rng = ChaChaRng<8>;
using ChaCha12Rng = ChaChaRng<12>;
using ChaCha20Rng = ChaChaRng<20>;

extern template class ChaChaRng<8>;
extern template class ChaChaRng<12>;
extern template class ChaChaRng<20>;

// ChaCha20 with a 96-bit nonce (RFC 8439), as the RustCrypto `chacha20` crate: the keystream
// starts at block counter 0; seek() positions it at any byte. The keystream ends after 2^32
// blocks (256 GiB); going past it throws std::out_of_range.
class ChaCha20Ietf {
 public:
  ChaCha20Ietf(const ChaChaKey& key, const std::array<uint8_t, 12>& nonce);

  // data ^= keystream, advancing the position.
  void apply_keystream(std::span<uint8_t> data);
  // Keystream bytes (the XOR with zeros).
  void keystream(std::span<uint8_t> out);
  void seek(uint64_t byte_offset);
  uint64_t position() const { return pos_; }

 private:
  uint32_t state_[16];
  uint64_t pos_ = 0;
};

}  // namespace cuzk::filecoin
