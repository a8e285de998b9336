// nlohmann::json parsing of outside bytes with a bound on nesting: a parser callback sees every
// array and object as it opens and stops the parse past `max_depth`, so "[[[[..." costs nothing
// (unbounded, 20 MB of it became ~1 GB of tree). Errors are JsonLimitError with a message that is
// valid UTF-8 (nlohmann quotes the bytes it last read, which may not be).
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

#include "util/utf8.hpp"

namespace cuzk {

class JsonLimitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline nlohmann::json parse_json_bounded(std::string_view text, int max_depth) {
  try {
    return nlohmann::json::parse(
        text.begin(), text.end(),
        [max_depth](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
          using E = nlohmann::json::parse_event_t;
          if ((event == E::object_start || event == E::array_start) && depth >= max_depth) {
            throw JsonLimitError("nested deeper than " + std::to_string(max_depth) + " levels");
          }
          return true;
        });
  } catch (const nlohmann::json::exception& e) {
    throw JsonLimitError("not valid JSON: " + escape_invalid_utf8(e.what()));
  }
}

}  // namespace cuzk
