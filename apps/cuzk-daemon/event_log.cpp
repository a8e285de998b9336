#include "event_log.hpp"

#include <spdlog/sinks/stdout_sinks.h>

#include <cstdio>

namespace cuzk::daemon {
namespace {

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// logfmt: bare when the value has no space, quote, '=' or control character.
void append_logfmt_value(std::string& out, std::string_view s) {
  bool bare = !s.empty();
  for (const char c : s) {
    if (c == ' ' || c == '"' || c == '=' || c == '\\' || static_cast<unsigned char>(c) < 0x20) {
      bare = false;
    }
  }
  if (bare) {
    out += s;
  } else {
    append_json_string(out, s);  // the same escapes
  }
}

spdlog::level::level_enum level_of(const std::string& name) {
  if (name == "warn") return spdlog::level::warn;
  return spdlog::level::from_str(name);  // trace, debug, info, error, off
}

}  // namespace

Field::Field(std::string_view k, double v) : key(k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  value = buf;
}

std::string render_logfmt(std::string_view event, std::initializer_list<Field> fields) {
  std::string out = "event=";
  out += event;
  for (const Field& f : fields) {
    out += ' ';
    out += f.key;
    out += '=';
    append_logfmt_value(out, f.value);
  }
  return out;
}

std::string render_json_fields(std::string_view event, std::initializer_list<Field> fields) {
  std::string out = "\"event\":";
  append_json_string(out, event);
  for (const Field& f : fields) {
    out += ',';
    append_json_string(out, f.key);
    out += ':';
    if (f.is_string) {
      append_json_string(out, f.value);
    } else {
      out += f.value;
    }
  }
  return out;
}

EventLog::EventLog(const std::string& level, bool json)
    : logger_(std::make_shared<spdlog::logger>("cuzk-daemon",
                                               std::make_shared<spdlog::sinks::stderr_sink_mt>())),
      json_(json) {
  logger_->set_level(level_of(level));
  logger_->flush_on(spdlog::level::trace);  // every line reaches the log at once
  logger_->set_pattern(json ? R"({"ts":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",%v})"
                            : "ts=%Y-%m-%dT%H:%M:%S.%eZ level=%l %v",
                       spdlog::pattern_time_type::utc);
}

void EventLog::log(spdlog::level::level_enum level, std::string_view event,
                   std::initializer_list<Field> fields) {
  if (!logger_->should_log(level)) return;
  const std::string line = json_ ? render_json_fields(event, fields) : render_logfmt(event, fields);
  logger_->log(level, "{}", line);
}

}  // namespace cuzk::daemon
