#include "server/daemon_config.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "server/log_level.hpp"
#include "util/fault_injector.hpp"
#include "util/input_file.hpp"
#include "util/text.hpp"

namespace cuzk::server {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
constexpr uint64_t kDefaultSafetyMargin = 5 * kGiB;  // the Rust daemon's default
// cuzk.example.toml, every key documented, is 6 KiB.
constexpr uint64_t kMaxConfigBytes = kMiB;
// A budget below this could not hold a 2 KiB proof's parameters and working set beside the 1/16
// kept for queued payloads; such a value is a unit slip ("0.5" for 0.5GiB).
constexpr uint64_t kMinMemoryBudget = 64 * kMiB;

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names)
    out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// A switch like the enum names elsewhere; toml++'s date and time types share the default.
const char* type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date/time";
  }
}

// [memory] total_budget absent or "auto".
bool is_auto(const toml::node* n) {
  if (n == nullptr) return true;
  const std::optional<std::string> s = n->value<std::string>();
  return s && ascii_lower(trim_space(*s)) == "auto";
}

// toml++ bounds the nesting of arrays and inline tables (256), not that of dotted keys: a 200 KB
// line "a.a.a...= 1" overflowed the stack (SIGSEGV at 100,000 levels). Every key of the schema
// has one or two parts, so a line with more than kMaxKeyDots dots outside strings and comments
// is refused before toml++ sees it.
constexpr size_t kMaxKeyDots = 16;

void check_key_depth(std::string_view text, const std::string& source) {
  size_t line = 1, dots = 0;
  char quote = 0;  // inside a '...' or "..." string (quote_len 1 or 3)
  size_t quote_len = 0;
  bool comment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\n') {
      ++line;
      dots = 0;
      comment = false;
      if (quote_len == 1) quote = 0;  // a one-line string ends here (toml++ reports it)
      continue;
    }
    if (comment) continue;
    if (quote != 0) {
      if (ch == '\\' && quote == '"' && i + 1 < text.size() && text[i + 1] != '\n') {
        ++i;  // an escaped character
      } else if (ch == quote && text.substr(i, quote_len) == std::string(quote_len, quote)) {
        i += quote_len - 1;
        quote = 0;
      }
      continue;
    }
    if (ch == '#') {
      comment = true;
    } else if (ch == '"' || ch == '\'') {
      quote = ch;
      quote_len = text.substr(i, 3) == std::string(3, ch) ? 3 : 1;
      i += quote_len - 1;
    } else if (ch == '.' && ++dots > kMaxKeyDots) {
      throw ConfigError(source + ":" + std::to_string(line) + ": more than " +
                        std::to_string(kMaxKeyDots) +
                        " dots in one line: keys nested that deep are not cuzk-daemon settings");
    }
  }
}

struct Section {
  std::string_view name;
  std::vector<std::string_view> keys;
};

// The schema: every section and key the daemon knows (the Rust daemon's deprecated keys too, so
// that its config files load; they are reported as notes).
const std::vector<Section>& schema() {
  static const std::vector<Section> sections = {
      {"daemon",
       {"listen", "status_listen", "shutdown", "shutdown_timeout_s", "result_ttl_s", "socket_mode",
        "socket_group", "tls_cert", "tls_key", "client_ca"}},
      {"srs",
       {"param_cache", "allow_insecure_params", "verify_digests", "check_subgroups", "host_points",
        "preload"}},
      {"memory",
       {"total_budget", "safety_margin", "eviction_min_idle", "pinned_budget",
        "working_memory_budget"}},
      {"gpus",
       {"devices", "gpu_workers_per_device", "backend", "gpu_threads", "memory_limit",
        "cpu_fallback_max_sector_size"}},
      {"scheduler", {"max_batch_size", "max_batch_wait_ms", "sort_by_type"}},
      {"synthesis", {"threads", "workers", "partition_workers"}},
      {"pipeline",
       {"enabled", "synthesis_lookahead", "synthesis_concurrency", "verify_proofs",
        "max_parallel_synthesis", "slot_size", "max_gpu_queue_depth"}},
      {"pce", {"enabled", "cache_dir"}},
      {"spool", {"dir", "max_size"}},
      {"faults", {"inject"}},
      {"logging", {"level", "format"}},
  };
  return sections;
}

