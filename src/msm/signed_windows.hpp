// SignedWindows: the signed-digit recoding of scalars used by the bucket method.
//
// A scalar k < 2^bits is cut into W = ceil((bits + 1) / c) windows of c bits and rewritten as
// k = sum_w d_w 2^(wc) with every digit in [-2^(c-1) + 1, 2^(c-1)]. A negative digit adds the
// negated base (negation is free on affine points) to bucket |d|, so a window needs only 2^(c-1)
// buckets instead of 2^c - 1.
//
// The textbook recoding walks the windows from the bottom, carrying 1 into the next window when a
// window's value exceeds 2^(c-1). Here the constant H = sum_{w < W-1} (2^(c-1) - 1) 2^(wc) is added
// once instead: the carries of the addition k + H are exactly the recoding's carries, so window w
// of k + H holds d_w + 2^(c-1) - 1. Any digit of any window is then a shift and a mask with no
// state, and threads can take windows independently. The top window gets no offset; its digit is
// its value, at most 2^(c-1) because W c >= bits + 1. Since (W - 1) c <= bits, H < 2^bits and
// k + H < 2^(bits + 1) fits four limbs for bits <= 255 (every canonical Fr value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "ff/bigint.hpp"

namespace cuzk {

class SignedWindows {
 public:
  static constexpr unsigned kMaxScalarBits = 255;
  static constexpr unsigned kMaxWindowBits = 31;

  // window_bits in [1, 31]; scalar_bits in [0, 255] bounds every scalar that will be recoded.
  SignedWindows(unsigned window_bits, unsigned scalar_bits)
      : c_(window_bits), bits_(scalar_bits), windows_((scalar_bits + window_bits) / window_bits) {
    if (window_bits < 1 || window_bits > kMaxWindowBits)
      throw std::invalid_argument("SignedWindows: window width out of range");
    if (scalar_bits > kMaxScalarBits)
      throw std::invalid_argument("SignedWindows: scalars wider than 255 bits");
    half_minus_one_ = (uint64_t{1} << (c_ - 1)) - 1;
    mask_ = (uint64_t{1} << c_) - 1;
    for (unsigned w = 0; w + 1 < windows_; ++w) {
      const unsigned bit = w * c_;
      BigInt<4> term;
      // Two limbs can be touched when the window straddles a limb boundary.
      term.w[bit / 64] = half_minus_one_ << (bit % 64);
      if (bit % 64 != 0 && bit / 64 + 1 < 4)
        term.w[bit / 64 + 1] = half_minus_one_ >> (64 - bit % 64);
      add_with_carry(offset_, offset_, term);
    }
  }

  unsigned window_bits() const { return c_; }
  unsigned scalar_bits() const { return bits_; }
  unsigned num_windows() const { return windows_; }
  // Buckets of a full window: digits |d| in [1, 2^(c-1)] use buckets |d| - 1.
  size_t num_buckets() const { return size_t{1} << (c_ - 1); }
  // The buckets window w can reach. The top window holds at most 2^(bits - (W-1)c), often much
  // less than 2^(c-1), and its bucket reduction only needs to walk that far.
  size_t buckets_in_window(unsigned w) const {
    if (w + 1 < windows_) return num_buckets();
    const size_t top = size_t{1} << (bits_ - (windows_ - 1) * c_);
    return top < num_buckets() ? top : num_buckets();
  }

  // k + H; k must be below 2^scalar_bits.
  BigInt<4> prepare(const BigInt<4>& k) const {
    BigInt<4> r;
    add_with_carry(r, k, offset_);
    return r;
  }

  // Digit d_w of the scalar whose prepare()d form is p.
  int64_t digit(const BigInt<4>& p, unsigned w) const {
    const unsigned bit = w * c_;
    const unsigned limb = bit / 64, shift = bit % 64;
    uint64_t v = p.w[limb] >> shift;
    if (shift + c_ > 64 && limb + 1 < 4) v |= p.w[limb + 1] << (64 - shift);
    if (w + 1 == windows_) return static_cast<int64_t>(v);  // nothing above the top window
    return static_cast<int64_t>(v & mask_) - static_cast<int64_t>(half_minus_one_);
  }

 private:
  unsigned c_, bits_, windows_;
  uint64_t half_minus_one_ = 0, mask_ = 0;
  BigInt<4> offset_;
};

}  // namespace cuzk
