// cuzk-daemon's TOML configuration: the defaults of an empty file, every key onto EngineConfig
// and the daemon's own settings, sizes ("256GiB"), listen addresses, errors naming file, line and
// key, the round trip of --print-config, and apps/cuzk-daemon/cuzk.example.toml giving exactly the
// defaults (the Rust daemon's configs: rust_daemon_config_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "daemon_config_test_util.hpp"
#include "server/daemon_config.hpp"
#include "util/text.hpp"

namespace cuzk::server {
namespace {

using testing::error_of;
using testing::facts_64g;
using testing::kGiB;
using testing::kMiB;
using testing::parse;

TEST(DaemonConfig, EmptyFileGivesWorkingDefaults) {
  const DaemonConfig c = parse("");
  EXPECT_TRUE(c.listen.is_unix);
  // The Rust daemon's socket (cuzk-core config.rs default_listen); the parameters where
  // `curio fetch-params` puts them (rust-fil-proofs settings.rs).
  EXPECT_EQ(c.listen.path, "/run/curio/cuzk.sock");
  EXPECT_EQ(c.listen.grpc_uri(), "unix:///run/curio/cuzk.sock");
  EXPECT_EQ(c.socket_mode, 0600u);
  EXPECT_EQ(c.socket_group, "");
  EXPECT_TRUE(c.tls_cert.empty() && c.tls_key.empty() && c.client_ca.empty());
  EXPECT_EQ(c.engine.cpu_fallback_max_sector_size, 512 * kMiB);
  EXPECT_FALSE(c.status_listen.has_value());
  EXPECT_EQ(c.shutdown, ShutdownMode::kFinish);
  EXPECT_EQ(c.shutdown_timeout_s, 300u);
  EXPECT_EQ(c.engine.param_cache, "/var/tmp/filecoin-proof-parameters");
  EXPECT_EQ(c.engine.memory_budget_bytes, 59 * kGiB);  // MemTotal - 5 GiB
  EXPECT_EQ(c.memory_budget_origin, "auto: MemTotal 64GiB - safety_margin 5GiB");
  EXPECT_EQ(c.engine.backend, "auto");
  EXPECT_TRUE(c.engine.gpus.empty());
  EXPECT_EQ(c.engine.cpu_workers, 1u);
  EXPECT_EQ(c.engine.max_batch_size, 1u);
  EXPECT_EQ(c.engine.max_batch_wait_ms, 0u);
  EXPECT_FALSE(c.engine.sort_by_type);
  EXPECT_EQ(c.engine.threads, 0u);
  EXPECT_EQ(c.engine.synthesis_workers, 1u);
  EXPECT_TRUE(c.pipeline_enabled);
  EXPECT_EQ(c.engine.synthesis_lookahead, 1u);
  EXPECT_TRUE(c.engine.verify_proofs);
  EXPECT_EQ(c.engine.finished_job_ttl_s, 3600u);
  EXPECT_EQ(c.log_level, "info");
  EXPECT_EQ(c.log_format, "text");
  EXPECT_TRUE(c.notes.empty());
}

TEST(DaemonConfig, ParamCacheDefaultsToTheEnvironment) {
  SystemFacts f = facts_64g();
  f.param_cache_env = "/srv/params";
  EXPECT_EQ(parse("", f).engine.param_cache, "/srv/params");
  EXPECT_EQ(parse("[srs]\nparam_cache = \"/x\"", f).engine.param_cache, "/x");
}

TEST(DaemonConfig, FaultsComeFromTheFileOrTheEnvironmentAndAreChecked) {
  EXPECT_EQ(parse("").engine.faults, "");
  EXPECT_EQ(parse("[faults]\ninject = \"prove:2,gpu-alloc:1+\"").engine.faults,
            "prove:2,gpu-alloc:1+");
  SystemFacts f = facts_64g();
  f.fault_env = "corrupt-proof:1";
  EXPECT_EQ(parse("[faults]\ninject = \"prove:2\"", f).engine.faults, "corrupt-proof:1");
  try {
    parse("\n[faults]\ninject = \"gpu-kernel:1\"");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("test.toml:3: [faults] inject"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("gpu-launch"), std::string::npos) << e.what();
  }
  f.fault_env = "prove";
  EXPECT_THROW(parse("", f), ConfigError);
}

TEST(DaemonConfig, SpoolDirectoryAndDiskShare) {
  const DaemonConfig d = parse("");
  EXPECT_TRUE(d.engine.spool_dir.empty());
  EXPECT_EQ(d.engine.spool_max_bytes, 16 * kGiB);
  const DaemonConfig c = parse("[spool]\ndir = \"/var/spool/cuzk\"\nmax_size = \"2GiB\"");
  EXPECT_EQ(c.engine.spool_dir, "/var/spool/cuzk");
  EXPECT_EQ(c.engine.spool_max_bytes, 2 * kGiB);
}

TEST(DaemonConfig, ParameterChecksAreOffOnlyWhenAsked) {
  const DaemonConfig d = parse("");
  EXPECT_FALSE(d.engine.allow_insecure_params);  // marked test parameters are refused
  EXPECT_FALSE(d.engine.verify_param_digests);
  EXPECT_FALSE(d.engine.check_param_subgroups);
  const DaemonConfig c =
      parse("[srs]\nallow_insecure_params = true\nverify_digests = true\ncheck_subgroups = true");
  EXPECT_TRUE(c.engine.allow_insecure_params);
  EXPECT_TRUE(c.engine.verify_param_digests);
  EXPECT_TRUE(c.engine.check_param_subgroups);
  EXPECT_NE(to_toml(c).find("allow_insecure_params = true"), std::string::npos) << to_toml(c);
  try {
    parse("[srs]\nallow_insecure_params = \"yes\"");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("[srs] allow_insecure_params: expected true or false"),
              std::string::npos)
        << e.what();
  }
}

TEST(DaemonConfig, HostPointsAreAlwaysKeptUnlessAuto) {
  using HostPoints = engine::EngineConfig::HostPoints;
  EXPECT_EQ(parse("").engine.srs_host_points, HostPoints::kAuto);
  EXPECT_EQ(parse("[srs]\nhost_points = \"always\"").engine.srs_host_points, HostPoints::kAlways);
  const DaemonConfig c = parse("[srs]\nhost_points = \"auto\"");
  EXPECT_EQ(c.engine.srs_host_points, HostPoints::kAuto);
  EXPECT_NE(to_toml(c).find("host_points = 'auto'"), std::string::npos) << to_toml(c);
  EXPECT_EQ(parse(to_toml(c)).engine.srs_host_points, HostPoints::kAuto);
  EXPECT_EQ(parse(to_toml(parse(""))).engine.srs_host_points, HostPoints::kAuto);
  const DaemonConfig always = parse("[srs]\nhost_points = \"always\"");
  EXPECT_EQ(parse(to_toml(always)).engine.srs_host_points, HostPoints::kAlways);
  for (const char* bad : {"[srs]\nhost_points = \"never\"", "[srs]\nhost_points = true"}) {
    try {
      parse(bad);
      FAIL() << "no error for " << bad;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("[srs] host_points"), std::string::npos) << e.what();
      if (std::string(bad).find("never") != std::string::npos) {  // names what it takes
        EXPECT_NE(std::string(e.what()).find("is not one of always, auto"), std::string::npos)
            << e.what();
      }
    }
  }
}

