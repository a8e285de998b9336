#include "filecoin/sector_shape.hpp"

#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

// filecoin-proofs/src/constants.rs: SectorShape{Base,Sub2,Sub8,Top2} per size, LAYERS,
// WINDOW_POST_SECTOR_COUNT.
const SectorShape kShapes[] = {
    {2 * kKiB, 2 * kKiB / 32, {8, 0, 0}, 2, 2},
    {4 * kKiB, 4 * kKiB / 32, {8, 2, 0}, 2, 2},
    {16 * kKiB, 16 * kKiB / 32, {8, 8, 0}, 2, 2},
    {32 * kKiB, 32 * kKiB / 32, {8, 8, 2}, 2, 2},
    {8 * kMiB, 8 * kMiB / 32, {8, 0, 0}, 2, 2},
    {16 * kMiB, 16 * kMiB / 32, {8, 2, 0}, 2, 2},
    {512 * kMiB, 512 * kMiB / 32, {8, 0, 0}, 2, 2},
    {1 * kGiB, 1 * kGiB / 32, {8, 2, 0}, 2, 2},
    {32 * kGiB, 32 * kGiB / 32, {8, 8, 0}, 11, 2349},
    {64 * kGiB, 64 * kGiB / 32, {8, 8, 2}, 11, 2300},
};

bool is_large(uint64_t sector_size) {
  return sector_shape(sector_size).layers == 11;  // 32 GiB and 64 GiB
}

bool non_interactive(std::optional<ApiFeature> f) {
  return f == ApiFeature::kNonInteractivePoRep;
}

}  // namespace

const SectorShape& sector_shape(uint64_t sector_size) {
  for (const SectorShape& s : kShapes)
    if (s.sector_size == sector_size) return s;
  throw std::invalid_argument("unsupported sector size " + std::to_string(sector_size) + " bytes");
}

unsigned porep_partitions(uint64_t sector_size, std::optional<ApiFeature> feature) {
  if (non_interactive(feature)) return is_large(sector_size) ? 126 : 13;
  return is_large(sector_size) ? 10 : 1;
}

unsigned porep_minimum_challenges(uint64_t sector_size, std::optional<ApiFeature> feature) {
  if (non_interactive(feature)) return is_large(sector_size) ? 2253 : 26;
  return is_large(sector_size) ? 176 : 2;
}

unsigned porep_challenges_per_partition(uint64_t sector_size, std::optional<ApiFeature> feature,
                                        unsigned partitions) {
  if (partitions == 0) throw std::invalid_argument("porep_challenges_per_partition: 0 partitions");
  const unsigned minimum = porep_minimum_challenges(sector_size, feature);
  const unsigned per = 1 + (minimum - 1) / partitions;
  if (per > kMaxChallengesPerPartition) {
    throw std::invalid_argument("porep_challenges_per_partition: " + std::to_string(per) +
                                " challenges per partition exceed " +
                                std::to_string(kMaxChallengesPerPartition) + " (" +
                                std::to_string(partitions) + " partitions)");
  }
  return per;
}

uint64_t parse_sector_size(std::string_view text) {
  const auto bad = [&] {
    return std::invalid_argument("sector size \"" + std::string(text) +
                                 "\": expected e.g. 2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes");
  };
  size_t i = 0;
  uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (value > (UINT64_MAX - 9) / 10) throw bad();
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) throw bad();
  std::string unit;
  for (; i < text.size(); ++i)
    unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  unsigned shift = 0;
  if (unit.empty() || unit == "b") {
    shift = 0;
  } else if (unit == "k" || unit == "kib") {
    shift = 10;
  } else if (unit == "m" || unit == "mib") {
    shift = 20;
  } else if (unit == "g" || unit == "gib") {
    shift = 30;
  } else {
    throw bad();
  }
  if (value > (UINT64_MAX >> shift)) throw bad();
  return value << shift;
}

}  // namespace cuzk::filecoin
