#include "filecoin/fr32.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

static_assert(std::endian::native == std::endian::little, "Fr32 word kernels assume little endian");

namespace {

constexpr uint64_t kDataBits = 254;     // FR32_PADDING_MAP.data_bits
constexpr uint64_t kElementBits = 256;  // FR32_PADDING_MAP.element_bits
constexpr uint64_t kLow62 = (uint64_t{1} << 62) - 1;

uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void store64(uint8_t* p, uint64_t v) {
  std::memcpy(p, &v, 8);
}

// 64 bits of a little-endian bit stream starting at bit `pos` (reads bytes pos/8 .. pos/8 + 8).
uint64_t bits64(const uint8_t* p, uint64_t pos) {
  const uint64_t byte = pos / 8;
  const unsigned sh = static_cast<unsigned>(pos % 8);
  uint64_t v = load64(p + byte) >> sh;
  if (sh != 0) v |= static_cast<uint64_t>(p[byte + 8]) << (64 - sh);
  return v;
}

// Pads one block reading 128 input bytes; byte 127 only ever lands in a cleared pad bit.
void pad_block_reading_128(const uint8_t* in, uint8_t* out) {
  for (unsigned j = 0; j < 4; ++j) {
    for (unsigned m = 0; m < 4; ++m) {
      uint64_t w = bits64(in, kDataBits * j + 64 * m);
      if (m == 3) w &= kLow62;  // bits 254 and 255 of the element are padding
      store64(out + 32 * j + 8 * m, w);
    }
  }
}

// Whole elements needed for n unpadded bytes (Fr32Reader: div_ceil(bytes * 8, 254)).
uint64_t elements_for(uint64_t unpadded) {
  return (unpadded * 8 + kDataBits - 1) / kDataBits;
}

}  // namespace

uint64_t fr32_padded_bytes(uint64_t unpadded) {
  // transform_bit_offset(bits, padding = true), then round up to a byte.
  const uint64_t bits = unpadded * 8;
  const uint64_t padded_bits = bits / kDataBits * kElementBits + bits % kDataBits;
  return (padded_bits + 7) / 8;
}

uint64_t fr32_unpadded_bytes(uint64_t padded) {
  // transform_bit_offset(bits, padding = false), then round down to a byte.
  const uint64_t bits = padded * 8;
  const uint64_t data_bits = bits / kElementBits * kDataBits + bits % kElementBits;
  return data_bits / 8;
}

uint64_t fr32_padded_len(uint64_t unpadded) {
  return 32 * elements_for(unpadded);
}

void fr32_pad_block(const uint8_t* in127, uint8_t* out128) {
  uint8_t buf[kFr32PaddedBlock];
  std::memcpy(buf, in127, kFr32UnpaddedBlock);
  buf[kFr32UnpaddedBlock] = 0;
  pad_block_reading_128(buf, out128);
}

void fr32_unpad_block(const uint8_t* in128, uint8_t* out127) {
  uint64_t raw[17] = {};
  for (unsigned j = 0; j < 4; ++j) {
    for (unsigned m = 0; m < 4; ++m) {
      uint64_t w = load64(in128 + 32 * j + 8 * m);
      if (m == 3) w &= kLow62;  // skip the element's pad bits
      const uint64_t pos = kDataBits * j + 64 * m;
      const unsigned sh = static_cast<unsigned>(pos % 64);
      raw[pos / 64] |= w << sh;
      if (sh != 0) raw[pos / 64 + 1] |= w >> (64 - sh);
    }
  }
  std::memcpy(out127, raw, kFr32UnpaddedBlock);
}

void fr32_pad(std::span<const uint8_t> in, std::span<uint8_t> out) {
  const uint64_t n = in.size();
  if (out.size() != fr32_padded_len(n)) {
    throw std::invalid_argument("fr32_pad: output of " + std::to_string(out.size()) +
                                " bytes for " + std::to_string(n) + " input bytes; expected " +
                                std::to_string(fr32_padded_len(n)));
  }
  const uint64_t blocks = n / kFr32UnpaddedBlock;
  uint64_t b = 0;
  // Blocks followed by at least one more input byte can be read 128 bytes wide in place.
  for (; b < blocks && (b + 1) * kFr32UnpaddedBlock < n; ++b)
    pad_block_reading_128(in.data() + b * kFr32UnpaddedBlock, out.data() + b * kFr32PaddedBlock);
  if (b < blocks) {
    fr32_pad_block(in.data() + b * kFr32UnpaddedBlock, out.data() + b * kFr32PaddedBlock);
    ++b;
  }
  const uint64_t tail = n - blocks * kFr32UnpaddedBlock;
  if (tail != 0) {
    uint8_t buf[kFr32PaddedBlock] = {};
    uint8_t padded[kFr32PaddedBlock];
    std::memcpy(buf, in.data() + blocks * kFr32UnpaddedBlock, tail);
    pad_block_reading_128(buf, padded);
    std::memcpy(out.data() + blocks * kFr32PaddedBlock, padded, 32 * elements_for(tail));
  }
}

