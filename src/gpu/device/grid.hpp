// Grid sizes for the 1-D grid-stride kernels: one thread per element up to a cap of blocks (the
// kernels loop beyond it).
#pragma once

#include <cstddef>

namespace cuzk::gpu {

inline unsigned grid_for(size_t n, unsigned threads, unsigned max_blocks = 65535u * 8) {
  const size_t blocks = (n + threads - 1) / threads;
  return static_cast<unsigned>(blocks < max_blocks ? (blocks == 0 ? 1 : blocks) : max_blocks);
}

}  // namespace cuzk::gpu
