// Device-side inputs for benchmarks and large checks, made on the device so that a 2^27-element
// run does not spend seconds generating and copying host data.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ff/fr.hpp"

namespace cuzk::gpu {

// d[i] = a pseudo-random field element (splitmix64 of seed and i; values below 2^254, taken as
// Montgomery limbs, hence valid and uniform-looking residues).
void fill_random_fr(Fr* d_out, size_t n, uint64_t seed, cudaStream_t s);
// Each of the n bits of d_words (packed 32-bit words) set with probability percent / 100.
void fill_random_bits(uint32_t* d_words, size_t n, unsigned percent, uint64_t seed, cudaStream_t s);
// Repeats the first `have` elements of d (element size `bytes`) until `total` are filled.
void tile_device(void* d, size_t bytes, size_t have, size_t total, cudaStream_t s);

}  // namespace cuzk::gpu
