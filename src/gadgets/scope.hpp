// Naming helpers for gadgets: lazy names (built only by systems that want them) and a scoped
// namespace that can be passed where a constraint system is expected.
//
// bellpepper gadgets take `cs.namespace(|| name)` by value, so the namespace is pushed for exactly
// the duration of one gadget call. `Ns(cs, name)` is the same idiom in C++: a temporary that
// pushes on construction, pops at the end of the full expression and converts to `CS&`:
//
//   AllocatedBit::alloc(Ns(cs, NameN{"bit ", i}), value);
//
// Never put two `Ns` temporaries of one system in the same full expression: their push order
// would be unspecified.
#pragma once

#include <cstddef>
#include <string>

#include "cs/constraint_system.hpp"

namespace cuzk::gadgets {

// A fixed name ("boolean", "xor constraint", ...).
struct Name {
  const char* text;
  std::string operator()() const { return text; }
};

// "<prefix><index>", the `format!("bit {}", i)` shape used throughout the Rust gadgets.
struct NameN {
  const char* prefix;
  size_t index;
  std::string operator()() const { return prefix + std::to_string(index); }
};

using cuzk::Ns;  // cs/constraint_system.hpp

}  // namespace cuzk::gadgets
