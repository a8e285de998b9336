#include "engine/handlers/circuit_handler.hpp"

#include <iterator>
#include <stdexcept>
#include <string_view>

#include "engine/handlers/porep_handler.hpp"
#include "engine/handlers/post_handler.hpp"
#include "engine/handlers/update_handler.hpp"
#include "groth16/point_source.hpp"

namespace cuzk::engine {

std::vector<std::shared_ptr<const CircuitHandler>> default_handlers() {
  return {make_porep_handler(), make_window_post_handler(), make_winning_post_handler(),
          make_update_handler()};
}

SrsSpec srs_spec_of(const std::string& circuit_id, const ParameterSource& source,
                    const filecoin::CircuitParameterSet& set) {
  SrsSpec spec;
  spec.circuit_id = circuit_id;
  spec.file = filecoin::parameter_files(source.dir, set.cache_id).params;
  spec.load = [source, set](ThreadPool& pool) {
    return filecoin::read_parameter_file(source.dir, set, source.checks, pool);
  };
  spec.open = [source, set](ThreadPool&) {
    return filecoin::open_parameter_file(source.dir, set, source.checks);
  };
  return spec;
}

std::string sector_size_suffix(uint64_t bytes) {
  if (bytes == 0 || (bytes & (bytes - 1)) != 0 || bytes < 1024)
    throw std::invalid_argument("sector size " + std::to_string(bytes) + " is not a power of two");
  const char* units[] = {"k", "m", "g", "t"};
  uint64_t v = bytes / 1024;
  size_t u = 0;
  while (v >= 1024 && v % 1024 == 0 && u + 1 < std::size(units)) {
    v /= 1024;
    ++u;
  }
  return std::to_string(v) + units[u];
}

std::string circuit_id_of(std::string_view kind, uint64_t sector_size) {
  return std::string(kind) + "-" + sector_size_suffix(sector_size);
}

uint64_t sector_size_of_circuit_id(std::string_view circuit_id) {
  const size_t dash = circuit_id.rfind('-');
  const std::string_view s = dash == std::string_view::npos ? "" : circuit_id.substr(dash + 1);
  const size_t digits = s.find_first_not_of("0123456789");
  if (s.empty() || digits == 0 || digits == std::string_view::npos || digits + 1 != s.size() ||
      digits > 6) {
    return 0;
  }
  const std::string_view units = "kmgt";
  const size_t u = units.find(s.back());
  if (u == std::string_view::npos) return 0;
  return std::stoull(std::string(s.substr(0, digits))) << (10 * (u + 1));
}

BlankCircuit find_blank_circuit(const std::vector<std::shared_ptr<const CircuitHandler>>& handlers,
                                const std::string& circuit_id) {
  for (const auto& h : handlers) {
    if (auto blank = h->blank_circuit(circuit_id)) return std::move(*blank);
  }
  throw std::invalid_argument("no circuit \"" + circuit_id + "\" in this build");
}

uint64_t set_bytes(const groth16::Parameters& p) {
  return p.vk.ic.size() * sizeof(G1Affine) + groth16::points_bytes(groth16::section_counts(p));
}

uint64_t parameters_bytes(const groth16::Parameters& p) {
  return groth16::has_host_points(p) ? set_bytes(p) : p.vk.ic.size() * sizeof(G1Affine);
}

ShapeHint shape_of(const groth16::Parameters& p) {
  const groth16::SectionCounts c = groth16::section_counts(p);
  return {c.h + 1, p.vk.ic.size(), c.l};
}

uint64_t partition_working_set(const groth16::Parameters& p) {
  const groth16::SectionCounts c = groth16::section_counts(p);
  const uint64_t domain = c.h + 1;             // rows <= domain
  const uint64_t vars = c.l + p.vk.ic.size();  // aux + inputs
  const uint64_t fr = sizeof(Fr);
  // a, b, c and two more domain vectors in the quotient; the assignment and one scalar copy per
  // MSM in flight; densities (bits) and allocator slack: 1/16 on top.
  const uint64_t bytes = 5 * domain * fr + 2 * vars * fr + 3 * vars / 8;
  return bytes + bytes / 16;
}

}  // namespace cuzk::engine
