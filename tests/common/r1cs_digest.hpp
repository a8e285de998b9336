// SHA-256 of a recorded constraint system: the key under which test suites keep generated test
// parameters on disk between runs (parameters made for one digest fit exactly that circuit).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cs/r1cs.hpp"
#include "filecoin/domain.hpp"
#include "filecoin/hash/sha256.hpp"

namespace cuzk::testing {

// Sizes, then every entry of A, B, C, after `seed` (the toxic-waste seed of the parameters).
inline std::string r1cs_digest(const R1cs& r1cs, std::string_view seed) {
  filecoin::Sha256 h;
  std::vector<uint8_t> buf;
  buf.reserve(1 << 20);
  const auto put64 = [&](uint64_t v) {
    for (int i = 0; i < 8; ++i)
      buf.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  const auto flush = [&] {
    h.update(buf);
    buf.clear();
  };
  buf.insert(buf.end(), seed.begin(), seed.end());
  put64(r1cs.num_inputs);
  put64(r1cs.num_aux);
  put64(r1cs.num_constraints);
  for (const auto* m : {&r1cs.a, &r1cs.b, &r1cs.c}) {
    put64(m->size());
    for (const R1csEntry& e : *m) {
      put64(uint64_t{e.row} << 32 | e.var.index);
      buf.push_back(e.var.is_input() ? 1 : 0);
      const auto coeff = e.coeff.to_bytes_le();
      buf.insert(buf.end(), coeff.begin(), coeff.end());
      if (buf.size() > (1 << 20) - 64) flush();
    }
  }
  flush();
  return filecoin::to_hex(h.finish());
}

}  // namespace cuzk::testing
