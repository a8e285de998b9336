#include "filecoin/pieces.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

std::string str(uint64_t v) {
  return std::to_string(v);
}

bool is_zero(const Domain& d) {
  return std::all_of(d.begin(), d.end(), [](uint8_t b) { return b == 0; });
}

// ensure_piece_size in api/mod.rs.
void check_piece_size(uint64_t piece_size, const char* who) {
  if (piece_size < kMinimumPieceSize) {
    throw std::invalid_argument(std::string(who) + ": piece size " + str(piece_size) +
                                " is below the minimum of " + str(kMinimumPieceSize) + " bytes");
  }
  if (!std::has_single_bit(fr32_padded_bytes(piece_size))) {
    throw std::invalid_argument(std::string(who) + ": piece size " + str(piece_size) + " pads to " +
                                str(fr32_padded_bytes(piece_size)) + " bytes, not a power of two");
  }
}

}  // namespace

PieceInfo make_piece_info(const Domain& commitment, uint64_t unpadded_size) {
  if (is_zero(commitment)) {
    throw std::invalid_argument("make_piece_info: all-zero commitment for a piece of " +
                                str(unpadded_size) + " bytes");
  }
  return PieceInfo{commitment, unpadded_size};
}

PieceInfo zero_padding(uint64_t unpadded_size) {
  const uint64_t padded = fr32_padded_bytes(unpadded_size);
  if (padded < 2 * kNodeSize || !std::has_single_bit(padded)) {
    throw std::invalid_argument("zero_padding: piece of " + str(unpadded_size) + " bytes pads to " +
                                str(padded) + ", not a power of two >= 64");
  }
  const unsigned level = static_cast<unsigned>(std::countr_zero(padded / kNodeSize));
  return make_piece_info(zero_subtree_root(level), unpadded_size);
}

Domain empty_comm_d(uint64_t sector_size) {
  if (sector_size < 2 * kNodeSize || !std::has_single_bit(sector_size)) {
    throw std::invalid_argument("empty_comm_d: sector size " + str(sector_size) +
                                " is not a power of two >= 64");
  }
  return zero_subtree_root(static_cast<unsigned>(std::countr_zero(sector_size / kNodeSize)));
}

Domain compute_comm_d(uint64_t sector_size, std::span<const PieceInfo> pieces) {
  if (pieces.empty()) return empty_comm_d(sector_size);

  const uint64_t unpadded_sector = fr32_unpadded_bytes(sector_size);
  if (pieces.size() > unpadded_sector / kMinimumPieceSize) {
    throw std::invalid_argument("compute_comm_d: too many pieces (" + str(pieces.size()) +
                                ") for a sector of " + str(sector_size) + " bytes");
  }
  uint64_t padded_sum = 0;
  for (const PieceInfo& p : pieces)
    padded_sum += fr32_padded_bytes(p.size);
  if (padded_sum > sector_size) {
    throw std::invalid_argument("compute_comm_d: pieces pad to " + str(padded_sum) +
                                " bytes, more than the sector size " + str(sector_size));
  }

  std::vector<PieceInfo> stack;
  auto shift_reduce = [&](const PieceInfo& p) {
    stack.push_back(p);
    while (stack.size() >= 2 && stack[stack.size() - 1].size == stack[stack.size() - 2].size) {
      const PieceInfo right = stack.back();
      stack.pop_back();
      PieceInfo& left = stack.back();
      left.commitment = piece_hash(left.commitment, right.commitment);
      left.size += right.size;
    }
  };
  auto check_power_of_two = [&](const PieceInfo& p) {
    if (!std::has_single_bit(fr32_padded_bytes(p.size))) {
      throw std::invalid_argument("compute_comm_d: piece size " + str(p.size) + " pads to " +
                                  str(fr32_padded_bytes(p.size)) + " bytes, not a power of two");
    }
  };

  check_power_of_two(pieces[0]);
  stack.push_back(pieces[0]);
  for (const PieceInfo& p : pieces.subspan(1)) {
    check_power_of_two(p);
    while (stack.back().size < p.size)
      shift_reduce(zero_padding(stack.back().size));
    shift_reduce(p);
  }
  while (stack.size() > 1)
    shift_reduce(zero_padding(stack.back().size));
  return stack.back().commitment;
}

bool verify_pieces(const Domain& comm_d, std::span<const PieceInfo> pieces, uint64_t sector_size) {
  return compute_comm_d(sector_size, pieces) == comm_d;
}

Domain comm_p_from_padded(std::span<const uint8_t> padded, ThreadPool* pool) {
  // generate_piece_commitment_bytes_from_source: more than one node, whole nodes.
  if (padded.size() <= kNodeSize) {
    throw std::invalid_argument("comm_p_from_padded: piece of " + str(padded.size()) +
                                " padded bytes is too small");
  }
  return sha256_tree_root(padded, pool);
}

PieceInfo generate_piece_commitment(std::span<const uint8_t> data, uint64_t piece_size,
                                    ThreadPool* pool) {
  check_piece_size(piece_size, "generate_piece_commitment");
  if (data.size() != piece_size) {
    throw std::invalid_argument("generate_piece_commitment: " + str(data.size()) +
                                " data bytes for a piece of " + str(piece_size));
  }
  const std::vector<uint8_t> padded = fr32_pad(data);
  return make_piece_info(comm_p_from_padded(padded, pool), piece_size);
}

PieceCommitmentBuilder::PieceCommitmentBuilder(uint64_t piece_size) : piece_size_(piece_size) {
  check_piece_size(piece_size, "PieceCommitmentBuilder");
}

void PieceCommitmentBuilder::write(std::span<const uint8_t> data) {
  if (padder_.bytes_in() + data.size() > piece_size_) {
    throw std::invalid_argument("PieceCommitmentBuilder: more than the piece size of " +
                                str(piece_size_) + " bytes written");
  }
  padder_.write(data, [&](std::span<const uint8_t> padded) { tree_.push_leaves(padded); });
}

PieceInfo PieceCommitmentBuilder::finish() {
  if (padder_.bytes_in() != piece_size_) {
    throw std::invalid_argument("PieceCommitmentBuilder: " + str(padder_.bytes_in()) +
                                " bytes written for a piece of " + str(piece_size_));
  }
  padder_.finish([&](std::span<const uint8_t> padded) { tree_.push_leaves(padded); });
  return make_piece_info(tree_.finish(), piece_size_);
}

PieceAlignment get_piece_alignment(uint64_t written_bytes, uint64_t piece_bytes) {
  uint64_t needed = kMinimumPieceSize;
  while (needed < piece_bytes)
    needed *= 2;
  const uint64_t encroaching = written_bytes % needed;
  PieceAlignment a;
  a.left_bytes = encroaching > 0 ? needed - encroaching : 0;
  a.right_bytes = needed - piece_bytes;
  return a;
}

uint64_t sum_piece_bytes_with_alignment(std::span<const uint64_t> pieces) {
  uint64_t acc = 0;
  for (uint64_t p : pieces)
    acc += get_piece_alignment(acc, p).sum(p);
  return acc;
}

uint64_t get_piece_start_byte(std::span<const uint64_t> pieces, uint64_t piece_bytes) {
  const uint64_t last = sum_piece_bytes_with_alignment(pieces);
  return last + get_piece_alignment(last, piece_bytes).left_bytes;
}

}  // namespace cuzk::filecoin
