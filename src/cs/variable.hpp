// Variable: an input (public) or aux (private) wire of a constraint system, numbered separately in
// allocation order. Input 0 is the constant ONE, allocated by every proving-side CS before
// synthesis.
#pragma once

#include <cstdint>
#include <functional>

namespace cuzk {

struct Variable {
  enum class Kind : uint8_t { kInput, kAux };

  uint32_t index = 0;
  Kind kind = Kind::kInput;

  static constexpr Variable input(uint32_t i) { return {i, Kind::kInput}; }
  static constexpr Variable aux(uint32_t i) { return {i, Kind::kAux}; }
  static constexpr Variable one() { return input(0); }

  constexpr bool is_input() const { return kind == Kind::kInput; }
  constexpr bool operator==(const Variable&) const = default;
};

}  // namespace cuzk