TEST(DaemonConfig, EveryKey) {
  const DaemonConfig c = parse(R"(
[daemon]
listen = "10.0.0.1:9820"
status_listen = "0.0.0.0:9821"
shutdown = "cancel"
shutdown_timeout_s = 60
result_ttl_s = 120

[srs]
param_cache = "/data/zk/params"

[memory]
total_budget = "256GiB"
safety_margin = "1GiB"

[gpus]
devices = [0, 2]
gpu_workers_per_device = 2
backend = "cpu"

[scheduler]
max_batch_size = 3
max_batch_wait_ms = 10000
sort_by_type = true

[synthesis]
threads = 32
workers = 2

[pipeline]
enabled = true
synthesis_lookahead = 4
verify_proofs = false

[logging]
level = "debug"
format = "json"
)");
  EXPECT_FALSE(c.listen.is_unix);
  EXPECT_EQ(c.listen.host_port, "10.0.0.1:9820");
  ASSERT_TRUE(c.status_listen.has_value());
  EXPECT_EQ(c.status_listen->host_port, "0.0.0.0:9821");
  EXPECT_EQ(c.shutdown, ShutdownMode::kCancel);
  EXPECT_EQ(c.shutdown_timeout_s, 60u);
  EXPECT_EQ(c.engine.finished_job_ttl_s, 120u);
  EXPECT_EQ(c.engine.param_cache, "/data/zk/params");
  EXPECT_EQ(c.engine.memory_budget_bytes, 256 * kGiB);  // explicit: no margin taken off
  EXPECT_EQ(c.memory_budget_origin, "configured");
  EXPECT_EQ(c.engine.gpus, (std::vector<int>{0, 2}));
  EXPECT_EQ(c.engine.cpu_workers, 2u);
  EXPECT_EQ(c.engine.backend, "cpu");
  EXPECT_EQ(c.engine.max_batch_size, 3u);
  EXPECT_EQ(c.engine.max_batch_wait_ms, 10000u);
  EXPECT_TRUE(c.engine.sort_by_type);
  EXPECT_EQ(c.engine.threads, 32u);
  EXPECT_EQ(c.engine.synthesis_workers, 2u);
  EXPECT_EQ(c.engine.synthesis_lookahead, 4u);
  EXPECT_FALSE(c.engine.verify_proofs);
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.log_format, "json");
}

