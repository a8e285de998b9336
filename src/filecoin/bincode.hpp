// The subset of bincode 1.3 (`bincode::serialize` / `deserialize`, the legacy configuration that
// rust-fil-proofs uses for p_aux, t_aux and vanilla proofs) needed here: little-endian fixed-width
// integers, usize as u64, sequence and string lengths as u64, enum variants as a u32 index, Option
// as a u8 tag (0 None, 1 Some) followed by the value, [u8; 32] domains as their 32 raw bytes
// (tuple, no length), unit/PhantomData fields as nothing.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/domain.hpp"

namespace cuzk::filecoin::bincode {

// Reads from a byte span; every read past the end throws std::invalid_argument naming the field
// and the offset, so truncated or corrupt inputs are reported precisely.
class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  uint8_t u8(const char* what) { return take(1, what)[0]; }
  uint32_t u32(const char* what) { return static_cast<uint32_t>(le(take(4, what), 4)); }
  uint64_t u64(const char* what) { return le(take(8, what), 8); }
  Domain domain(const char* what) {
    Domain d;
    const uint8_t* p = take(kNodeSize, what);
    std::copy(p, p + kNodeSize, d.begin());
    return d;
  }
  std::string string(const char* what) {
    const uint64_t n = length(1, what);
    const uint8_t* p = take(n, what);
    return std::string(reinterpret_cast<const char*>(p), n);
  }
  // A sequence length whose elements take at least `min_element_bytes` each; rejects lengths the
  // remaining input cannot hold (so a corrupt length cannot trigger a huge allocation).
  uint64_t length(uint64_t min_element_bytes, const char* what) {
    const size_t at = pos_;
    const uint64_t n = u64(what);
    if (min_element_bytes != 0 && n > remaining() / min_element_bytes) {
      throw std::invalid_argument(std::string("bincode: ") + what + " at byte " +
                                  std::to_string(at) + ": length " + std::to_string(n) +
                                  " exceeds the " + std::to_string(remaining()) + " bytes left");
    }
    return n;
  }

  size_t position() const { return pos_; }
  size_t remaining() const { return bytes_.size() - pos_; }
  // Throws unless every byte was consumed.
  void expect_end(const char* what) const {
    if (pos_ != bytes_.size()) {
      throw std::invalid_argument(std::string("bincode: ") + what + ": " +
                                  std::to_string(remaining()) + " trailing bytes at byte " +
                                  std::to_string(pos_));
    }
  }

 private:
  const uint8_t* take(uint64_t n, const char* what) {
    if (n > remaining()) {
      throw std::invalid_argument(std::string("bincode: ") + what + " at byte " +
                                  std::to_string(pos_) + " needs " + std::to_string(n) +
                                  " bytes, " + std::to_string(remaining()) + " left");
    }
    const uint8_t* p = bytes_.data() + pos_;
    pos_ += static_cast<size_t>(n);
    return p;
  }
  static uint64_t le(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
      v = v << 8 | p[i];
    return v;
  }

  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(v); }
  void u32(uint32_t v) { le(v, 4); }
  void u64(uint64_t v) { le(v, 8); }
  void domain(const Domain& d) { out_.insert(out_.end(), d.begin(), d.end()); }
  void string(const std::string& s) {
    u64(s.size());
    out_.insert(out_.end(), s.begin(), s.end());
  }
  const std::vector<uint8_t>& bytes() const { return out_; }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  void le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t> out_;
};

}  // namespace cuzk::filecoin::bincode
