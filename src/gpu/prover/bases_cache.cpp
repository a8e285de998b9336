#include "gpu/prover/bases_cache.hpp"

namespace cuzk::gpu {

uint64_t sample_fingerprint(const void* data, size_t count, size_t size) {
  uint64_t h = 0xcbf29ce484222325ULL;
  const auto* bytes = static_cast<const uint8_t*>(data);
  const size_t samples = count < 64 ? count : 64;
  for (size_t k = 0; k < samples; ++k) {
    const size_t i = samples == 1 ? 0 : k * (count - 1) / (samples - 1);
    const uint8_t* p = bytes + i * size;
    for (size_t j = 0; j < size; ++j) {
      h ^= p[j];
      h *= 0x100000001b3ULL;
    }
  }
  return h ^ count;
}

uint64_t source_run_key(const SourceRun& run) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const uint64_t v : {run.source->identity(), static_cast<uint64_t>(run.section), run.first}) {
    h ^= v;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace cuzk::gpu
