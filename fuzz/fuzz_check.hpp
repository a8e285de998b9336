// What every fuzz target asserts besides "no crash, no sanitizer report": messages are valid
// UTF-8 (they reach protobuf string fields and logs), and what a reader accepts its writer
// writes back the same way.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "util/utf8.hpp"

namespace cuzk::fuzz {

[[noreturn]] inline void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz property violated: %s: %s\n", what,
               escape_invalid_utf8(detail.substr(0, 400)).c_str());
  std::abort();
}

inline void require(bool ok, const char* what, std::string_view detail = {}) {
  if (!ok) fail(what, detail);
}

inline void require_utf8_message(const char* message) {
  if (!is_valid_utf8(message)) fail("error message is not valid UTF-8", message);
}

}  // namespace cuzk::fuzz
