// Lazy names for circuit gadgets beyond gadgets/scope.hpp's fixed and "<prefix><i>" forms: the
// Rust circuits also format names with a suffix ("drg_parent_{}_num") or two indices
// ("pick {}, {}"). Like Name/NameN they build the string only when a constraint system asks.
#pragma once

#include <cstddef>
#include <string>

#include "gadgets/scope.hpp"

namespace cuzk::circuits {

using gadgets::Name;
using gadgets::NameN;
using gadgets::Ns;

// "<prefix><index><suffix>", e.g. format!("drg_parent_{}_num", i).
struct NameNS {
  const char* prefix;
  size_t index;
  const char* suffix;
  std::string operator()() const { return prefix + std::to_string(index) + suffix; }
};

// "<prefix><i><middle><j>", e.g. format!("pick {}, {}", i, j).
struct NameNN {
  const char* prefix;
  size_t i;
  const char* middle;
  size_t j;
  std::string operator()() const { return prefix + std::to_string(i) + middle + std::to_string(j); }
};

}  // namespace cuzk::circuits