TEST(DaemonConfig, MemoryBudgetForms) {
  EXPECT_EQ(parse("[memory]\ntotal_budget = \"auto\"\nsafety_margin = \"4GiB\"")
                .engine.memory_budget_bytes,
            60 * kGiB);
  EXPECT_EQ(parse("[memory]\nsafety_margin = 1073741824").engine.memory_budget_bytes, 63 * kGiB);
  EXPECT_EQ(parse("[memory]\ntotal_budget = \"512MiB\"").engine.memory_budget_bytes, 512 * kMiB);
  EXPECT_EQ(parse("[memory]\ntotal_budget = 67108864").engine.memory_budget_bytes, 64 * kMiB);
  // "0.5" read as bytes was 0, which is "no limit" (issue 29); below 64 MiB is a unit slip.
  for (const char* small : {"\"0.5\"", "4096", "\"63MiB\"", "\"0.9\""}) {
    const std::string e = error_of(std::string("[memory]\ntotal_budget = ") + small);
    EXPECT_TRUE(e.starts_with("test.toml:2: [memory] total_budget: ")) << small << ": " << e;
    EXPECT_TRUE(e.find("less than one byte") != std::string::npos ||
                e.find("must be \"auto\", 0 (no limit) or at least 64MiB") != std::string::npos)
        << small << ": " << e;
  }
  const DaemonConfig unlimited = parse("[memory]\ntotal_budget = 0");
  EXPECT_EQ(unlimited.engine.memory_budget_bytes, 0u);
  EXPECT_EQ(unlimited.memory_budget_origin, "0: no limit");
  EXPECT_NE(error_of("[memory]\nsafety_margin = \"64GiB\"")
                .find("[memory] total_budget: "
                      "\"auto\" leaves nothing"),
            std::string::npos);
  EXPECT_EQ(error_of("[memory]\nsafety_margin = \"65504MiB\""),
            "test.toml: [memory] total_budget: \"auto\" leaves 33554432 bytes (auto: MemTotal "
            "64GiB - safety_margin 65504MiB), less than 64MiB");
}