std::vector<uint8_t> fr32_pad(std::span<const uint8_t> in) {
  std::vector<uint8_t> out(fr32_padded_len(in.size()));
  fr32_pad(in, out);
  return out;
}

uint64_t fr32_unpadded_capacity(uint64_t padded_len, uint64_t offset) {
  // A trailing partial element holds only data bits (padding.rs "Padded layout").
  const uint64_t bits = padded_len * 8;
  const uint64_t data_bits = bits / kElementBits * kDataBits + bits % kElementBits;
  if (data_bits <= offset * 8) return 0;
  return (data_bits - offset * 8 + 7) / 8;
}

void fr32_unpad(std::span<const uint8_t> padded, uint64_t offset, std::span<uint8_t> out) {
  const uint64_t len = out.size();
  const uint64_t capacity = fr32_unpadded_capacity(padded.size(), offset);
  if (len > capacity) {
    throw std::out_of_range("fr32_unpad: requested " + std::to_string(len) +
                            " unpadded bytes at offset " + std::to_string(offset) + " but " +
                            std::to_string(padded.size()) + " padded bytes hold only " +
                            std::to_string(capacity) + " from there");
  }
  uint64_t done = 0;
  while (done < len) {
    const uint64_t pos = offset + done;
    const uint64_t block = pos / kFr32UnpaddedBlock;
    const uint64_t in_block = pos % kFr32UnpaddedBlock;
    const uint64_t take = std::min<uint64_t>(kFr32UnpaddedBlock - in_block, len - done);
    const uint64_t padded_start = block * kFr32PaddedBlock;
    uint8_t raw[kFr32UnpaddedBlock];
    if (padded_start + kFr32PaddedBlock <= padded.size()) {
      fr32_unpad_block(padded.data() + padded_start, raw);
    } else {
      // The source ends inside this block: missing bytes read as zero.
      uint8_t buf[kFr32PaddedBlock] = {};
      std::memcpy(buf, padded.data() + padded_start, padded.size() - padded_start);
      fr32_unpad_block(buf, raw);
    }
    std::memcpy(out.data() + done, raw + in_block, take);
    done += take;
  }
}

std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded, uint64_t offset, uint64_t len) {
  std::vector<uint8_t> out(len);
  fr32_unpad(padded, offset, out);
  return out;
}

void Fr32Padder::write(std::span<const uint8_t> in, Sink sink) {
  bytes_in_ += in.size();
  uint8_t batch[kBatchBlocks * kFr32PaddedBlock];
  if (held_len_ != 0) {
    const size_t take = std::min(kFr32UnpaddedBlock - held_len_, in.size());
    std::memcpy(held_ + held_len_, in.data(), take);
    held_len_ += take;
    in = in.subspan(take);
    if (held_len_ < kFr32UnpaddedBlock) return;
    fr32_pad_block(held_, batch);
    held_len_ = 0;
    bytes_out_ += kFr32PaddedBlock;
    sink(std::span<const uint8_t>(batch, kFr32PaddedBlock));
  }
  while (in.size() >= kFr32UnpaddedBlock) {
    const size_t blocks = std::min(kBatchBlocks, in.size() / kFr32UnpaddedBlock);
    for (size_t b = 0; b < blocks; ++b) {
      const uint8_t* src = in.data() + b * kFr32UnpaddedBlock;
      uint8_t* dst = batch + b * kFr32PaddedBlock;
      if ((b + 1) * kFr32UnpaddedBlock < in.size()) {
        pad_block_reading_128(src, dst);
      } else {
        fr32_pad_block(src, dst);
      }
    }
    in = in.subspan(blocks * kFr32UnpaddedBlock);
    bytes_out_ += blocks * kFr32PaddedBlock;
    sink(std::span<const uint8_t>(batch, blocks * kFr32PaddedBlock));
  }
  std::memcpy(held_, in.data(), in.size());
  held_len_ = in.size();
}

void Fr32Padder::finish(Sink sink) {
  if (held_len_ != 0) {
    uint8_t padded[kFr32PaddedBlock];
    const uint64_t len = fr32_padded_len(held_len_);
    fr32_pad(std::span<const uint8_t>(held_, held_len_), std::span<uint8_t>(padded, len));
    bytes_out_ += len;
    sink(std::span<const uint8_t>(padded, len));
  }
  held_len_ = 0;
}

}  // namespace cuzk::filecoin
