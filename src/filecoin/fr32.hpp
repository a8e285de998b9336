// Fr32 padding of user data (rust-fil-proofs fr32/src/padding.rs and reader.rs).
//
// The unpadded bytes are read as a little-endian bit stream (bit i is bit i%8 of byte i/8) and cut
// into 254-bit units; each unit becomes one 32-byte element whose bits 254 and 255 are zero, so the
// element is a canonical Fr. 127 input bytes (1016 bits = 4 units) map to 128 output bytes, and
// elements stay byte-aligned only every 4 units, which is why padding works in 127/128-byte blocks.
//
// Two size conventions exist upstream and both are exposed:
//   * fr32_padded_bytes / fr32_unpadded_bytes (`to_padded_bytes` / `to_unpadded_bytes`): exact
//     bit-stream sizes, rounded up (padding) or down (unpadding) to whole bytes;
//   * the padder's output (`Fr32Reader`): always whole 32-byte elements, i.e.
//     32 * ceil(8n / 254) bytes for n input bytes, the tail zero-filled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "util/function_ref.hpp"

namespace cuzk::filecoin {

inline constexpr size_t kFr32UnpaddedBlock = 127;  // 4 * 254 bits
inline constexpr size_t kFr32PaddedBlock = 128;    // 4 * 256 bits

// to_padded_bytes: ceil(bits after padding / 8). E.g. 127 -> 128, 1 -> 1, 32 -> 33.
uint64_t fr32_padded_bytes(uint64_t unpadded);
// to_unpadded_bytes: floor(data bits / 8). E.g. 128 -> 127, 2048 -> 2032.
uint64_t fr32_unpadded_bytes(uint64_t padded);
// Length of the padder's output for n input bytes: whole elements, 32 * ceil(8n / 254).
uint64_t fr32_padded_len(uint64_t unpadded);

// One block: 127 unpadded bytes -> 128 padded bytes.
void fr32_pad_block(const uint8_t* in127, uint8_t* out128);
// One block: 128 padded bytes -> 127 unpadded bytes (bits 254/255 of each element are ignored).
void fr32_unpad_block(const uint8_t* in128, uint8_t* out127);

// Pads like Fr32Reader: out.size() must be fr32_padded_len(in.size()); the tail is zero-filled.
// Throws std::invalid_argument on a wrong output size.
void fr32_pad(std::span<const uint8_t> in, std::span<uint8_t> out);
std::vector<uint8_t> fr32_pad(std::span<const uint8_t> in);

// Recovers unpadded bytes [offset, offset + out.size()) from a padded stream (`write_unpadded`).
// `padded` may end inside an element; its data bits are used as far as they go, and a final
// partial byte has its missing high bits zero. Throws std::out_of_range naming the request when
// the source holds fewer than offset + out.size() bytes of data (rounded up to a whole byte, as
// upstream allows). Upstream's capacity check is slightly looser for offsets inside an element and
// then returns fewer bytes than asked; this version never returns short. To unpad a large file in
// pieces, pass windows that start at a multiple of 128 padded bytes (unpadded offsets relative to
// the window's start, a multiple of 127): blocks are independent, nothing is buffered.
void fr32_unpad(std::span<const uint8_t> padded, uint64_t offset, std::span<uint8_t> out);
std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded, uint64_t offset, uint64_t len);
// Data bytes available in a padded stream of `padded_len` bytes from unpadded `offset` on
// (rounded up to a whole byte).
uint64_t fr32_unpadded_capacity(uint64_t padded_len, uint64_t offset);

// Streaming padder: feed unpadded bytes in pieces of any size; padded output goes to a sink in
// multiples of 128 bytes (the last call from finish() may be shorter). Holds at most 127 bytes,
// so large inputs are never copied whole. Output equals fr32_pad of the concatenated input.
class Fr32Padder {
 public:
  using Sink = FunctionRef<void(std::span<const uint8_t>)>;

  // Pads all complete blocks now; keeps a partial block for the next call.
  void write(std::span<const uint8_t> in, Sink sink);
  // Emits the held partial block as whole elements; the padder is then empty and reusable (the
  // byte counters keep counting).
  void finish(Sink sink);

  uint64_t bytes_in() const { return bytes_in_; }
  uint64_t bytes_out() const { return bytes_out_; }

 private:
  static constexpr size_t kBatchBlocks = 64;  // pads up to 8 KiB per sink call
  uint8_t held_[kFr32UnpaddedBlock] = {};
  size_t held_len_ = 0;
  uint64_t bytes_in_ = 0, bytes_out_ = 0;
};

}  // namespace cuzk::filecoin