// Reads typed values, throwing ConfigError "<file>:<line>: [section] key: <what>".
class Reader {
 public:
  explicit Reader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const toml::node* n, std::string_view where,
                         const std::string& what) const {
    std::string at = source_;
    if (n != nullptr && n->source().begin.line != 0) {
      at += ":" + std::to_string(n->source().begin.line);
    }
    throw ConfigError(at + ": " + std::string(where) + ": " + what);
  }

  uint64_t uint(const toml::node& n, std::string_view where,
                uint64_t max = std::numeric_limits<uint32_t>::max()) const {
    const auto* v = n.as_integer();
    if (v == nullptr) fail(&n, where, std::string("expected an integer, got ") + type_name(n));
    if (v->get() < 0 || static_cast<uint64_t>(v->get()) > max) {
      fail(
          &n, where,
          "expected an integer in 0.." + std::to_string(max) + ", got " + std::to_string(v->get()));
    }
    return static_cast<uint64_t>(v->get());
  }

  bool boolean(const toml::node& n, std::string_view where) const {
    const auto* v = n.as_boolean();
    if (v == nullptr) fail(&n, where, std::string("expected true or false, got ") + type_name(n));
    return v->get();
  }

  std::string string(const toml::node& n, std::string_view where) const {
    const auto* v = n.as_string();
    if (v == nullptr) fail(&n, where, std::string("expected a string, got ") + type_name(n));
    return v->get();
  }

  std::string one_of(const toml::node& n, std::string_view where,
                     const std::vector<std::string_view>& allowed) const {
    const std::string s = string(n, where);
    if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
      fail(&n, where, "\"" + s + "\" is not one of " + join(allowed));
    }
    return s;
  }

  // A size: a string such as "256GiB" or an integer number of bytes.
  uint64_t size(const toml::node& n, std::string_view where) const {
    if (n.is_integer()) return uint(n, where, std::numeric_limits<int64_t>::max());
    const std::string s = string(n, where);
    try {
      return parse_size(s);
    } catch (const std::invalid_argument& e) {
      fail(&n, where, e.what());
    }
  }

 private:
  const std::string& source_;
};

// The settings whose meaning depends on other keys, resolved once the whole file is read.
struct Pending {
  const toml::node* total_budget = nullptr;
  uint64_t safety_margin = kDefaultSafetyMargin;
  const toml::node* workers = nullptr;
  const toml::node* synthesis_concurrency = nullptr;
  const toml::node* lookahead = nullptr;
  const toml::node* max_parallel_synthesis = nullptr;
  const toml::node* tls_cert = nullptr;
  const toml::node* tls_key = nullptr;
  const toml::node* client_ca = nullptr;
};

// [daemon] socket_mode: "0660" (octal digits, as chmod takes them) or a TOML integer (0o660).
uint32_t socket_mode_of(const Reader& r, const toml::node& n, std::string_view where) {
  if (n.is_integer()) return static_cast<uint32_t>(r.uint(n, where, 0777));
  const std::string s(trim_space(r.string(n, where)));
  if (s.empty() || s.size() > 4 || s.find_first_not_of("01234567") != std::string::npos) {
    r.fail(&n, where, "\"" + s + "\" is not an octal mode such as \"0660\"");
  }
  return static_cast<uint32_t>(std::stoul(s, nullptr, 8));
}

// [daemon] status_listen: "host:port", or a port alone ("9821", ":9821") on the loopback
// interface: the HTTP port is unauthenticated, so every interface only when the host says so.
ListenAddress parse_status_listen(const std::string& text) {
  const std::string_view t = trim_space(text);
  const std::string_view port = t.starts_with(':') ? t.substr(1) : t;
  if (!port.empty() && port.size() <= 5 &&
      port.find_first_not_of("0123456789") == std::string_view::npos) {
    return parse_listen_address("127.0.0.1:" + std::string(port), false);
  }
  return parse_listen_address(t, false);
}

