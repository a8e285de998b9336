#include "filecoin/merkle/tree_shape.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {

namespace {

unsigned log2_exact(uint32_t arity) {
  return static_cast<unsigned>(std::countr_zero(arity));
}

void require_power_of_two_arity(uint32_t arity, const char* who) {
  if (arity == 0 || !std::has_single_bit(arity)) {
    throw std::invalid_argument(std::string(who) + ": arity " + std::to_string(arity) +
                                " is not a power of two");
  }
}

}  // namespace

void TreeShape::validate() const {
  const auto ok = [](uint32_t a, bool may_be_zero) {
    return (a == 0 && may_be_zero) || (a >= 2 && std::has_single_bit(a));
  };
  if (!ok(base, false) || !ok(sub, true) || !ok(top, true) || (top != 0 && sub == 0)) {
    throw std::invalid_argument("tree shape " + to_string() +
                                ": arities must be powers of two >= 2 (sub/top may be 0), and a "
                                "top level needs a sub level");
  }
}

uint64_t TreeShape::base_tree_count() const {
  if (sub == 0) return 1;
  return top == 0 ? uint64_t{sub} : uint64_t{sub} * top;
}

unsigned TreeShape::path_length(uint64_t total_leaves) const {
  validate();
  const uint64_t per_base = total_leaves / base_tree_count();
  if (per_base == 0 || per_base * base_tree_count() != total_leaves) {
    throw std::invalid_argument("tree shape " + to_string() + ": " + std::to_string(total_leaves) +
                                " leaves do not split into " + std::to_string(base_tree_count()) +
                                " base trees");
  }
  return merkle_tree_row_count(per_base, base) - 1 + (sub != 0 ? 1 : 0) + (top != 0 ? 1 : 0);
}

std::string TreeShape::to_string() const {
  return std::to_string(base) + "-" + std::to_string(sub) + "-" + std::to_string(top);
}

uint64_t merkle_tree_len(uint64_t leaves, uint32_t arity) {
  if (leaves < arity || arity == 0) {
    throw std::invalid_argument("merkle_tree_len: " + std::to_string(leaves) +
                                " leaves and arity " + std::to_string(arity) + " mismatch");
  }
  require_power_of_two_arity(arity, "merkle_tree_len");
  if (arity == 2) {
    if (!std::has_single_bit(leaves)) {
      throw std::invalid_argument("merkle_tree_len: " + std::to_string(leaves) +
                                  " leaves is not a power of two");
    }
    return 2 * leaves - 1;
  }
  const unsigned shift = log2_exact(arity);
  if (shift == 0) return leaves;
  uint64_t len = leaves;
  for (uint64_t cur = leaves >> shift; cur > 0; cur >>= shift)
    len += cur;
  return len;
}

unsigned merkle_tree_row_count(uint64_t leaves, uint32_t arity) {
  if (leaves == 0 || arity < 2) {
    throw std::invalid_argument("merkle_tree_row_count: " + std::to_string(leaves) +
                                " leaves, arity " + std::to_string(arity));
  }
  require_power_of_two_arity(arity, "merkle_tree_row_count");
  if (arity == 2) return static_cast<unsigned>(std::countr_zero(leaves * 2));
  // floor(log_arity(arity * leaves)) = 1 + floor(floor(log2 leaves) / log2 arity).
  return 1 + static_cast<unsigned>(std::bit_width(leaves) - 1) / log2_exact(arity);
}

uint64_t merkle_tree_leaves(uint64_t len, uint32_t arity) {
  require_power_of_two_arity(arity, "merkle_tree_leaves");
  const auto bad = [&] {
    return std::invalid_argument("merkle_tree_leaves: " + std::to_string(len) +
                                 " is not the length of a tree of arity " + std::to_string(arity));
  };
  uint64_t leaves = 0;
  if (arity == 2) {
    leaves = (len >> 1) + 1;
  } else {
    if (arity == 1 || len == 0) throw bad();
    const unsigned shift = log2_exact(arity);
    leaves = 1;
    uint64_t cur = len;
    while (cur != 1) {
      leaves <<= shift;
      if (cur <= leaves) throw bad();
      cur -= leaves;
    }
  }
  if (!std::has_single_bit(leaves) || merkle_tree_len(leaves, arity) != len) throw bad();
  return leaves;
}

bool merkle_tree_size_valid(uint64_t leaves, uint32_t arity) {
  if (arity == 0 || !std::has_single_bit(leaves) || !std::has_single_bit(arity)) return false;
  const unsigned shift = log2_exact(arity);
  if (shift == 0) return leaves == 1;
  uint64_t cur = leaves;
  while (cur != 1) {
    cur >>= shift;
    if (cur == 0) return false;
  }
  return true;
}

uint64_t merkle_tree_cache_size(uint64_t leaves, uint32_t arity, unsigned rows_to_discard) {
  uint64_t size = merkle_tree_len(leaves, arity);
  const unsigned rows = merkle_tree_row_count(leaves, arity);
  if (rows - 1 <= rows_to_discard) {
    throw std::invalid_argument("merkle_tree_cache_size: cannot discard " +
                                std::to_string(rows_to_discard) + " of the " +
                                std::to_string(rows - 1) + " rows above the leaves");
  }
  // The leaves plus `rows_to_discard` rows go; everything above stays.
  const unsigned shift = log2_exact(arity);
  uint64_t width = leaves;
  for (unsigned r = 0; r <= rows_to_discard; ++r, width >>= shift)
    size -= width;
  return size;
}

unsigned default_rows_to_discard(uint64_t leaves, uint32_t arity, unsigned configured) {
  const unsigned rows = merkle_tree_row_count(leaves, arity);
  if (rows <= 2) return 0;
  if (rows == 3) return 1;
  const unsigned max_discard = rows - 2;
  switch (arity) {
    case 2:
      return std::min(max_discard, 7u);
    case 4:
      return std::min(max_discard, 5u);
    default:
      return std::min(max_discard, configured);
  }
}

}  // namespace cuzk::filecoin
