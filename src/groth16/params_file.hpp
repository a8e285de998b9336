// ParamsFileSource: the points of a bellperson .params file read where they lie, a range at a
// time, with no whole host copy: the cold tier of a parameter set whose points a device holds.
//
// The file is opened once and its descriptor held for the source's life, so a set replaced by a
// rename keeps being read from the inode that was opened (and checked). Its identity is taken
// from fstat on that descriptor: device, inode, size and times. A read preads the raw points
// straight into the caller's memory and decodes them there (an uncompressed point and a decoded
// one are the same size), in pool tasks of about 16 MiB each reading and decoding its own piece.
// A bad point, or a file that shrank, is a FormatError naming the file and the offset
// parse_parameters reports for it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "ec/encoding.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/point_source.hpp"
#include "util/read_only_file.hpp"

namespace cuzk::groth16 {

class ParamsFileSource final : public PointSource {
 public:
  static constexpr uint64_t kTaskBytes = uint64_t{16} << 20;

  // Opens `path` (std::runtime_error naming it) and scans its layout through the held descriptor
  // (FormatError as scan_parameters). `check` applies to every point read; `task_bytes` bounds
  // a pool task's piece (tests make it small).
  ParamsFileSource(const std::filesystem::path& path, SubgroupCheck check,
                   uint64_t task_bytes = kTaskBytes);
  // The same over a file already open (one whose digest was checked through it).
  ParamsFileSource(ReadOnlyFile file, SubgroupCheck check, uint64_t task_bytes = kTaskBytes);

  const ParametersLayout& layout() const { return layout_; }
  const FileStamp& stamp() const { return file_.stamp(); }

  // PointSource (its declarations, as VectorSource's: one interface, two implementations).
  SectionCounts counts() const override { return layout_.counts(); }
  uint64_t identity() const override { return identity_; }
  const std::string& name() const override { return name_; }
  void read_g1(Section section, uint64_t first, std::span<G1Affine> out,
               ThreadPool* pool) const override;
  void read_g2(Section section, uint64_t first, std::span<G2Affine> out,
               ThreadPool* pool) const override;
  // The whole set parsed from a map of the held descriptor, as read_parameters parses a path
  // (47.4 GB in 39-46 s on an H100's host, a second load of the file 41-51 s; perf-log
  // 2026-12-07): no second open, no second digest.
  Parameters read_points(ThreadPool* pool) const override;

 private:
  template <class P>
  void read(Section section, uint64_t first, std::span<P> out, ThreadPool* pool) const;

  ReadOnlyFile file_;
  std::string name_;
  SubgroupCheck check_;
  uint64_t task_bytes_;
  ParametersLayout layout_;
  uint64_t identity_;
};

// The set the file holds, its points left in the file: the vk, and `source` a ParamsFileSource.
Parameters open_parameters(const std::filesystem::path& path, SubgroupCheck check);

}  // namespace cuzk::groth16