void apply_key(const Reader& r, std::string_view section, std::string_view key, const toml::node& n,
               DaemonConfig& c, Pending& p) {
  const std::string where = "[" + std::string(section) + "] " + std::string(key);
  auto ignored = [&](std::string_view why) {
    c.notes.push_back(where + ": accepted for compatibility with the Rust cuzk daemon; " +
                      std::string(why));
  };
  // One branch per documented key: each reads its own type into its own field, so the
  // branches read alike.
  engine::EngineConfig& e = c.engine;
  if (section == "daemon") {
    if (key == "listen" || key == "status_listen") {
      const std::string s = r.string(n, where);
      try {
        if (key == "listen") {
          c.listen = parse_listen_address(s, true);
        } else if (s.empty()) {
          c.status_listen.reset();
        } else {
          c.status_listen = parse_status_listen(s);
        }
      } catch (const std::invalid_argument& ex) {
        r.fail(&n, where, ex.what());
      }
    } else if (key == "shutdown") {
      c.shutdown = r.one_of(n, where, {"finish", "cancel"}) == "cancel" ? ShutdownMode::kCancel
                                                                        : ShutdownMode::kFinish;
    } else if (key == "shutdown_timeout_s") {
      c.shutdown_timeout_s = r.uint(n, where);
    } else if (key == "result_ttl_s") {
      e.finished_job_ttl_s = r.uint(n, where);
    } else if (key == "socket_mode") {
      c.socket_mode = socket_mode_of(r, n, where);
    } else if (key == "socket_group") {
      c.socket_group = r.string(n, where);
    } else {  // tls_cert, tls_key, client_ca: checked together in resolve()
      const std::string path = r.string(n, where);
      if (path.empty()) return;
      (key == "tls_cert" ? c.tls_cert : key == "tls_key" ? c.tls_key : c.client_ca) = path;
      (key == "tls_cert" ? p.tls_cert : key == "tls_key" ? p.tls_key : p.client_ca) = &n;
    }
  } else if (section == "srs") {
    if (key == "param_cache") {
      const std::string s = r.string(n, where);
      if (s.empty()) r.fail(&n, where, "must not be empty");
      e.param_cache = s;
    } else if (key == "allow_insecure_params") {
      e.allow_insecure_params = r.boolean(n, where);
    } else if (key == "verify_digests") {
      e.verify_param_digests = r.boolean(n, where);
    } else if (key == "check_subgroups") {
      e.check_param_subgroups = r.boolean(n, where);
    } else if (key == "host_points") {
      e.srs_host_points = r.one_of(n, where, {"always", "auto"}) == "auto"
                              ? engine::EngineConfig::HostPoints::kAuto
                              : engine::EngineConfig::HostPoints::kAlways;
    } else {
      ignored("parameters are loaded on demand (or with PreloadSRS)");
    }
  } else if (section == "memory") {
    if (key == "total_budget") {
      p.total_budget = &n;
      if (!is_auto(&n)) r.size(n, where);
    } else if (key == "safety_margin") {
      p.safety_margin = r.size(n, where);
    } else {
      ignored("no effect here");
    }
  } else if (section == "gpus") {
    if (key == "devices") {
      const toml::array* a = n.as_array();
      if (a == nullptr) r.fail(&n, where, std::string("expected an array, got ") + type_name(n));
      e.gpus.clear();
      for (const toml::node& d : *a)
        e.gpus.push_back(static_cast<int>(r.uint(d, where, 1023)));
    } else if (key == "gpu_workers_per_device") {
      // Prover workers per device; without a GPU the CPU is the one device.
      e.cpu_workers = static_cast<unsigned>(r.uint(n, where, 64));
      if (e.cpu_workers == 0) r.fail(&n, where, "must be at least 1");
      if (e.cpu_workers != 1) {
        c.notes.push_back(where + " = " + std::to_string(e.cpu_workers) +
                          ": one prover runs per GPU here (the Rust daemon's second worker "
                          "overlapped CPU work this engine does on its synthesis workers); the "
                          "value is the number of CPU provers when the provers are the CPU");
      }
    } else if (key == "cpu_fallback_max_sector_size") {
      e.cpu_fallback_max_sector_size = r.size(n, where);
    } else if (key == "backend") {
      e.backend = r.one_of(n, where, {"auto", "cpu", "gpu"});
    } else if (key == "memory_limit") {
      // Device bytes each GPU prover may use; 0: the device's. Below 1 GiB no 32 GiB-class
      // partition could run, and a unit slip ("16" for 16 GiB) is the likelier meaning.
      e.gpu_memory_limit = r.size(n, where);
      if (e.gpu_memory_limit != 0 && e.gpu_memory_limit < kGiB) {
        r.fail(&n, where,
               "must be 0 (the device's memory) or at least 1GiB, got " +
                   std::to_string(e.gpu_memory_limit) + " bytes");
      }
    } else {
      ignored("the CPU side of GPU proving uses [synthesis] threads");
    }
  } else if (section == "scheduler") {
    if (key == "max_batch_size") {
      e.max_batch_size = static_cast<unsigned>(r.uint(n, where, 1024));
      if (e.max_batch_size == 0) r.fail(&n, where, "must be at least 1");
    } else if (key == "max_batch_wait_ms") {
      e.max_batch_wait_ms = r.uint(n, where);
    } else if (key == "sort_by_type") {
      e.sort_by_type = r.boolean(n, where);
    }
  } else if (section == "synthesis") {
    if (key == "threads") {
      e.threads = static_cast<unsigned>(r.uint(n, where, 4096));
    } else if (key == "workers") {
      p.workers = &n;
      r.uint(n, where, 1024);
    } else {
      ignored("partition concurrency is bounded by [memory] total_budget");
    }
  } else if (section == "pipeline") {
    if (key == "enabled") {
      c.pipeline_enabled = r.boolean(n, where);
    } else if (key == "synthesis_lookahead") {
      p.lookahead = &n;
      r.uint(n, where, 1024);
    } else if (key == "synthesis_concurrency") {
      p.synthesis_concurrency = &n;
      r.uint(n, where, 1024);
    } else if (key == "verify_proofs") {
      e.verify_proofs = r.boolean(n, where);
    } else if (key == "max_parallel_synthesis") {
      p.max_parallel_synthesis = &n;
      r.uint(n, where, 1024);
    } else {  // slot_size, max_gpu_queue_depth
      r.uint(n, where, 1024);
      ignored(
          "synthesized partitions always go to the provers one at a time here; how many may "
          "wait is [pipeline] synthesis_lookahead");
    }
  } else if (section == "pce") {
    if (key == "enabled") {
      e.pce_enabled = r.boolean(n, where);
    } else if (key == "cache_dir") {
      e.pce_dir = r.string(n, where);
    }
  } else if (section == "spool") {
    if (key == "dir") {
      e.spool_dir = r.string(n, where);
    } else if (key == "max_size") {
      e.spool_max_bytes = r.size(n, where);
    }
  } else if (section == "faults") {
    e.faults = r.string(n, where);
    try {
      parse_fault_plan(e.faults);
    } catch (const std::invalid_argument& ex) {
      r.fail(&n, where, ex.what());
    }
  } else if (section == "logging") {
    if (key == "level") {
      try {
        const LogLevel level = parse_log_level(r.string(n, where));
        c.log_level = level.level;
        if (!level.note.empty()) c.notes.push_back(where + ": " + level.note);
      } catch (const std::invalid_argument& ex) {
        r.fail(&n, where, ex.what());
      }
    } else if (key == "format") {
      // The Rust daemon reads any string here and uses none of them.
      const std::string format = r.string(n, where);
      if (format == "text" || format == "json") {
        c.log_format = format;
      } else {
        c.notes.push_back(where + " = \"" + format +
                          "\": not a format here (text or json); the log is text");
      }
    }
  }
}

