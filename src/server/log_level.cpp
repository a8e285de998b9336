#include "server/log_level.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "util/text.hpp"

namespace cuzk::server {
namespace {

// From the most verbose to none.
constexpr std::array<std::string_view, 6> kLevels = {"trace", "debug", "info",
                                                     "warn",  "error", "off"};

// The canonical name of one level word, or "" when it is none.
std::string canonical(std::string_view word) {
  const std::string w = ascii_lower(trim_space(word));
  if (w == "warning") return "warn";
  if (w == "err") return "error";
  for (std::string_view l : kLevels)
    if (w == l) return std::string(l);
  return "";
}

size_t rank(const std::string& level) {
  return static_cast<size_t>(std::find(kLevels.begin(), kLevels.end(), level) - kLevels.begin());
}

}  // namespace

std::string_view log_level_names() {
  return "trace, debug, info, warn (or warning), error, off";
}

LogLevel parse_log_level(std::string_view text) {
  const auto bad = [&] {
    return std::invalid_argument("\"" + std::string(text) + "\" is not a log level (" +
                                 std::string(log_level_names()) +
                                 ", or RUST_LOG's form \"info,target=debug\")");
  };
  std::string bare, most_verbose_target;
  std::vector<std::string> targets;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view directive = trim_space(text.substr(start, comma - start));
    start = comma + 1;
    if (directive.empty()) continue;
    const size_t eq = directive.find('=');
    if (eq == std::string_view::npos) {
      bare = canonical(directive);
      if (bare.empty()) throw bad();
      continue;
    }
    const std::string level = canonical(directive.substr(eq + 1));
    if (level.empty()) throw bad();
    targets.emplace_back(directive);
    if (most_verbose_target.empty() || rank(level) < rank(most_verbose_target)) {
      most_verbose_target = level;
    }
  }
  LogLevel out;
  out.level = !bare.empty() ? bare : most_verbose_target;
  if (out.level.empty()) throw bad();
  if (!targets.empty()) {
    std::string list;
    for (const std::string& t : targets)
      list += (list.empty() ? "" : ", ") + t;
    out.note =
        "per-target levels (" + list + ") have no meaning here: every event logs at " + out.level;
  }
  return out;
}

}  // namespace cuzk::server
