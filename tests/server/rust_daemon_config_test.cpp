// The Rust cuzk daemon's configs load here: Curio's example as it ships and every key of its
// reader (deprecated keys as notes), and its log levels.
#include <gtest/gtest.h>

#include <string>

#include "daemon_config_test_util.hpp"
#include "server/daemon_config.hpp"
#include "server/log_level.hpp"

namespace cuzk::server {
namespace {

using testing::error_of;
using testing::facts_64g;
using testing::kGiB;
using testing::parse;

TEST(DaemonConfig, TheRustDaemonsExampleLoadsWithNotes) {
  // tests/server/data/curio_cuzk.example.toml: Curio's example as it ships.
  const DaemonConfig c = load_daemon_config(CUZK_CURIO_EXAMPLE_CONFIG, facts_64g());
  EXPECT_EQ(c.listen.host_port, "0.0.0.0:9820");
  EXPECT_EQ(c.engine.memory_budget_bytes, 59 * kGiB);
  EXPECT_EQ(c.engine.synthesis_workers, 1u);
  ASSERT_EQ(c.notes.size(), 3u);  // sections in name order
  EXPECT_NE(c.notes[0].find("[gpus] gpu_threads: accepted for compatibility"), std::string::npos);
  // Two workers per GPU are one here: said, not silently kept.
  EXPECT_NE(c.notes[1].find("[gpus] gpu_workers_per_device = 2: one prover runs per GPU"),
            std::string::npos)
      << c.notes[1];
  EXPECT_NE(c.notes[2].find("[memory] eviction_min_idle"), std::string::npos);
  EXPECT_EQ(parse("[pipeline]\nsynthesis_concurrency = 3").engine.synthesis_workers, 3u);
  EXPECT_NE(error_of("[pipeline]\nsynthesis_concurrency = 3\n[synthesis]\nworkers = 2")
                .find("give only one of them"),
            std::string::npos);
}

// Every key cuzk-core's config reader (Curio e0294b0, extern/cuzk/cuzk-core/src/config.rs: its
// serde structs and their deprecated fields) knows, with values of its types, loads: mapped where
// it means something here, a note where it does not.
TEST(DaemonConfig, EveryKeyOfTheRustDaemonsReaderLoads) {
  const DaemonConfig c = parse(R"(
[daemon]
listen = "unix:///run/curio/cuzk.sock"
status_listen = "0.0.0.0:9821"
[memory]
total_budget = "256GiB"
safety_margin = "8GiB"
eviction_min_idle = "10m"
pinned_budget = "50GiB"
working_memory_budget = "80GiB"
[gpus]
devices = [0]
gpu_threads = 32
gpu_workers_per_device = 2
[scheduler]
max_batch_size = 1
max_batch_wait_ms = 10000
sort_by_type = true
[synthesis]
threads = 0
partition_workers = 12
[pipeline]
enabled = true
synthesis_lookahead = 1
synthesis_concurrency = 4
max_parallel_synthesis = 3
slot_size = 3
max_gpu_queue_depth = 8
[srs]
param_cache = "/data/zk/params"
preload = ["porep-32g"]
[logging]
level = "info"
format = "pretty"
)");
  EXPECT_EQ(c.listen.path, "/run/curio/cuzk.sock");
  EXPECT_EQ(c.status_listen->host_port, "0.0.0.0:9821");  // written out: every interface
  EXPECT_EQ(c.engine.memory_budget_bytes, 256 * kGiB);
  EXPECT_EQ(c.engine.gpus, std::vector<int>{0});
  EXPECT_EQ(c.engine.cpu_workers, 2u);
  EXPECT_EQ(c.engine.max_batch_wait_ms, 10000u);
  EXPECT_TRUE(c.engine.sort_by_type);
  EXPECT_EQ(c.engine.synthesis_workers, 3u);  // synthesis_concurrency 4, capped at 3
  EXPECT_EQ(c.engine.param_cache, "/data/zk/params");
  EXPECT_EQ(c.log_format, "text");
  std::string all;
  for (const std::string& n : c.notes)
    all += n + "\n";
  for (const char* key :
       {"[gpus] gpu_threads", "[gpus] gpu_workers_per_device", "[logging] format = \"pretty\"",
        "[memory] eviction_min_idle", "[memory] pinned_budget", "[memory] working_memory_budget",
        "[pipeline] max_gpu_queue_depth", "[pipeline] slot_size", "[srs] preload",
        "[synthesis] partition_workers"}) {
    EXPECT_NE(all.find(key), std::string::npos) << key << " not noted in:\n" << all;
  }
  EXPECT_EQ(c.notes.size(), 10u) << all;
  // max_parallel_synthesis 0 is the Rust default (18): no cap.
  EXPECT_EQ(parse("[pipeline]\nsynthesis_concurrency = 4\nmax_parallel_synthesis = 0")
                .engine.synthesis_workers,
            4u);
}

// The config's "warn" and the Rust daemon's "warning" are one level; an EnvFilter directive list
// counts its bare level and notes the targets.
TEST(DaemonConfig, LogLevelsAsTheRustDaemonWritesThem) {
  EXPECT_EQ(parse("[logging]\nlevel = \"warning\"").log_level, "warn");
  EXPECT_EQ(parse("[logging]\nlevel = \"WARN\"").log_level, "warn");
  const DaemonConfig d = parse("[logging]\nlevel = \"info,cuzk_core=debug\"");
  EXPECT_EQ(d.log_level, "info");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("per-target levels (cuzk_core=debug)"), std::string::npos)
      << d.notes[0];
  EXPECT_EQ(parse_log_level("cuzk_core=debug,tonic=warn").level, "debug");  // no bare level
  EXPECT_EQ(parse_log_level(" error ").level, "error");
  EXPECT_EQ(parse_log_level("off").note, "");
  for (const char* bad : {"", "loud", ",", "info,x=", "x=loud"}) {
    EXPECT_THROW(parse_log_level(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace cuzk::server