void resolve(const Reader& r, const Pending& p, const SystemFacts& facts, DaemonConfig& c) {
  engine::EngineConfig& e = c.engine;

  // "auto" (the default) is the Rust daemon's rule: MemTotal minus the safety margin.
  if (is_auto(p.total_budget)) {
    if (facts.mem_total_bytes <= p.safety_margin) {
      r.fail(p.total_budget, "[memory] total_budget",
             "\"auto\" leaves nothing: MemTotal " + binary_size_name(facts.mem_total_bytes) +
                 " minus safety_margin " + binary_size_name(p.safety_margin));
    }
    e.memory_budget_bytes = facts.mem_total_bytes - p.safety_margin;
    c.memory_budget_origin = "auto: MemTotal " + binary_size_name(facts.mem_total_bytes) +
                             " - safety_margin " + binary_size_name(p.safety_margin);
    if (e.memory_budget_bytes < kMinMemoryBudget) {
      r.fail(p.total_budget, "[memory] total_budget",
             "\"auto\" leaves " + std::to_string(e.memory_budget_bytes) + " bytes (" +
                 c.memory_budget_origin + "), less than " + binary_size_name(kMinMemoryBudget));
    }
  } else {
    e.memory_budget_bytes = r.size(*p.total_budget, "[memory] total_budget");
    if (e.memory_budget_bytes != 0 && e.memory_budget_bytes < kMinMemoryBudget) {
      r.fail(p.total_budget, "[memory] total_budget",
             "must be \"auto\", 0 (no limit) or at least " + binary_size_name(kMinMemoryBudget) +
                 ", got " + std::to_string(e.memory_budget_bytes) + " bytes");
    }
    c.memory_budget_origin = e.memory_budget_bytes == 0 ? "0: no limit" : "configured";
  }

  if (p.workers != nullptr && p.synthesis_concurrency != nullptr) {
    r.fail(p.synthesis_concurrency, "[pipeline] synthesis_concurrency",
           "the Rust daemon's name for [synthesis] workers; give only one of them");
  }
  const toml::node* workers = p.workers != nullptr ? p.workers : p.synthesis_concurrency;
  if (workers != nullptr) {
    const char* where =
        p.workers != nullptr ? "[synthesis] workers" : "[pipeline] synthesis_concurrency";
    e.synthesis_workers = static_cast<unsigned>(r.uint(*workers, where, 1024));
    if (e.synthesis_workers == 0) r.fail(workers, where, "must be at least 1");
  }
  if (p.max_parallel_synthesis != nullptr) {
    // The Rust daemon's cap on partition syntheses running at once (0: its default, 18).
    const auto cap = static_cast<unsigned>(
        r.uint(*p.max_parallel_synthesis, "[pipeline] max_parallel_synthesis", 1024));
    if (cap != 0 && e.synthesis_workers > cap) e.synthesis_workers = cap;
  }
  if (p.lookahead != nullptr) {
    e.synthesis_lookahead =
        static_cast<unsigned>(r.uint(*p.lookahead, "[pipeline] synthesis_lookahead", 1024));
  }
  // Without the pipeline: one synthesis worker and the shortest hand-off queue. The engine's
  // queue holds at least one partition, so synthesis of the next partition can still overlap
  // proving of the current one; this is the least overlap the engine offers.
  if (!c.pipeline_enabled) {
    e.synthesis_workers = 1;
    e.synthesis_lookahead = 1;
  }
  if ((p.tls_cert == nullptr) != (p.tls_key == nullptr)) {
    r.fail(p.tls_cert != nullptr ? p.tls_cert : p.tls_key,
           p.tls_cert != nullptr ? "[daemon] tls_cert" : "[daemon] tls_key",
           "TLS needs both tls_cert and tls_key");
  }
  if (p.client_ca != nullptr && p.tls_cert == nullptr) {
    r.fail(p.client_ca, "[daemon] client_ca",
           "client certificates need TLS: set tls_cert and tls_key too");
  }
}

}  // namespace