// [gpus] memory_limit: a size string or bytes, 0 for the device's memory; a value under 1 GiB
// (a unit slip), a negative number or a word is refused naming the key.
TEST(DaemonConfig, GpuMemoryLimitForms) {
  EXPECT_EQ(parse("").engine.gpu_memory_limit, 0u);
  EXPECT_EQ(parse("[gpus]\nmemory_limit = \"16GiB\"").engine.gpu_memory_limit, 16 * kGiB);
  EXPECT_EQ(parse("[gpus]\nmemory_limit = \"24GiB\"").engine.gpu_memory_limit, 24 * kGiB);
  EXPECT_EQ(parse("[gpus]\nmemory_limit = 25769803776").engine.gpu_memory_limit, 24 * kGiB);
  EXPECT_EQ(parse("[gpus]\nmemory_limit = 0").engine.gpu_memory_limit, 0u);
  EXPECT_EQ(parse("[gpus]\nmemory_limit = \"1GiB\"").engine.gpu_memory_limit, kGiB);
  const std::string small = error_of("[gpus]\nmemory_limit = \"512MiB\"");
  EXPECT_NE(small.find("test.toml:2: [gpus] memory_limit: must be 0"), std::string::npos) << small;
  EXPECT_NE(small.find("536870912 bytes"), std::string::npos) << small;
  EXPECT_NE(error_of("[gpus]\nmemory_limit = 16").find("at least 1GiB"), std::string::npos);
  EXPECT_NE(error_of("[gpus]\nmemory_limit = -1").find("[gpus] memory_limit"), std::string::npos);
  EXPECT_NE(error_of("[gpus]\nmemory_limit = \"lots\"").find("[gpus] memory_limit"),
            std::string::npos);
  EXPECT_NE(error_of("[gpus]\nmemory_limit = true").find("[gpus] memory_limit"), std::string::npos);
  // It survives the printed form.
  const DaemonConfig c = parse("[gpus]\nmemory_limit = \"16GiB\"");
  EXPECT_EQ(parse(to_toml(c)).engine.gpu_memory_limit, 16 * kGiB);
}

TEST(DaemonConfig, PipelineDisabledMeansOneWorkerAndTheShortestQueue) {
  const DaemonConfig c =
      parse("[pipeline]\nenabled = false\nsynthesis_lookahead = 8\n[synthesis]\nworkers = 4");
  EXPECT_FALSE(c.pipeline_enabled);
  EXPECT_EQ(c.engine.synthesis_workers, 1u);
  EXPECT_EQ(c.engine.synthesis_lookahead, 1u);
}

// The unix socket's mode (octal text or a TOML integer) and group, TLS files, the CPU fallback's
// size limit; a port alone on the status listener is the loopback interface.
TEST(DaemonConfig, SocketTlsFallbackAndStatusPort) {
  const DaemonConfig c = parse(R"(
[daemon]
socket_mode = "0660"
socket_group = "cuzk"
tls_cert = "/etc/cuzk/server.pem"
tls_key = "/etc/cuzk/server.key"
client_ca = "/etc/cuzk/clients.pem"
status_listen = "9821"
[gpus]
cpu_fallback_max_sector_size = "32GiB"
)");
  EXPECT_EQ(c.socket_mode, 0660u);
  EXPECT_EQ(c.socket_group, "cuzk");
  EXPECT_EQ(c.tls_cert, "/etc/cuzk/server.pem");
  EXPECT_EQ(c.tls_key, "/etc/cuzk/server.key");
  EXPECT_EQ(c.client_ca, "/etc/cuzk/clients.pem");
  EXPECT_EQ(c.status_listen->host_port, "127.0.0.1:9821");
  EXPECT_EQ(c.engine.cpu_fallback_max_sector_size, 32 * kGiB);
  EXPECT_EQ(parse("[daemon]\nsocket_mode = 0o640").socket_mode, 0640u);
  EXPECT_EQ(parse("[daemon]\nstatus_listen = \":9821\"").status_listen->host_port,
            "127.0.0.1:9821");
  EXPECT_EQ(parse("[gpus]\ncpu_fallback_max_sector_size = 0").engine.cpu_fallback_max_sector_size,
            0u);
  const DaemonConfig again = parse(to_toml(c));
  EXPECT_EQ(to_toml(again), to_toml(c));
  EXPECT_EQ(again.socket_mode, 0660u);
}

