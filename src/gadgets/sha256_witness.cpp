#include "gadgets/sha256_witness.hpp"

#include <array>
#include <cstdint>

#include "util/sha256_constants.hpp"

namespace cuzk::gadgets {

namespace {

// 32 Booleans: bit i is a constant (konst) with value v, or a variable whose Boolean value is v,
// negated (neg: Boolean::Kind::kNot, underlying bit v ^ 1) or not.
struct Word {
  uint32_t v = 0, konst = ~0u, neg = 0;
  uint32_t underlying() const { return v ^ neg; }
};

Word constant(uint32_t value) {
  return {value, ~0u, 0};
}

Word rotr(const Word& x, unsigned by) {
  const auto r = [by](uint32_t w) { return by == 0 ? w : (w >> by) | (w << (32 - by)); };
  return {r(x.v), r(x.konst), r(x.neg)};
}

Word shr(const Word& x, unsigned by) {
  return {x.v >> by, (x.konst >> by) | ~(~0u >> by), x.neg >> by};
}

// The bits a compression allocates, in order.
class Bits {
 public:
  void push(bool b) {
    if (n_ % 64 == 0) words_.push_back(0);
    if (b) words_.back() |= uint64_t{1} << (n_ % 64);
    ++n_;
  }
  // The bits of `values` where `mask` is set, least significant first.
  void push_masked(uint32_t values, uint32_t mask) {
    while (mask != 0) {
      const unsigned i = static_cast<unsigned>(__builtin_ctz(mask));
      push(((values >> i) & 1) != 0);
      mask &= mask - 1;
    }
  }
  void flush(ConstraintSystem& cs) { cs.alloc_bits(words_, n_); }

 private:
  std::vector<uint64_t> words_;
  size_t n_ = 0;
};

// Boolean::xor_ on each bit: two variables allocate their underlying xor (kind Not when exactly
// one was negated); a constant leaves the other operand, negated by a constant true.
Word xor_words(const Word& a, const Word& b, Bits& out) {
  const uint32_t var = ~a.konst & ~b.konst;
  out.push_masked(a.underlying() ^ b.underlying(), var);
  Word r;
  r.v = a.v ^ b.v;
  r.konst = a.konst & b.konst;
  r.neg = (var & (a.neg ^ b.neg)) | (a.konst & ~b.konst & (b.neg ^ a.v)) |
          (b.konst & ~a.konst & (a.neg ^ b.v));
  return r;
}

// One Boolean as konst / value / negated.
struct Bit {
  bool k, v, n;
};
Bit bit_of(const Word& w, unsigned i) {
  return {((w.konst >> i) & 1) != 0, ((w.v >> i) & 1) != 0, ((w.neg >> i) & 1) != 0};
}
Bit not_bit(const Bit& x) {
  return x.k ? Bit{true, !x.v, false} : Bit{false, !x.v, !x.n};
}
bool is_const(const Bit& x, bool c) {
  return x.k && x.v == c;
}
// Boolean::and_: constants fold; two variables allocate their product (kind Is).
Bit and_bit(const Bit& x, const Bit& y, Bits& out) {
  if (is_const(x, false) || is_const(y, false)) return {true, false, false};
  if (is_const(x, true)) return y;
  if (is_const(y, true)) return x;
  const bool v = x.v && y.v;
  out.push(v);
  return {false, v, false};
}
// Boolean::sha256_ch, case for case.
Bit ch_bit(const Bit& a, const Bit& b, const Bit& c, Bits& out) {
  const bool value = (a.v && b.v) != (!a.v && c.v);
  if (a.k && b.k && c.k) return {true, value, false};
  if (is_const(a, false)) return c;
  if (is_const(b, false)) return and_bit(not_bit(a), c, out);
  if (is_const(c, false)) return and_bit(a, b, out);
  if (is_const(c, true)) return not_bit(and_bit(a, not_bit(b), out));
  if (is_const(b, true)) return not_bit(and_bit(not_bit(a), not_bit(c), out));
  out.push(value);
  return {false, value, false};
}
// Boolean::sha256_maj, case for case (the general case allocates maj, then b and c).
Bit maj_bit(const Bit& a, const Bit& b, const Bit& c, Bits& out) {
  const bool value = ((a.v && b.v) != (a.v && c.v)) != (b.v && c.v);
  if (a.k && b.k && c.k) return {true, value, false};
  if (is_const(a, false)) return and_bit(b, c, out);
  if (is_const(b, false)) return and_bit(a, c, out);
  if (is_const(c, false)) return and_bit(a, b, out);
  if (is_const(c, true)) return not_bit(and_bit(not_bit(a), not_bit(b), out));
  if (is_const(b, true)) return not_bit(and_bit(not_bit(a), not_bit(c), out));
  if (is_const(a, true)) return not_bit(and_bit(not_bit(b), not_bit(c), out));
  out.push(value);
  and_bit(b, c, out);
  return {false, value, false};
}

template <Bit (*Op)(const Bit&, const Bit&, const Bit&, Bits&)>
Word bitwise3(const Word& a, const Word& b, const Word& c, Bits& out) {
  Word r{0, 0, 0};
  for (unsigned i = 0; i < 32; ++i) {
    const Bit x = Op(bit_of(a, i), bit_of(b, i), bit_of(c, i), out);
    r.v |= uint32_t{x.v} << i;
    r.konst |= uint32_t{x.k} << i;
    r.neg |= uint32_t{!x.k && x.n} << i;
  }
  return r;
}

// UInt32::addmany: all-constant operands give a constant; otherwise every bit of the full sum
// (as many as n * (2^32 - 1) needs) is allocated and the low 32 are the result.
Word addmany(std::span<const Word> ops, Bits& out) {
  uint64_t sum = 0, max_value = 0;
  bool all_constants = true;
  for (const Word& w : ops) {
    sum += w.v;
    max_value += 0xffffffffull;
    all_constants &= w.konst == ~0u;
  }
  if (all_constants) return constant(static_cast<uint32_t>(sum));
  for (unsigned i = 0; max_value != 0; ++i, max_value >>= 1)
    out.push(((sum >> i) & 1) != 0);
  return {static_cast<uint32_t>(sum), 0, 0};
}

// A working variable that is a word, or a sum not yet added (see sha256.cpp's Deferrable).
struct Deferred {
  std::vector<Word> operands;
  Word word;
  Word compute(std::span<const Word> others, Bits& out) const {
    if (operands.empty()) return word;
    std::vector<Word> all = operands;
    all.insert(all.end(), others.begin(), others.end());
    return addmany(all, out);
  }
};

std::optional<Word> word_of(std::span<const Boolean> le_bits) {
  Word w{0, 0, 0};
  for (unsigned i = 0; i < 32; ++i) {
    const Boolean& b = le_bits[i];
    const std::optional<bool> v = b.value();
    if (!v) return std::nullopt;
    w.v |= uint32_t{*v} << i;
    if (b.is_constant()) {
      w.konst |= 1u << i;
    } else if (b.kind() == Boolean::Kind::kNot) {
      w.neg |= 1u << i;
    }
  }
  return w;
}

UInt32 to_uint32(const Word& w) {
  // The variables' indices are never read by a witness-only system; their values are.
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) {
    const bool v = ((w.v >> i) & 1) != 0;
    if ((w.konst >> i) & 1) {
      bits[i] = Boolean::constant(v);
    } else {
      const bool negated = ((w.neg >> i) & 1) != 0;
      const AllocatedBit bit(Variable::aux(0), v != negated);
      bits[i] = negated ? Boolean::negation_of(bit) : Boolean::is(bit);
    }
  }
  return UInt32::from_bits(bits);
}

}  // namespace