SystemFacts SystemFacts::of_this_machine() {
  SystemFacts f;
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> name >> kib >> unit) {
    if (name == "MemTotal:") {
      f.mem_total_bytes = kib * kKiB;
      break;
    }
  }
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE")) f.param_cache_env = env;
  if (const char* env = std::getenv("CUZK_FAULT")) f.fault_env = env;
  return f;
}

DaemonConfig parse_daemon_config(std::string_view toml_text, const std::string& source,
                                 const SystemFacts& facts) {
  DaemonConfig c;
  c.listen = parse_listen_address(kDefaultListen, true);
  c.engine.param_cache =
      facts.param_cache_env.empty() ? std::string(kDefaultParamCache) : facts.param_cache_env;

  check_key_depth(toml_text, source);
  toml::table root;
  try {
    root = toml::parse(toml_text, source);
  } catch (const toml::parse_error& e) {
    throw ConfigError(source + ":" + std::to_string(e.source().begin.line) + ":" +
                      std::to_string(e.source().begin.column) + ": " +
                      std::string(e.description()));
  }

  const Reader r(source);
  Pending pending;
  for (const auto& [section_key, section_node] : root) {
    const std::string_view section = section_key.str();
    const auto known = std::find_if(schema().begin(), schema().end(),
                                    [&](const Section& s) { return s.name == section; });
    if (known == schema().end()) {
      std::vector<std::string_view> names;
      for (const Section& s : schema())
        names.push_back(s.name);
      r.fail(&section_node, std::string(section),
             "unknown section or top-level key (known sections: " + join(names) + ")");
    }
    const toml::table* table = section_node.as_table();
    if (table == nullptr) {
      r.fail(&section_node, std::string(section),
             std::string("expected a table [") + std::string(section) + "], got " +
                 type_name(section_node));
    }
    for (const auto& [key, node] : *table) {
      if (std::find(known->keys.begin(), known->keys.end(), key.str()) == known->keys.end()) {
        r.fail(&node, "[" + std::string(section) + "] " + std::string(key.str()),
               "unknown key (known in [" + std::string(section) + "]: " + join(known->keys) + ")");
      }
      apply_key(r, section, key.str(), node, c, pending);
    }
  }
  resolve(r, pending, facts, c);
  if (!facts.fault_env.empty()) {  // the environment's plan replaces [faults] inject
    try {
      parse_fault_plan(facts.fault_env);
    } catch (const std::invalid_argument& ex) {
      throw ConfigError(std::string("CUZK_FAULT: ") + ex.what());
    }
    c.engine.faults = facts.fault_env;
  }
  return c;
}

DaemonConfig load_daemon_config(const std::filesystem::path& file, const SystemFacts& facts) {
  if (file.empty()) return parse_daemon_config("", "(defaults)", facts);
  std::string text;
  try {
    text = read_input_file(file, kMaxConfigBytes, InputKind::kRegularOnly);
  } catch (const InputFileError& e) {
    throw ConfigError(e.what());
  }
  return parse_daemon_config(text, file.string(), facts);
}

}  // namespace cuzk::server