TEST(DaemonConfig, ErrorsNameFileLineAndKey) {
  const struct {
    const char* text;
    const char* message;
  } kCases[] = {
      {"[nope]\nx = 1", "test.toml:1: nope: unknown section"},
      {"listen = \"x:1\"", "test.toml:1: listen: unknown section or top-level key"},
      {"daemon = 3", "test.toml:1: daemon: expected a table [daemon], got an integer"},
      {"[daemon]\nlisen = \"x:1\"",
       "test.toml:2: [daemon] lisen: unknown key (known in [daemon]: listen, "},
      {"[daemon]\nlisten = 9820",
       "test.toml:2: [daemon] listen: expected a string, got an "
       "integer"},
      {"[daemon]\nlisten = \"localhost\"",
       "test.toml:2: [daemon] listen: \"localhost\": expected unix:///path or host:port"},
      // A host with ':' is no host (it printed back as a unix socket: the fuzzer's find), and
      // an IPv6 address needs its brackets closed.
      {"[daemon]\nlisten = \"tcp://unix:..01:0\"",
       "[daemon] listen: \"tcp://unix:..01:0\": expected unix:///path or host:port"},
      {"[daemon]\nlisten = \"tcp:// .1:9820\"",
       "[daemon] listen: \"tcp:// .1:9820\": expected unix:///path or host:port"},
      {"[daemon]\nstatus_listen = \"[::1\"",
       "[daemon] status_listen: \"[::1\": expected host:port"},
      {"[daemon]\nstatus_listen = \"::1:80\"",
       "[daemon] status_listen: \"::1:80\": expected host:port"},
      {"[daemon]\nstatus_listen = \"unix:///tmp/m.sock\"",
       "[daemon] status_listen: \"unix:///tmp/m.sock\": expected host:port"},
      {"[daemon]\nshutdown = \"now\"",
       "test.toml:2: [daemon] shutdown: \"now\" is not one of finish, cancel"},
      {"[daemon]\nshutdown_timeout_s = -1",
       "test.toml:2: [daemon] shutdown_timeout_s: expected an integer in 0..4294967295, got -1"},
      {"[srs]\nparam_cache = \"\"", "test.toml:2: [srs] param_cache: must not be empty"},
      {"[memory]\ntotal_budget = \"lots\"",
       "test.toml:2: [memory] total_budget: \"lots\" is not a size"},
      {"[memory]\ntotal_budget = 1.5", "[memory] total_budget: expected a string, got a float"},
      {"[memory]\nsafety_margin = \"5 parsecs\"", "[memory] safety_margin: \"5 parsecs\" is not"},
      {"[gpus]\ndevices = 0", "test.toml:2: [gpus] devices: expected an array, got an integer"},
      {"[gpus]\ndevices = [\"0\"]", "[gpus] devices: expected an integer, got a string"},
      {"[gpus]\nbackend = \"cuda\"", "[gpus] backend: \"cuda\" is not one of auto, cpu, gpu"},
      {"[gpus]\ngpu_workers_per_device = 0", "[gpus] gpu_workers_per_device: must be at least 1"},
      {"[scheduler]\nmax_batch_size = \"4\"",
       "test.toml:2: [scheduler] max_batch_size: expected an integer, got a string"},
      {"[scheduler]\nmax_batch_size = 0", "[scheduler] max_batch_size: must be at least 1"},
      {"[scheduler]\nsort_by_type = \"yes\"",
       "[scheduler] sort_by_type: expected true or false, got a string"},
      {"[synthesis]\nworkers = 0", "test.toml:2: [synthesis] workers: must be at least 1"},
      {"[pipeline]\nenabled = 1", "[pipeline] enabled: expected true or false, got an integer"},
      {"[logging]\nlevel = \"verbose\"",
       "[logging] level: \"verbose\" is not a log level (trace, debug, info, warn (or warning), "
       "error, off"},
      {"[logging]\nlevel = \"info,x=loud\"", "[logging] level: \"info,x=loud\" is not a log level"},
      {"[logging]\nformat = 1", "[logging] format: expected a string, got an integer"},
      {"[daemon]\nsocket_mode = \"0999\"",
       "test.toml:2: [daemon] socket_mode: \"0999\" is not an octal mode such as \"0660\""},
      {"[daemon]\nsocket_mode = \"rw-rw----\"", "[daemon] socket_mode: \"rw-rw----\" is not"},
      {"[daemon]\nsocket_mode = 4095", "[daemon] socket_mode: expected an integer in 0..511"},
      {"[daemon]\ntls_cert = \"/etc/cuzk/cert.pem\"",
       "test.toml:2: [daemon] tls_cert: TLS needs both tls_cert and tls_key"},
      {"[daemon]\ntls_key = \"/etc/cuzk/key.pem\"", "[daemon] tls_key: TLS needs both"},
      {"[daemon]\nclient_ca = \"/etc/cuzk/ca.pem\"",
       "test.toml:2: [daemon] client_ca: client certificates need TLS"},
      {"[gpus]\ncpu_fallback_max_sector_size = \"big\"",
       "[gpus] cpu_fallback_max_sector_size: \"big\" is not a size"},
      {"[pipeline]\nslot_size = -1", "[pipeline] slot_size: expected an integer in 0..1024"},
      {"[pipeline]\nmax_gpu_queue_depth = \"8\"",
       "[pipeline] max_gpu_queue_depth: expected an integer, got a string"},
      {"[daemon\nlisten = 1", "test.toml:1:"},  // TOML syntax error: line and column
  };
  for (const auto& c : kCases) {
    const std::string e = error_of(c.text);
    EXPECT_NE(e.find(c.message), std::string::npos) << c.text << "\n  got: " << e;
  }
}

