// The shape of Filecoin's 32 GiB PoRep .params (facts sheet 8.3): 328 ic points, h 134 217 727,
// l 130 169 893, a 129 753 620 and b_g1 = b_g2 33 112 282 points, 47 373 928 632 bytes in all.
// Written as a sparse file: a vk with that many ic points and the five lengths where the layout
// puts them, zeros (no point decodes from them) elsewhere, the facts' size set, not computed.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "groth16/bellperson_format.hpp"

namespace cuzk::testing {

struct Porep32gShape {
  static constexpr uint64_t kFileBytes = 47'373'928'632;
  static constexpr uint64_t kIc = 328;
  static constexpr uint64_t kVkBytes = 32'356;  // 868 + 96 * 328
  static constexpr std::array<uint64_t, 5> kCounts = {134'217'727, 130'169'893, 129'753'620,
                                                      33'112'282, 33'112'282};

  groth16::VerifyingKey vk;
  std::array<uint64_t, 5> offsets{};  // of each section's first point, as written

  // Writes the file at `path` (replacing it).
  explicit Porep32gShape(const std::filesystem::path& path) {
    vk.alpha_g1 = vk.beta_g1 = vk.delta_g1 = G1Affine::generator();
    vk.beta_g2 = vk.gamma_g2 = vk.delta_g2 = G2Affine::generator();
    vk.ic.assign(kIc, G1Affine::generator());
    const std::vector<uint8_t> vk_bytes = groth16::serialize_verifying_key(vk);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("cannot create " + path.string());
    bool ok = ::pwrite(fd, vk_bytes.data(), vk_bytes.size(), 0) == ssize_t(vk_bytes.size());
    uint64_t at = vk_bytes.size();
    for (size_t s = 0; s < 5; ++s) {
      const uint64_t n = kCounts[s];
      const uint8_t word[4] = {uint8_t(n >> 24), uint8_t(n >> 16), uint8_t(n >> 8), uint8_t(n)};
      ok = ok && ::pwrite(fd, word, 4, off_t(at)) == 4;
      offsets[s] = at + 4;
      at += 4 + n * (s == 4 ? kG2UncompressedBytes : kG1UncompressedBytes);
    }
    ok = ok && ::ftruncate(fd, off_t(kFileBytes)) == 0;  // the facts' size, not the sum above
    ::close(fd);
    if (!ok) throw std::runtime_error("cannot write " + path.string());
  }
};

}  // namespace cuzk::testing