std::optional<std::vector<UInt32>> sha256_compression_witness(
    ConstraintSystem& cs, std::span<const Boolean> input,
    std::span<const UInt32> current_hash_value) {
  std::array<Word, 64> w;
  for (size_t i = 0; i < 16; ++i) {
    std::array<Boolean, 32> le;  // from_bits_be
    for (size_t k = 0; k < 32; ++k)
      le[k] = input[32 * i + 31 - k];
    const auto word = word_of(le);
    if (!word) return std::nullopt;
    w[i] = *word;
  }
  std::array<Word, 8> hv;
  for (size_t i = 0; i < 8; ++i) {
    const auto word = word_of(current_hash_value[i].bits());
    if (!word) return std::nullopt;
    hv[i] = *word;
  }

  Bits out;
  for (size_t i = 16; i < 64; ++i) {
    Word s0 = rotr(w[i - 15], 7);
    s0 = xor_words(s0, rotr(w[i - 15], 18), out);
    s0 = xor_words(s0, shr(w[i - 15], 3), out);
    Word s1 = rotr(w[i - 2], 17);
    s1 = xor_words(s1, rotr(w[i - 2], 19), out);
    s1 = xor_words(s1, shr(w[i - 2], 10), out);
    const std::array<Word, 4> ops = {w[i - 16], s0, w[i - 7], s1};
    w[i] = addmany(ops, out);
  }
  // The rounds of sha256_compression_function (sha256.cpp) line for line, over Word: the same
  // operand order, so the variables come out in the circuit's order. Not one template with it:
  // every step differs in kind (a gadget call under its named namespace there, word arithmetic
  // into `out` here); only the working variables' rotation reads alike.
  Deferred a{{}, hv[0]}, e{{}, hv[4]};
  Word b = hv[1], c = hv[2], d = hv[3], f = hv[5], g = hv[6], h = hv[7];
  for (size_t i = 0; i < 64; ++i) {
    const Word new_e = e.compute({}, out);
    Word s1 = rotr(new_e, 6);
    s1 = xor_words(s1, rotr(new_e, 11), out);
    s1 = xor_words(s1, rotr(new_e, 25), out);
    const Word ch = bitwise3<ch_bit>(new_e, f, g, out);
    const Word new_a = a.compute({}, out);
    Word s0 = rotr(new_a, 2);
    s0 = xor_words(s0, rotr(new_a, 13), out);
    s0 = xor_words(s0, rotr(new_a, 22), out);
    const Word maj = bitwise3<maj_bit>(new_a, b, c, out);
    const std::array<Word, 5> temp1 = {h, s1, ch, constant(kSha256RoundConstants[i]), w[i]};
    h = g;
    g = f;
    f = new_e;
    e.operands.assign(temp1.begin(), temp1.end());
    e.operands.push_back(d);
    d = c;
    c = b;
    b = new_a;
    a.operands.assign(temp1.begin(), temp1.end());
    a.operands.push_back(s0);
    a.operands.push_back(maj);
  }
  const auto add2 = [&](const Word& x, const Word& y) {
    const std::array<Word, 2> ops = {x, y};
    return addmany(ops, out);
  };
  std::array<Word, 8> result;
  result[0] = a.compute(std::span(&hv[0], 1), out);
  result[1] = add2(hv[1], b);
  result[2] = add2(hv[2], c);
  result[3] = add2(hv[3], d);
  result[4] = e.compute(std::span(&hv[4], 1), out);
  result[5] = add2(hv[5], f);
  result[6] = add2(hv[6], g);
  result[7] = add2(hv[7], h);
  out.flush(cs);
  std::vector<UInt32> words;
  words.reserve(8);
  for (const Word& r : result)
    words.push_back(to_uint32(r));
  return words;
}

}  // namespace cuzk::gadgets