// Keys nested past the schema's depth are refused before toml++, which recursed on them until
// the stack ran out (SIGSEGV at 100,000 levels); dots in strings and comments do not count.
TEST(DaemonConfig, KeysNestedPastTheSchemaAreRefusedBeforeParsing) {
  std::string dotted = "a";
  for (int i = 0; i < 100'000; ++i)
    dotted += ".a";
  EXPECT_EQ(error_of("[daemon]\n" + dotted + " = 1"),
            "test.toml:2: more than 16 dots in one line: keys nested that deep are not "
            "cuzk-daemon settings");
  const std::string dots(40, '.');
  const std::string quoted = "[srs]\nparam_cache = \"/a/" + dots + "\" # " + dots + "\n";
  EXPECT_EQ(error_of(quoted + "[gpus]\nbackend = '" + dots + "'"),
            "test.toml:4: [gpus] backend: \"" + dots + "\" is not one of auto, cpu, gpu");
  EXPECT_EQ(error_of(quoted + "a" + std::string(17, '.')).substr(0, 33),
            "test.toml:3: more than 16 dots in");
}

TEST(DaemonConfig, LoadFromFile) {
  EXPECT_EQ(to_toml(load_daemon_config("", facts_64g())), to_toml(parse("")));
  try {
    load_daemon_config("/nonexistent/cuzk.toml", facts_64g());
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("/nonexistent/cuzk.toml: cannot open"))
        << e.what();
  }
}

