// Where a parameter set's points are: in the host vectors of a Parameters, or behind a
// PointSource that reads them on demand (a .params file: groth16/params_file.hpp), so that a
// device can be filled from the file piece by piece without a whole host copy of the points.
// A Parameters with a source has its five vectors empty; its counts come from the source.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "ec/g1.hpp"
#include "ec/g2.hpp"
#include "groth16/types.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// The five sections of a proving key, in the file's order.
enum class Section { kH, kL, kA, kBG1, kBG2 };
inline constexpr Section kSections[] = {Section::kH, Section::kL, Section::kA, Section::kBG1,
                                        Section::kBG2};
const char* section_name(Section section);  // "h", "l", "a", "b_g1", "b_g2"

// The member named after `section` (h, l, a, b_g1, b_g2) of a type that keeps one of each: the
// one place a section picks its member.
template <class Sections>
auto& section_member(Sections& sections, Section section) {
  switch (section) {
    case Section::kH:
      return sections.h;
    case Section::kL:
      return sections.l;
    case Section::kA:
      return sections.a;
    case Section::kBG1:
      return sections.b_g1;
    case Section::kBG2:
      break;
  }
  return sections.b_g2;
}

// Points per section.
struct SectionCounts {
  uint64_t h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;

  uint64_t of(Section section) const { return section_member(*this, section); }
  bool operator==(const SectionCounts&) const = default;
};

// The bytes of the counts' points (G1 96, G2 192 each).
uint64_t points_bytes(const SectionCounts& counts);

class PointSource {
 public:
  virtual ~PointSource() = default;

  virtual SectionCounts counts() const = 0;
  // Equal identities mean equal points: what a device cache may key the points by.
  virtual uint64_t identity() const = 0;
  // What errors name (a file's path).
  virtual const std::string& name() const = 0;

  // Points [first, first + out.size()) of `section` into `out`, over `pool` (null: on this
  // thread). read_g1 reads the G1 sections, read_g2 b_g2: std::invalid_argument for another;
  // std::out_of_range past the section's end. Thread-safe. A point that does not decode throws
  // FormatError (groth16/bellperson_format.hpp).
  virtual void read_g1(Section section, uint64_t first, std::span<G1Affine> out,
                       ThreadPool* pool) const = 0;
  virtual void read_g2(Section section, uint64_t first, std::span<G2Affine> out,
                       ThreadPool* pool) const = 0;
  // Every section's points in host vectors, the vk left empty (read_host_points): by read_g1 and
  // read_g2 unless a source has a faster whole read.
  virtual Parameters read_points(ThreadPool* pool) const;

 protected:
  // The checks every read_* makes first: the section's curve and the range within it.
  void check_range(Section section, bool g2, uint64_t first, uint64_t count) const;
};

// The points of a host Parameters, as a source: the CPU twin of a file source (tests, and a
// device filled from host points by the same path as from a file).
class VectorSource final : public PointSource {
 public:
  // std::invalid_argument when `params` is null or has a source of its own.
  VectorSource(std::shared_ptr<const Parameters> params, std::string name);

  // PointSource (its declarations, as ParamsFileSource's: one interface, two implementations).
  SectionCounts counts() const override;
  // The address of the points it keeps alive: unique among live sources.
  uint64_t identity() const override;
  const std::string& name() const override { return name_; }
  void read_g1(Section section, uint64_t first, std::span<G1Affine> out,
               ThreadPool* pool) const override;
  void read_g2(Section section, uint64_t first, std::span<G2Affine> out,
               ThreadPool* pool) const override;

 private:
  std::shared_ptr<const Parameters> params_;
  std::string name_;
};

// The set's counts: its vectors' sizes, or its source's.
SectionCounts section_counts(const Parameters& params);
// Whether the points are in the vectors (no source).
bool has_host_points(const Parameters& params);
// The set with its points in host memory: `params` itself (a copy) when they are, else every
// section read from its source into the vectors (through the source's held file: the same
// bytes the set was opened with, with no second open or digest), over `pool`.
Parameters read_host_points(const Parameters& params, ThreadPool* pool);
// The vector of `section` (P: G1Affine for h, l, a, b_g1; G2Affine for b_g2, whatever `section`
// says), empty for a set whose points are behind a source.
template <class P>
std::span<const P> host_points(const Parameters& params, Section section);
// The G1 vector of `section` (h, l, a, b_g1; b_g1 for kBG2), const or writable as `params` is:
// the one place a G1 section names its vector.
template <class Params>
requires std::is_same_v<std::remove_const_t<Params>, Parameters>
auto& g1_vector(Params& params, Section section) {
  switch (section) {
    case Section::kH:
      return params.h;
    case Section::kL:
      return params.l;
    case Section::kA:
      return params.a;
    case Section::kBG1:
    case Section::kBG2:
      break;
  }
  return params.b_g1;
}

// A set's points are not in host memory where the caller needs them there: a CPU backend, or a
// device whose plan streams sections from the host. The engine answers it by proving again with
// the set's host copy.
class HostPointsNeeded : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};
// HostPointsNeeded "<who>: the set's points are not in host memory (they are read from <source
// name>)" when they are not: for code that reads the vectors.
void require_host_points(const Parameters& params, const char* who);

}  // namespace cuzk::groth16
