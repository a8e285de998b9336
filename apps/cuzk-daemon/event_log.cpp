#include "event_log.hpp"

#include <grpc/support/log.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <atomic>
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

// The config's names ([logging] level), where spdlog's %l would say "warning" and "critical".
const char* level_name(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
      return "trace";
    case spdlog::level::debug:
      return "debug";
    case spdlog::level::info:
      return "info";
    case spdlog::level::warn:
      return "warn";
    default:
      return "error";
  }
}

// gpr_set_log_function takes a plain function: the log it writes to is the one global here,
// made once per take_grpc_logs and never freed, so a gRPC thread logging at exit finds it alive.
std::atomic<const EventLog*> grpc_log{nullptr};

void log_grpc_line(gpr_log_func_args* args) {
  const EventLog* log = grpc_log.load();
  if (log == nullptr || args == nullptr) return;
  const spdlog::level::level_enum level =
      args->severity == GPR_LOG_SEVERITY_ERROR  ? spdlog::level::err
      : args->severity == GPR_LOG_SEVERITY_INFO ? spdlog::level::info
                                                : spdlog::level::debug;
  log->log(level, "grpc",
           {{"message", args->message != nullptr ? args->message : ""},
            {"file", args->file != nullptr ? args->file : ""},
            {"line", args->line}});
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
  // The level is written by log() (level_name), not by spdlog's %l.
  logger_->set_pattern(
      json ? R"({"ts":"%Y-%m-%dT%H:%M:%S.%eZ",%v})" : "ts=%Y-%m-%dT%H:%M:%S.%eZ %v",
      spdlog::pattern_time_type::utc);
}

void EventLog::take_grpc_logs() const {
  grpc_log.store(new EventLog(*this));  // lives as long as the process (see grpc_log)
  gpr_set_log_function(log_grpc_line);
}

void EventLog::log(spdlog::level::level_enum level, std::string_view event,
                   std::initializer_list<Field> fields) const {
  if (!logger_->should_log(level)) return;
  const std::string line =
      json_ ? std::string("\"level\":\"") + level_name(level) + "\"," +
                  render_json_fields(event, fields)
            : std::string("level=") + level_name(level) + " " + render_logfmt(event, fields);
  logger_->log(level, "{}", line);
}

}  // namespace cuzk::daemon
