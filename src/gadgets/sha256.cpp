#include "gadgets/sha256.hpp"

#include <stdexcept>

#include "gadgets/multieq.hpp"
#include "gadgets/scope.hpp"
#include "gadgets/sha256_witness.hpp"

namespace cuzk::gadgets {

namespace {

// A working variable that is either a word or a sum not yet added: bellperson keeps the new a
// and e of each round as operand lists and adds them (with anything appended) only when the
// next round or the final addition uses them, saving one addition per round for each.
struct Deferrable {
  std::vector<UInt32> operands;  // pending sum when non-empty
  UInt32 word;                   // the value otherwise

  // In the namespace `name` (pushed even when nothing is deferred, as bellperson does).
  UInt32 compute(MultiEq& cs, const char* name, std::span<const UInt32> others) const {
    const Ns ns(cs, Name{name});
    if (operands.empty()) return word;
    std::vector<UInt32> all = operands;
    all.insert(all.end(), others.begin(), others.end());
    return UInt32::addmany(cs, all);
  }
};

std::vector<Boolean> words_to_bits_be(const std::vector<UInt32>& words) {
  std::vector<Boolean> out;
  out.reserve(32 * words.size());
  for (const UInt32& w : words) {
    for (size_t i = 32; i-- > 0;)
      out.push_back(w.bits()[i]);
  }
  return out;
}

}  // namespace

std::vector<UInt32> sha256_iv() {
  std::vector<UInt32> iv;
  iv.reserve(8);
  for (uint32_t w : kSha256Iv)
    iv.push_back(UInt32::constant(w));
  return iv;
}

std::vector<UInt32> sha256_compression_function(ConstraintSystem& outer,
                                                std::span<const Boolean> input,
                                                std::span<const UInt32> current_hash_value) {
  if (input.size() != 512) throw std::invalid_argument("sha256 compression: need 512 bits");
  if (current_hash_value.size() != 8) {
    throw std::invalid_argument("sha256 compression: need 8 chaining words");
  }
  if (outer.is_witness_only()) {
    if (auto words = sha256_compression_witness(outer, input, current_hash_value)) return *words;
  }

  std::vector<UInt32> w;
  w.reserve(64);
  for (size_t i = 0; i < 16; ++i)
    w.push_back(UInt32::from_bits_be(input.subspan(32 * i, 32)));

  // One MultiEq for all additions of the block.
  MultiEq cs(outer);

  for (size_t i = 16; i < 64; ++i) {
    const Ns ns(cs, NameN{"w extension ", i});
    // s0 = (w[i-15] >>> 7) ^ (w[i-15] >>> 18) ^ (w[i-15] >> 3)
    UInt32 s0 = w[i - 15].rotr(7);
    s0 = s0.xor_(Ns(cs, Name{"first xor for s0"}), w[i - 15].rotr(18));
    s0 = s0.xor_(Ns(cs, Name{"second xor for s0"}), w[i - 15].shr(3));
    // s1 = (w[i-2] >>> 17) ^ (w[i-2] >>> 19) ^ (w[i-2] >> 10)
    UInt32 s1 = w[i - 2].rotr(17);
    s1 = s1.xor_(Ns(cs, Name{"first xor for s1"}), w[i - 2].rotr(19));
    s1 = s1.xor_(Ns(cs, Name{"second xor for s1"}), w[i - 2].shr(10));
    // w[i] = w[i-16] + s0 + w[i-7] + s1
    const std::array<UInt32, 4> ops = {w[i - 16], s0, w[i - 7], s1};
    const Ns add_ns(cs, Name{"computation of w[i]"});
    w.push_back(UInt32::addmany(cs, ops));
  }

  Deferrable a{{}, current_hash_value[0]};
  UInt32 b = current_hash_value[1];
  UInt32 c = current_hash_value[2];
  UInt32 d = current_hash_value[3];
  Deferrable e{{}, current_hash_value[4]};
  UInt32 f = current_hash_value[5];
  UInt32 g = current_hash_value[6];
  UInt32 h = current_hash_value[7];

  for (size_t i = 0; i < 64; ++i) {
    const Ns ns(cs, NameN{"compression round ", i});

    // S1 = (e >>> 6) ^ (e >>> 11) ^ (e >>> 25)
    const UInt32 new_e = e.compute(cs, "deferred e computation", {});
    UInt32 s1 = new_e.rotr(6);
    s1 = s1.xor_(Ns(cs, Name{"first xor for s1"}), new_e.rotr(11));
    s1 = s1.xor_(Ns(cs, Name{"second xor for s1"}), new_e.rotr(25));

    // ch = (e & f) ^ (~e & g)
    const UInt32 ch = UInt32::sha256_ch(Ns(cs, Name{"ch"}), new_e, f, g);

    // S0 = (a >>> 2) ^ (a >>> 13) ^ (a >>> 22)
    const UInt32 new_a = a.compute(cs, "deferred a computation", {});
    UInt32 s0 = new_a.rotr(2);
    s0 = s0.xor_(Ns(cs, Name{"first xor for s0"}), new_a.rotr(13));
    s0 = s0.xor_(Ns(cs, Name{"second xor for s0"}), new_a.rotr(22));

    // maj = (a & b) ^ (a & c) ^ (b & c)
    const UInt32 maj = UInt32::sha256_maj(Ns(cs, Name{"maj"}), new_a, b, c);

    // temp1 = h + S1 + ch + k[i] + w[i]; temp2 = S0 + maj
    // e' = d + temp1 and a' = temp1 + temp2 stay deferred, in this operand order.
    const std::array<UInt32, 5> temp1 = {h, s1, ch, UInt32::constant(kSha256RoundConstants[i]),
                                         w[i]};
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

  // H_k += working variable k; h0 and h4 fold the chaining word into the deferred sums.
  std::vector<UInt32> out;
  out.reserve(8);
  const auto add2 = [&](const char* name, const UInt32& x, const UInt32& y) {
    const Ns ns(cs, Name{name});
    const std::array<UInt32, 2> ops = {x, y};
    return UInt32::addmany(cs, ops);
  };
  out.push_back(a.compute(cs, "deferred h0 computation", std::span(&current_hash_value[0], 1)));
  out.push_back(add2("new h1", current_hash_value[1], b));
  out.push_back(add2("new h2", current_hash_value[2], c));
  out.push_back(add2("new h3", current_hash_value[3], d));
  out.push_back(e.compute(cs, "deferred h4 computation", std::span(&current_hash_value[4], 1)));
  out.push_back(add2("new h5", current_hash_value[5], f));
  out.push_back(add2("new h6", current_hash_value[6], g));
  out.push_back(add2("new h7", current_hash_value[7], h));

  // The last batch, emitted under the caller's namespace (bellperson: when its MultiEq drops).
  cs.finish();
  return out;
}

std::vector<Boolean> sha256_block_no_padding(ConstraintSystem& cs, std::span<const Boolean> input) {
  if (input.size() != 512) throw std::invalid_argument("sha256_block_no_padding: need 512 bits");
  const std::vector<UInt32> iv = sha256_iv();
  return words_to_bits_be(sha256_compression_function(cs, input, iv));
}

std::vector<Boolean> sha256(ConstraintSystem& cs, std::span<const Boolean> input) {
  if (input.size() % 8 != 0) throw std::invalid_argument("sha256: input must be whole bytes");
  // Padding: a one bit, zeros up to 448 mod 512, the bit length as 64 bits big-endian.
  std::vector<Boolean> padded(input.begin(), input.end());
  const uint64_t bit_len = input.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0)
    padded.push_back(Boolean::constant(false));
  for (size_t i = 64; i-- > 0;)
    padded.push_back(Boolean::constant(((bit_len >> i) & 1) != 0));

  std::vector<UInt32> cur = sha256_iv();
  const std::span<const Boolean> blocks(padded);
  for (size_t i = 0; i * 512 < padded.size(); ++i) {
    cur =
        sha256_compression_function(Ns(cs, NameN{"block ", i}), blocks.subspan(512 * i, 512), cur);
  }
  return words_to_bits_be(cur);
}

}  // namespace cuzk::gadgets
