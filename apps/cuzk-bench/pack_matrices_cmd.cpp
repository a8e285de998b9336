#include "pack_matrices_cmd.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "pce/packed_matrix.hpp"
#include "pce/pce_file.hpp"

namespace cuzk::bench {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double gb(uint64_t bytes) {
  return static_cast<double>(bytes) / 1e9;
}

// "1,234,567": exact byte counts that still read at a glance.
std::string grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

struct Packed {
  std::vector<uint64_t> offsets;
  std::unique_ptr<uint8_t[]> bytes;
  // packed_group_offsets; zeroing the fresh buffer (its first touch, which a page-locked buffer
  // pays where it is allocated); pack_matrix.
  double size_s = 0, touch_s = 0, write_s = 0;

  pce::PackedMatrix view(size_t rows) const {
    return {rows, offsets, {bytes.get(), offsets.back()}};
  }
};

Packed pack(const pce::CsrMatrix& m, ThreadPool& pool) {
  Packed p;
  const auto t0 = Clock::now();
  p.offsets = pce::packed_group_offsets(m, &pool);
  p.size_s = since(t0);
  auto t1 = Clock::now();
  p.bytes.reset(new uint8_t[p.offsets.back()]);
  pool.parallel_for(
      p.offsets.back(),
      [&](size_t b, size_t e) { std::fill(p.bytes.get() + b, p.bytes.get() + e, uint8_t{0}); },
      size_t{1} << 24);
  p.touch_s = since(t1);
  t1 = Clock::now();
  pce::pack_matrix(m, p.offsets, {p.bytes.get(), p.offsets.back()}, &pool);
  p.write_s = since(t1);
  return p;
}

// The first group whose decoded rows differ from m's, or groups() when none does.
size_t first_mismatch(const pce::CsrMatrix& m, const pce::PackedMatrix& pm, ThreadPool& pool) {
  std::atomic<size_t> first{pm.groups()};
  pool.parallel_for(
      pm.groups(),
      [&](size_t g0, size_t g1) {
        for (size_t g = g0; g < g1 && g < first.load(std::memory_order_relaxed); ++g) {
          const auto rows = pce::unpack_group(pm, g);
          bool same =
              rows.size() == std::min(pce::kPackedGroupRows, m.rows() - g * pce::kPackedGroupRows);
          for (size_t i = 0; same && i < rows.size(); ++i) {
            const size_t r = g * pce::kPackedGroupRows + i;
            const uint32_t k0 = m.row_ptr[r];
            same = rows[i].size() == m.row_ptr[r + 1] - k0;
            for (size_t k = 0; same && k < rows[i].size(); ++k)
              same = rows[i][k].col == m.cols[k0 + k] && rows[i][k].coeff == m.coeffs[k0 + k];
          }
          if (!same) {
            size_t cur = first.load();
            while (g < cur && !first.compare_exchange_weak(cur, g)) {
            }
            return;
          }
        }
      },
      256);
  return first.load();
}

}  // namespace

void add_pack_matrices_command(CLI::App& app, PackMatricesOptions& o, bool& selected) {
  CLI::App* c = app.add_subcommand(
      "pack-matrices",
      "Pack A, B, C of a PCE file: CSR against packed bytes, pack time, a round-trip check");
  c->add_option("--pce", o.pce, "the PCE file (cuzk pce record)")
      ->required()
      ->check(CLI::ExistingFile);
  c->add_option("--threads", o.threads, "threads (default: all cores)");
  c->callback([&] { selected = true; });
}

int run_pack_matrices(const PackMatricesOptions& o) {
  ThreadPool pool(o.threads);
  auto t0 = Clock::now();
  const pce::PceFileInfo info = pce::read_pce_header(o.pce);
  const pce::RecordedCircuit rc = pce::read_pce_file(o.pce, info.identity, pool);
  std::printf("pce: read %s (%s, %.2f GB) in %.2f s on %u threads\n\n", o.pce.c_str(),
              rc.identity.to_string().c_str(), gb(rc.storage_bytes), since(t0), pool.size());

  std::printf(
      "| matrix | rows | entries | CSR bytes | packed bytes | ratio | pack ms (sizes + writes) "
      "| first touch ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  const std::pair<const char*, const pce::CsrMatrix*> mats[3] = {
      {"A", &rc.a}, {"B", &rc.b}, {"C", &rc.c}};
  uint64_t csr_bytes[3], packed_bytes[3];
  double check_s = 0;
  bool ok = true;
  for (int k = 0; k < 3; ++k) {
    const auto& [name, m] = mats[k];
    const Packed p = pack(*m, pool);
    csr_bytes[k] = m->row_ptr.size_bytes() + m->cols.size_bytes() + m->coeffs.size_bytes();
    packed_bytes[k] = (p.offsets.size() - 1) * sizeof(uint64_t) + p.offsets.back();
    std::printf(
        "| %s | %s | %s | %s (%.3f GB) | %s (%.3f GB) | %.3f | %.0f (%.0f + %.0f) | %.0f |\n", name,
        grouped(m->rows()).c_str(), grouped(m->nnz()).c_str(), grouped(csr_bytes[k]).c_str(),
        gb(csr_bytes[k]), grouped(packed_bytes[k]).c_str(), gb(packed_bytes[k]),
        static_cast<double>(packed_bytes[k]) / static_cast<double>(csr_bytes[k]),
        (p.size_s + p.write_s) * 1e3, p.size_s * 1e3, p.write_s * 1e3, p.touch_s * 1e3);
    t0 = Clock::now();
    const pce::PackedMatrix pm = p.view(m->rows());
    const size_t bad = first_mismatch(*m, pm, pool);
    check_s += since(t0);
    if (bad != pm.groups()) {
      std::fprintf(stderr, "pack-matrices: %s's group %zu does not decode to its CSR rows\n", name,
                   bad);
      ok = false;
    }
  }
  // The capped prover streams A, B and C for the row-block SpMV and C again for the H chain.
  const uint64_t csr = csr_bytes[0] + csr_bytes[1] + 2 * csr_bytes[2];
  const uint64_t packed = packed_bytes[0] + packed_bytes[1] + 2 * packed_bytes[2];
  std::printf(
      "\na partition streams (A + B + C + C): CSR %s (%.3f GB), packed %s (%.3f GB), %.3f\n",
      grouped(csr).c_str(), gb(csr), grouped(packed).c_str(), gb(packed),
      static_cast<double>(packed) / static_cast<double>(csr));
  if (!ok) {
    std::printf("round trip: FAILED\n");
    return 1;
  }
  std::printf("round trip: ok (every group of A, B, C decoded and compared in %.2f s)\n", check_s);
  return 0;
}

}  // namespace cuzk::bench
