// Small ASCII text helpers shared by the config and command-line parsers.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

namespace cuzk {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

inline std::string_view trim_space(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

// "32GiB", "512MiB", "2KiB" when exact in the largest such unit, else the number of bytes: sector
// sizes as Filecoin and Curio name them (`curio fetch-params 32GiB`).
inline std::string binary_size_name(uint64_t bytes) {
  static constexpr struct {
    unsigned shift;
    const char* unit;
  } kUnits[] = {{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}};
  for (const auto& u : kUnits) {
    const uint64_t unit = uint64_t{1} << u.shift;
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + u.unit;
  }
  return std::to_string(bytes);
}

}  // namespace cuzk
