// bellperson's parameter files (facts sheet 8.3), all points uncompressed, lengths u32 big-endian:
//   .vk     = alpha_g1 | beta_g1 | beta_g2 | gamma_g2 | delta_g1 | delta_g2 | u32 n | ic[n]
//   .params = .vk bytes | u32 n h[n] | u32 n l[n] | u32 n a[n] | u32 n b_g1[n] | u32 n b_g2[n]
// Readers map the file and report the file and byte offset of any truncation or bad point.
// A layout scan finds where each vector lies without decoding its points: a reader that decodes
// them later, a piece at a time (decode_points), needs only the vk pages and five length words.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "groth16/point_source.hpp"
#include "groth16/types.hpp"
#include "util/progress.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// A malformed file: the message names the file, the byte offset and what was wrong.
class FormatError : public std::runtime_error {
 public:
  FormatError(const std::string& file, uint64_t offset, const std::string& what);
  uint64_t offset() const { return offset_; }

 private:
  uint64_t offset_;
};

std::vector<uint8_t> serialize_verifying_key(const VerifyingKey& vk);
// The points from the vectors: std::invalid_argument for a set whose points are behind a source.
std::vector<uint8_t> serialize_parameters(const Parameters& params);

// `name` labels errors (usually the file name). The verifying key's points are always fully
// checked; `check` applies to the bulk vectors of the parameters (rust-fil-proofs maps .params
// unchecked; on-curve is still verified).
VerifyingKey parse_verifying_key(std::span<const uint8_t> bytes, const std::string& name);
// `consumed`, when given, is told of each part of `bytes` as soon as its points are decoded (in
// slabs of a few hundred MB), so that a mapped file's pages can be released as it goes.
// `progress` hears each vector's points as they are decoded (and subgroup-checked): phases
// "h", "l", "a", "b_g1", "b_g2" with " + subgroup check" when checked.
using ConsumedFn = std::function<void(std::span<const uint8_t>)>;
Parameters parse_parameters(std::span<const uint8_t> bytes, const std::string& name,
                            SubgroupCheck check, ThreadPool& pool,
                            const ConsumedFn& consumed = nullptr,
                            const ProgressFn& progress = nullptr);

void write_verifying_key(const std::filesystem::path& path, const VerifyingKey& vk);
void write_parameters(const std::filesystem::path& path, const Parameters& params);
VerifyingKey read_verifying_key(const std::filesystem::path& path);
Parameters read_parameters(const std::filesystem::path& path, SubgroupCheck check, ThreadPool& pool,
                           const ProgressFn& progress = nullptr);

// Where one of the five vectors lies: its point count and the file offset of its first point
// (just after its u32 length).
struct SectionLayout {
  uint64_t count = 0;
  uint64_t offset = 0;

  bool operator==(const SectionLayout&) const = default;
};

// A .params file's verifying key and where its vectors lie; file_bytes is the whole file.
struct ParametersLayout {
  VerifyingKey vk;
  SectionLayout h, l, a, b_g1, b_g2;
  uint64_t file_bytes = 0;

  SectionCounts counts() const { return {h.count, l.count, a.count, b_g1.count, b_g2.count}; }
  const SectionLayout& of(Section section) const { return section_member(*this, section); }
};

// The checks parse_parameters makes of the vk, the lengths and the file's end (the same
// FormatError, message and offset, for any truncation or bad length), without decoding a bulk
// point: over a mapped file only the vk's pages and the five length words are read.
ParametersLayout scan_parameters(std::span<const uint8_t> bytes, const std::string& name);
ParametersLayout read_parameters_layout(const std::filesystem::path& path);

// Decodes `src`, uncompressed points back to back, into `out` (one point per 96 / 192 bytes;
// std::invalid_argument otherwise), over `pool` (null: on this thread). `src` may be `out`'s own
// bytes: each point is decoded before it is stored over them. A bad point is a FormatError
// naming `name` at file_offset + its offset in `src`, the offset parse_parameters reports when
// file_offset is where `src` lies in the file. `progress` hears the points as they are done.
void decode_points(std::span<const uint8_t> src, std::span<G1Affine> out, uint64_t file_offset,
                   const char* what, const std::string& name, SubgroupCheck check, ThreadPool* pool,
                   ProgressCounter* progress = nullptr);
void decode_points(std::span<const uint8_t> src, std::span<G2Affine> out, uint64_t file_offset,
                   const char* what, const std::string& name, SubgroupCheck check, ThreadPool* pool,
                   ProgressCounter* progress = nullptr);

}  // namespace cuzk::groth16
