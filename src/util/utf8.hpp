// Text that quotes outside bytes must stay valid UTF-8: protobuf refuses to serialize a string
// field that is not (the client of a FAILED job would see INTERNAL instead of the reason), and
// logs and JSON want it too.
#pragma once

#include <string>
#include <string_view>

namespace cuzk {

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

// `bytes` with every byte that is not part of a well-formed UTF-8 sequence, and every ASCII
// control character but tab, written as \xNN; valid text passes unchanged.
std::string escape_invalid_utf8(std::string_view bytes);

// For quoting a short piece of a payload in a message: at most `max_bytes` of it, escaped as
// above, with "..." when cut.
std::string quote_bytes(std::string_view bytes, size_t max_bytes = 64);

}  // namespace cuzk