// What is not a configuration file is refused before it is read (issue 29: /dev/zero was read
// without end, a directory read as an empty file), and so is one past 1 MiB.
TEST(DaemonConfig, OnlyABoundedRegularFileIsRead) {
  const auto error_loading = [](const std::filesystem::path& p) -> std::string {
    try {
      load_daemon_config(p, facts_64g());
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  const std::filesystem::path dir = ::testing::TempDir();
  EXPECT_EQ(error_loading(dir), dir.string() + ": is a directory, not a file");
  EXPECT_EQ(error_loading("/dev/zero"), "/dev/zero: not a regular file (a device)");
  const std::filesystem::path big = dir / "cuzk-big.toml";
  {
    std::ofstream f(big);
    f << "# " << std::string(kMiB, 'x') << "\n";
  }
  EXPECT_EQ(error_loading(big), big.string() + ": larger than 1 MiB");
  {
    std::ofstream f(big, std::ios::trunc);
    f << "# " << std::string(kMiB - 64, 'x') << "\n[gpus]\nbackend = \"cpu\"\n";
  }
  EXPECT_EQ(error_loading(big), "") << "a file of just under 1 MiB is read";
  std::filesystem::remove(big);
}

TEST(DaemonConfig, PrintedConfigParsesToItself) {
  for (const char* text :
       {"", "[pipeline]\nenabled = false", "[daemon]\nlisten = \"unix:rel.sock\"",
        "[daemon]\nlisten = \"unix:////x.sock\"",
        "[daemon]\nlisten = \"[::1]:9\"\nstatus_listen = \"h:1\"\nshutdown = \"cancel\"\n"
        "[gpus]\ndevices = [1]\n[memory]\ntotal_budget = \"3GiB\"\n[logging]\nformat = \"json\""}) {
    const DaemonConfig c = parse(text);
    const std::string printed = to_toml(c);
    const DaemonConfig again = parse(printed);
    EXPECT_EQ(to_toml(again), printed) << text;
    EXPECT_EQ(again.engine.memory_budget_bytes, c.engine.memory_budget_bytes);
  }
}

TEST(DaemonConfig, ExampleFileDocumentsTheDefaults) {
  SystemFacts f = facts_64g();
  const DaemonConfig example = load_daemon_config(CUZK_DAEMON_EXAMPLE_CONFIG, f);
  EXPECT_EQ(to_toml(example), to_toml(parse("", f)));
  EXPECT_TRUE(example.notes.empty());
}

TEST(Sizes, ParseAndFormat) {
  EXPECT_EQ(parse_size("256GiB"), 256 * kGiB);
  EXPECT_EQ(parse_size("512MiB"), 512 * kMiB);
  EXPECT_EQ(parse_size("512 mib"), 512 * kMiB);
  EXPECT_EQ(parse_size("1.5GiB"), 3 * kGiB / 2);
  EXPECT_EQ(parse_size("2KiB"), 2048u);
  EXPECT_EQ(parse_size("1TiB"), 1024 * kGiB);
  EXPECT_EQ(parse_size("5GB"), 5'000'000'000u);
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("4096B"), 4096u);
  EXPECT_EQ(parse_size(" 7 "), 7u);
  EXPECT_EQ(parse_size("0.5GiB"), 512 * kMiB);
  EXPECT_EQ(parse_size("0"), 0u);
  for (const char* bad :
       {"", "GiB", "-5GiB", "1.2.3GiB", "12XB", "5 G", "1e9", ".", "0.5", "0.999B"}) {
    EXPECT_THROW(parse_size(bad), std::invalid_argument) << bad;
  }
  EXPECT_THROW(parse_size("100000000TiB"), std::invalid_argument);
  EXPECT_EQ(binary_size_name(256 * kGiB), "256GiB");
  EXPECT_EQ(binary_size_name(512 * kMiB), "512MiB");
  EXPECT_EQ(binary_size_name(3 * kGiB / 2), "1536MiB");
  EXPECT_EQ(binary_size_name(1000), "1000");
  EXPECT_EQ(binary_size_name(0), "0");
}

TEST(ListenAddress, Forms) {
  ListenAddress a = parse_listen_address("unix:///run/cuzk/cuzk.sock", true);
  EXPECT_TRUE(a.is_unix);
  EXPECT_EQ(a.path, "/run/cuzk/cuzk.sock");
  a = parse_listen_address("unix:rel.sock", true);
  EXPECT_EQ(a.path, "rel.sock");
  EXPECT_EQ(a.grpc_uri(), "unix:rel.sock");  // gRPC: "unix://rel.sock" names an authority
  EXPECT_EQ(parse_listen_address(a.grpc_uri(), true).path, "rel.sock");
  a = parse_listen_address("0.0.0.0:9820", true);
  EXPECT_FALSE(a.is_unix);
  EXPECT_EQ(a.grpc_uri(), "0.0.0.0:9820");
  EXPECT_EQ(parse_listen_address("[::1]:9820", false).host_port, "[::1]:9820");
  EXPECT_EQ(parse_listen_address("tcp://localhost:1", false).host_port, "localhost:1");
  for (const char* bad : {"unix://rel.sock", "unix:", "unix://", "localhost", ":9820",
                          "h:", "h:99999", "h:12a", "h:123456",
                          // gRPC would read these as URIs of its own schemes (fuzz_daemon_config)
                          "tcp://unix:1", "tcp://unix:9820", "UNIX:1", "tcp://dns:1", "ipv4:80",
                          "tcp://unix-abstract:5", "vsock:1"}) {
    EXPECT_THROW(parse_listen_address(bad, true), std::invalid_argument) << bad;
  }
  EXPECT_THROW(parse_listen_address("unix:///" + std::string(120, 'x'), true),
               std::invalid_argument);
  EXPECT_THROW(parse_listen_address("unix:///tmp/a.sock", false), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::server
