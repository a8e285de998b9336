// cuzk-bench: the daemon client (single, submit, batch, stress, status, preload, evict, metrics,
// cancel, await), in-process microbenchmarks (synth-only, pack-matrices) and, with CUDA, the
// reproducible GPU kernel checks and timing table of issue #4 (kernels).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "pack_matrices_cmd.hpp"
#include "synth_only_cmd.hpp"
#if defined(CUZK_BENCH_CLIENT)
#include "client_cmd.hpp"
#endif
#if defined(CUZK_BENCH_KERNELS)
#include "kernels_cmd.hpp"
#endif

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a pipe sees each line as it is written
  CLI::App app{"cuzk-bench: daemon client, microbenchmarks and GPU kernel checks"};
  app.set_version_flag("--version", CUZK_VERSION);
  app.require_subcommand(1);

  cuzk::bench::SynthOnlyOptions synth;
  bool synth_selected = false;
  cuzk::bench::add_synth_only_command(app, synth, synth_selected);

  cuzk::bench::PackMatricesOptions pack;
  bool pack_selected = false;
  cuzk::bench::add_pack_matrices_command(app, pack, pack_selected);

#if defined(CUZK_BENCH_CLIENT)
  cuzk::bench::ClientOptions client;
  cuzk::bench::add_client_commands(app, client);
#endif

#if defined(CUZK_BENCH_KERNELS)
  cuzk::bench::KernelsOptions k;
  CLI::App* kc = app.add_subcommand(
      "kernels", "Check each GPU kernel against its CPU twin, then print the timing table");
  kc->add_option("--max-log", k.max_log, "Largest log2 size timed (default 27)");
  kc->add_option("--reps", k.reps, "Timed repeats per row after one warm-up (default 5)");
  kc->add_option("--prove-log", k.prove_log, "RandomCircuit log2 size for prove rows (0: skip)");
  kc->add_option("--threads", k.threads, "CPU threads (default: all)");
  kc->add_flag("--skip-checks", k.skip_checks, "Only time");
  kc->add_option("--sweep", k.sweep_logs, "MSM sizes (log2) to time at several window widths");
  kc->add_option("--table-windows", k.table_windows,
                 "Window widths of the precomputed-bases MSM rows (default 16 20 22 24; 0: none)");
  kc->add_option("--table-max-copies", k.table_max_copies,
                 "At most this many copies in those rows (default 0: as many as fit)");
  kc->add_option("--zkey", k.zkey, "circom fixture .zkey for the zkey prove rows");
  kc->add_option("--wtns", k.wtns, "circom fixture .wtns for the zkey prove rows");
  kc->add_option("--only", k.only,
                 "Sections to time: arith, ntt, g1, g2, prove (default: all), msm-chunks, "
                 "alloc and chain-copy (only when named)")
      ->check(CLI::IsMember(
          {"arith", "ntt", "g1", "g2", "prove", "msm-chunks", "alloc", "chain-copy"}));
  kc->add_option("--msm-chunks-log", k.msm_chunks_log,
                 "msm-chunks: log2 of the scalars of the chunked G1 MSM (default 27, a 32 GiB "
                 "PoRep partition's H)");
  kc->add_option("--msm-chunk-logs", k.msm_chunk_logs,
                 "msm-chunks: log2 chunk sizes through MsmAccumulator (default 24 25)");
  kc->add_flag("--msm-chunks-profile", k.msm_chunks_profile,
               "msm-chunks: only one pass, the second chunk and the reduction between "
               "cudaProfilerStart/Stop (run under ncu --profile-from-start off)");
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is a ParseError with exit code 0; every other one is bad input (exit 2).
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    if (synth_selected) return cuzk::bench::run_synth_only(synth);
    if (pack_selected) return cuzk::bench::run_pack_matrices(pack);
#if defined(CUZK_BENCH_CLIENT)
    if (client.command != cuzk::bench::ClientOptions::Command::kNone) {
      return cuzk::bench::run_client(client);
    }
#endif
#if defined(CUZK_BENCH_KERNELS)
    return cuzk::bench::run_kernels(k);
#else
    return 2;
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-bench: %s\n", e.what());
    return 2;
  }
}
