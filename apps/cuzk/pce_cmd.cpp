#include "pce_cmd.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "command_clock.hpp"
#include "filecoin/sector_shape.hpp"
#include "pce/pce_file.hpp"
#include "pce/recording_cs.hpp"
#include "util/progress.hpp"

namespace cuzk::app {
namespace {

engine::BlankCircuit blank_of(const PceOptions& o) {
  if (o.sector_size.empty()) throw std::invalid_argument("give --sector-size");
  const uint64_t size = filecoin::parse_sector_size(o.sector_size);
  return engine::find_blank_circuit(engine::default_handlers(),
                                    engine::circuit_id_of(o.kind, size));
}

void print_counts(uint64_t rows, uint64_t inputs, uint64_t aux, uint64_t a, uint64_t b, uint64_t c,
                  uint64_t coefficients, uint64_t bytes) {
  std::printf(
      "rows %llu\ninputs %llu\naux %llu\nnnz A %llu\nnnz B %llu\nnnz C %llu\ncoefficients "
      "%llu\nbytes %llu\n",
      static_cast<unsigned long long>(rows), static_cast<unsigned long long>(inputs),
      static_cast<unsigned long long>(aux), static_cast<unsigned long long>(a),
      static_cast<unsigned long long>(b), static_cast<unsigned long long>(c),
      static_cast<unsigned long long>(coefficients), static_cast<unsigned long long>(bytes));
}

}  // namespace

pce::RecordedCircuit record_blank_circuit(const engine::BlankCircuit& blank) {
  const auto t0 = Clock::now();
  pce::RecordingCS rec;
  Progress progress("pce record " + blank.identity.to_string(), 0, "constraints");
  rec.on_progress([&](uint64_t n) { progress.add(n); });
  blank.circuit->synthesize(rec);
  progress.add(rec.num_constraints() % (1u << 20));  // the whole chunks were reported
  progress.finish();
  pce::RecordedCircuit rc = std::move(rec).finish(blank.identity);
  std::fprintf(stderr, "recorded in %.1f s, peak RSS %.2f GiB\n",
               std::chrono::duration<double>(Clock::now() - t0).count(), peak_rss_gib());
  return rc;
}

void add_pce_commands(CLI::App& app, PceOptions& o) {
  CLI::App* pce = app.add_subcommand("pce", "Pre-compiled constraints (recorded circuit shapes)");
  pce->require_subcommand(1);
  CLI::App* rec =
      pce->add_subcommand("record", "Record a circuit shape and write its PCE file into --out");
  rec->add_option("--kind", o.kind, "circuit kind (default porep)");
  rec->add_option("--sector-size", o.sector_size, "sector size (2KiB, 32GiB, ...)")->required();
  rec->add_option("--out", o.out, "directory for the file")->required();
  rec->add_option("--threads", o.threads, "threads for checksums (default: all)");
  rec->callback([&] { o.action = PceOptions::Action::kRecord; });
  CLI::App* info = pce->add_subcommand(
      "info", "Counts of a recorded shape: from --file, else recorded in memory");
  info->add_option("--kind", o.kind, "circuit kind (default porep)");
  info->add_option("--sector-size", o.sector_size, "sector size (2KiB, 32GiB, ...)");
  info->add_option("--file", o.file, "a PCE file")->check(CLI::ExistingFile);
  info->callback([&] { o.action = PceOptions::Action::kInfo; });
}

int run_pce(const PceOptions& o) {
  try {
    if (o.action == PceOptions::Action::kInfo && !o.file.empty()) {
      const pce::PceFileInfo h = pce::read_pce_header(o.file);
      std::printf("circuit %s\n", h.identity.to_string().c_str());
      print_counts(h.num_rows, h.num_inputs, h.num_aux, h.nnz_a, h.nnz_b, h.nnz_c, h.coefficients,
                   h.file_bytes);
      return 0;
    }
    const engine::BlankCircuit blank = blank_of(o);
    const pce::RecordedCircuit rc = record_blank_circuit(blank);
    if (o.action == PceOptions::Action::kInfo) {
      std::printf("circuit %s\n", rc.identity.to_string().c_str());
      print_counts(rc.num_rows, rc.num_inputs, rc.num_aux, rc.a.nnz(), rc.b.nnz(), rc.c.nnz(),
                   rc.coefficients.size(), rc.storage_bytes);
      return 0;
    }
    ThreadPool pool(o.threads);
    const auto path = pce::pce_file_path(o.out, rc.identity);
    const auto t0 = Clock::now();
    const uint64_t bytes = pce::write_pce_file(path, rc, pool);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("wrote %s: %llu bytes in %.1f s (%.2f GB/s)\n", path.c_str(),
                static_cast<unsigned long long>(bytes), s, static_cast<double>(bytes) / s / 1e9);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk pce: %s\n", e.what());
    return 2;
  }
}

}  // namespace cuzk::app
