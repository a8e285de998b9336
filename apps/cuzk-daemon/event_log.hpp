// Structured log lines, one per event, on stderr: logfmt in text format
//   ts=2026-11-30T10:00:00.123Z level=info event=job_finished job_id=job-3 kind=porep
//   total_ms=25012
// and one JSON object per line in json format, with the same fields. Levels are named as the
// config names them (trace, debug, info, warn, error), not as spdlog would ("warning").
#pragma once

#include <spdlog/logger.h>

#include <concepts>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

namespace cuzk::daemon {

// One key=value pair; strings are quoted (JSON) or escaped (logfmt), numbers and booleans not.
struct Field {
  Field(std::string_view k, std::string_view v) : key(k), value(v), is_string(true) {}
  Field(std::string_view k, const std::string& v) : Field(k, std::string_view(v)) {}
  Field(std::string_view k, const char* v) : Field(k, std::string_view(v)) {}
  Field(std::string_view k, bool v) : key(k), value(v ? "true" : "false") {}
  template <std::integral T>
  Field(std::string_view k, T v) : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, double v);  // 3 decimals

  std::string key;
  std::string value;
  bool is_string = false;
};

std::string render_logfmt(std::string_view event, std::initializer_list<Field> fields);
std::string render_json_fields(std::string_view event, std::initializer_list<Field> fields);

class EventLog {
 public:
  // level: trace | debug | info | warn | error | off; json: one JSON object per line.
  EventLog(const std::string& level, bool json);

  void log(spdlog::level::level_enum level, std::string_view event,
           std::initializer_list<Field> fields) const;
  void debug(std::string_view event, std::initializer_list<Field> fields) const {
    log(spdlog::level::debug, event, fields);
  }
  void info(std::string_view event, std::initializer_list<Field> fields) const {
    log(spdlog::level::info, event, fields);
  }
  void warn(std::string_view event, std::initializer_list<Field> fields) const {
    log(spdlog::level::warn, event, fields);
  }
  void error(std::string_view event, std::initializer_list<Field> fields) const {
    log(spdlog::level::err, event, fields);
  }

  // gRPC's own log lines (gpr_log) from now on, as events "grpc" with their severity, message,
  // file and line, in this log's format. The last call's log keeps them for the process's life.
  void take_grpc_logs() const;

 private:
  std::shared_ptr<spdlog::logger> logger_;  // not registered: no global logger state
  bool json_;
};

}  // namespace cuzk::daemon
