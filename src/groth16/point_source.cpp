#include "groth16/point_source.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace cuzk::groth16 {

// A switch with no default: -Wswitch (an error here) names a section added without a name.
const char* section_name(Section section) {
  switch (section) {
    case Section::kH:
      return "h";
    case Section::kL:
      return "l";
    case Section::kA:
      return "a";
    case Section::kBG1:
      return "b_g1";
    case Section::kBG2:
      break;
  }
  return "b_g2";
}

uint64_t points_bytes(const SectionCounts& c) {
  return (c.h + c.l + c.a + c.b_g1) * sizeof(G1Affine) + c.b_g2 * sizeof(G2Affine);
}

void PointSource::check_range(Section section, bool g2, uint64_t first, uint64_t count) const {
  if ((section == Section::kBG2) != g2) {
    throw std::invalid_argument(name() + ": section " + section_name(section) + " is not in " +
                                (g2 ? "G2" : "G1"));
  }
  const uint64_t n = counts().of(section);
  if (first > n || count > n - first) {
    throw std::out_of_range(name() + ": " + std::to_string(count) + " points from " +
                            std::to_string(first) + " of " + section_name(section) +
                            ", which has " + std::to_string(n));
  }
}

namespace {

template <class P>
void copy_points(std::span<const P> from, std::span<P> out, ThreadPool* pool) {
  const auto body = [&](size_t begin, size_t end) {
    std::copy(from.begin() + begin, from.begin() + end, out.begin() + begin);
  };
  if (pool != nullptr) {
    pool->parallel_for(out.size(), body, size_t{1} << 16);
  } else {
    body(0, out.size());
  }
}

}  // namespace

template <class P>
std::span<const P> host_points(const Parameters& p, Section section) {
  if constexpr (std::is_same_v<P, G2Affine>) {
    return p.b_g2;
  } else {
    return g1_vector(p, section);
  }
}

template std::span<const G1Affine> host_points<G1Affine>(const Parameters&, Section);
template std::span<const G2Affine> host_points<G2Affine>(const Parameters&, Section);

VectorSource::VectorSource(std::shared_ptr<const Parameters> params, std::string name)
    : params_(std::move(params)), name_(std::move(name)) {
  if (params_ == nullptr || params_->source != nullptr) {
    throw std::invalid_argument(name_ + ": a vector source needs a set with host points");
  }
}

SectionCounts VectorSource::counts() const {
  return section_counts(*params_);
}

uint64_t VectorSource::identity() const {
  return reinterpret_cast<uintptr_t>(params_.get());
}

void VectorSource::read_g1(Section section, uint64_t first, std::span<G1Affine> out,
                           ThreadPool* pool) const {
  check_range(section, false, first, out.size());
  copy_points(host_points<G1Affine>(*params_, section).subspan(first, out.size()), out, pool);
}

void VectorSource::read_g2(Section section, uint64_t first, std::span<G2Affine> out,
                           ThreadPool* pool) const {
  check_range(section, true, first, out.size());
  copy_points(host_points<G2Affine>(*params_, section).subspan(first, out.size()), out, pool);
}

Parameters PointSource::read_points(ThreadPool* pool) const {
  const SectionCounts c = counts();
  Parameters host;
  for (const Section section : kSections) {
    if (section == Section::kBG2) {
      host.b_g2.resize(c.b_g2);
      read_g2(section, 0, host.b_g2, pool);
    } else {
      std::vector<G1Affine>& v = g1_vector(host, section);
      v.resize(c.of(section));
      read_g1(section, 0, v, pool);
    }
  }
  return host;
}

Parameters read_host_points(const Parameters& params, ThreadPool* pool) {
  if (params.source == nullptr) return params;
  Parameters host = params.source->read_points(pool);
  host.vk = params.vk;
  return host;
}

SectionCounts section_counts(const Parameters& p) {
  if (p.source != nullptr) return p.source->counts();
  return {p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
}

bool has_host_points(const Parameters& p) {
  return p.source == nullptr;
}

void require_host_points(const Parameters& p, const char* who) {
  if (!has_host_points(p)) {
    throw HostPointsNeeded(std::string(who) +
                           ": the set's points are not in host memory (they are read from " +
                           p.source->name() + ")");
  }
}

}  // namespace cuzk::groth16
