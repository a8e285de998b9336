// Set bits of a bitmap, with the CPU's bit-count instruction where it has one (bit_count.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk {

size_t count_set_bits(std::span<const uint64_t> words);

}  // namespace cuzk
