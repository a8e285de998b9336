#include "circuits/insertion.hpp"

#include <optional>
#include <stdexcept>

#include "circuits/names.hpp"

namespace cuzk::circuits {

namespace {

using gadgets::AllocatedBit;

// insertion.rs `insert_2`.
std::vector<AllocatedNum> insert_2(ConstraintSystem& cs, const AllocatedNum& a,
                                   std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> elements) {
  const AllocatedNum p0 = pick(Ns(cs, Name{"binary insert 0"}), bits[0], elements[0], a);
  const AllocatedNum p1 = pick(Ns(cs, Name{"binary insert 1"}), bits[0], a, elements[0]);
  return {p0, p1};
}

// insertion.rs `insert_4`: two picks per slot; `pN_xB` names the slot-N value when bit 1 is B.
std::vector<AllocatedNum> insert_4(ConstraintSystem& cs, const AllocatedNum& a,
                                   std::span<const Boolean> bits, std::span<const AllocatedNum> e) {
  const Boolean &b0 = bits[0], &b1 = bits[1];
  const AllocatedNum &b = e[0], &c = e[1], &d = e[2];
  const auto w = [&](const char* name, const Boolean& cond, const AllocatedNum& x,
                     const AllocatedNum& y) { return pick(Ns(cs, Name{name}), cond, x, y); };
  const AllocatedNum p0_x0 = w("p0_x0", b0, b, a);
  const AllocatedNum p0 = w("p0", b1, b, p0_x0);
  const AllocatedNum p1_x0 = w("p1_x0", b0, a, b);
  const AllocatedNum p1 = w("p1", b1, c, p1_x0);
  const AllocatedNum p2_x1 = w("p2_x1", b0, d, a);
  const AllocatedNum p2 = w("p2", b1, p2_x1, c);
  const AllocatedNum p3_x1 = w("p3_x1", b0, a, d);
  const AllocatedNum p3 = w("p3", b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

const AllocatedBit& plain_bit(const Boolean& b) {
  if (b.kind() != Boolean::Kind::kIs) {
    throw std::invalid_argument("insert (size 8): bits must be allocated and unnegated");
  }
  return b.bit();
}

// Its picks read like insert_4's: one line per pick in insertion.rs's order, named as the
// constraint paths the parameters were made with.
// insertion.rs `insert_8`: "b0 nor b1" and "b0 and b1" first, then the picks slot by slot.
std::vector<AllocatedNum> insert_8(ConstraintSystem& cs, const AllocatedNum& a,
                                   std::span<const Boolean> bits, std::span<const AllocatedNum> e) {
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  const AllocatedNum &b = e[0], &c = e[1], &d = e[2], &ee = e[3], &f = e[4], &g = e[5], &h = e[6];
  const Boolean b0_nor_b1 =
      AllocatedBit::nor(Ns(cs, Name{"b0 nor b1"}), plain_bit(b0), plain_bit(b1));
  const Boolean b0_and_b1 =
      AllocatedBit::and_(Ns(cs, Name{"b0 and b1"}), plain_bit(b0), plain_bit(b1));
  const auto w = [&](const char* name, const Boolean& cond, const AllocatedNum& x,
                     const AllocatedNum& y) { return pick(Ns(cs, Name{name}), cond, x, y); };

  const AllocatedNum p0_xx0 = w("p0_xx0", b0_nor_b1, a, b);
  const AllocatedNum p0 = w("p0", b2, b, p0_xx0);

  const AllocatedNum p1_x00 = w("p1_x00", b0, a, b);
  const AllocatedNum p1_xx0 = w("p1_xx0", b1, c, p1_x00);
  const AllocatedNum p1 = w("p1", b2, c, p1_xx0);

  const AllocatedNum p2_x10 = w("p2_x10", b0, d, a);
  const AllocatedNum p2_xx0 = w("p2_xx0", b1, p2_x10, c);
  const AllocatedNum p2 = w("p2", b2, d, p2_xx0);

  const AllocatedNum p3_xx0 = w("p3_xx0", b0_and_b1, a, d);
  const AllocatedNum p3 = w("p3", b2, ee, p3_xx0);

  const AllocatedNum p4_xx1 = w("p4_xx1", b0_nor_b1, a, f);
  const AllocatedNum p4 = w("p4", b2, p4_xx1, ee);

  const AllocatedNum p5_x01 = w("p5_x01", b0, a, f);
  const AllocatedNum p5_xx1 = w("p5_xx1", b1, g, p5_x01);
  const AllocatedNum p5 = w("p5", b2, p5_xx1, f);

  const AllocatedNum p6_x11 = w("p6_x11", b0, h, a);
  const AllocatedNum p6_xx1 = w("p6_xx1", b1, p6_x11, g);
  const AllocatedNum p6 = w("p6", b2, p6_xx1, g);

  const AllocatedNum p7_xx1 = w("p7_xx1", b0_and_b1, a, h);
  const AllocatedNum p7 = w("p7", b2, p7_xx1, h);

  return {p0, p1, p2, p3, p4, p5, p6, p7};
}

}  // namespace

AllocatedNum pick(ConstraintSystem& cs, const Boolean& condition, const AllocatedNum& a,
                  const AllocatedNum& b) {
  std::optional<Fr> value;
  if (const std::optional<bool> cond = condition.value()) value = *cond ? a.value() : b.value();
  const AllocatedNum c = AllocatedNum::alloc(Ns(cs, Name{"pick result"}), value);
  // (b - a) * condition = b - c: c = a when the condition holds, else b.
  cs.enforce(
      Name{"pick"},
      [&](LinearCombination& lc) {
        lc += b.variable();
        lc -= a.variable();
      },
      [&](LinearCombination& lc) { condition.add_lc(lc, Variable::one(), Fr::one()); },
      [&](LinearCombination& lc) {
        lc += b.variable();
        lc -= c.variable();
      });
  return c;
}

AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from,
                    std::span<const Boolean> path_bits) {
  if (path_bits.size() >= 64 || (size_t{1} << path_bits.size()) != from.size()) {
    throw std::invalid_argument("select: 2^bits must equal the number of elements");
  }
  std::vector<AllocatedNum> state(from.begin(), from.end());
  size_t half = from.size() / 2;
  // Most significant bit first: each step keeps the lower or upper half.
  for (size_t i = 0; i < path_bits.size(); ++i) {
    const Boolean& bit = path_bits[path_bits.size() - 1 - i];
    std::vector<AllocatedNum> next;
    next.reserve(half);
    for (size_t j = 0; j < half; ++j)
      next.push_back(pick(Ns(cs, NameNN{"pick ", i, ", ", j}), bit, state[half + j], state[j]));
    state = std::move(next);
    half /= 2;
  }
  return state.front();
}

std::vector<AllocatedNum> insert(ConstraintSystem& cs, const AllocatedNum& element,
                                 std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
  const size_t size = elements.size() + 1;
  if (bits.size() >= 64 || (size_t{1} << bits.size()) != size) {
    throw std::invalid_argument("insert: 2^bits must equal the number of elements + 1");
  }
  if (size == 2) return insert_2(cs, element, bits, elements);
  if (size == 4) return insert_4(cs, element, bits, elements);
  if (size == 8) return insert_8(cs, element, bits, elements);

  // General case: the value of each slot over all indices is a column of the table
  // "index -> elements with x inserted at index"; select it by the bits.
  std::vector<AllocatedNum> result;
  result.reserve(size);
  std::vector<AllocatedNum> choices(size);
  for (size_t pos = 0; pos < size; ++pos) {
    for (size_t index = 0; index < size; ++index) {
      if (pos < index) {
        choices[index] = elements[pos];
      } else if (pos == index) {
        choices[index] = element;
      } else {
        choices[index] = elements[pos - 1];
      }
    }
    result.push_back(select(Ns(cs, NameN{"choice at ", pos}), choices, bits));
  }
  return result;
}

}  // namespace cuzk::circuits
