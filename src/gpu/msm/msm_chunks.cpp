#include "gpu/msm/msm_chunks.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace cuzk::gpu {

std::vector<MsmChunk> msm_chunks(size_t n, size_t chunk, std::span<const uint64_t> density,
                                 size_t bases) {
  if (chunk == 0 || chunk % 64 != 0) {
    throw std::invalid_argument("chunked msm: chunk " + std::to_string(chunk) +
                                " is not a positive multiple of 64");
  }
  if (!density.empty() && density.size() < (n + 63) / 64)
    throw std::invalid_argument("chunked msm: the density has fewer bits than scalars");
  std::vector<MsmChunk> out;
  size_t rank = 0;
  for (size_t s0 = 0; s0 < n; s0 += chunk) {
    const size_t s1 = std::min(n, s0 + chunk);
    size_t b1 = s1;
    if (!density.empty()) {
      b1 = rank;
      for (size_t w = s0 / 64; w < (s1 + 63) / 64; ++w) {
        uint64_t word = density[w];
        if (w == s1 / 64 && s1 % 64 != 0) word &= (uint64_t{1} << (s1 % 64)) - 1;
        b1 += static_cast<size_t>(std::popcount(word));
      }
    }
    out.push_back({s0, s1, density.empty() ? s0 : rank, b1});
    rank = b1;
  }
  const size_t used = out.empty() ? 0 : out.back().b1;
  if (used > bases) {
    throw std::invalid_argument("chunked msm: the scalars use " + std::to_string(used) +
                                " bases, " + std::to_string(bases) + " given");
  }
  return out;
}

}  // namespace cuzk::gpu
