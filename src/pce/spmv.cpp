#include "pce/spmv.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

namespace cuzk::pce {

namespace {

// Row r of m on the witness. Aux 0/1 values need no product: the common case (SHA-256 bits).
Fr row_value(const CsrMatrix& m, size_t r, const Fr* table, const CompactWitness& w,
             uint32_t num_inputs) {
  Fr acc;
  for (uint32_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
    const uint32_t col = m.cols[k];
    const Fr& coeff = table[m.coeffs[k]];
    if (col < num_inputs) {
      acc += coeff * w.inputs[col];
      continue;
    }
    const uint32_t j = col - num_inputs;
    const uint64_t bit = uint64_t{1} << (j % 64);
    const size_t word = j / 64;
    if ((w.aux_dense[word] & bit) != 0) {
      const size_t rank =
          w.dense_rank[word] + static_cast<size_t>(std::popcount(w.aux_dense[word] & (bit - 1)));
      const CoefficientIndex ci = m.coeffs[k];  // 0 is 1 and 1 is -1 (coefficient_table.hpp)
      acc += ci == 0   ? w.aux_values[rank]
             : ci == 1 ? -w.aux_values[rank]
                       : coeff * w.aux_values[rank];
    } else if ((w.aux_ones[word] & bit) != 0) {
      acc += coeff;
    }
  }
  return acc;
}

}  // namespace

void check_witness_shape(const RecordedCircuit& rc, const CompactWitness& w) {
  if (w.inputs.size() != rc.num_inputs || w.num_aux != rc.num_aux ||
      w.dense_rank.size() != w.aux_dense.size()) {
    throw std::invalid_argument(
        "pce: the witness has " + std::to_string(w.inputs.size()) + " inputs and " +
        std::to_string(w.num_aux) + " aux, the recorded circuit " + rc.identity.to_string() +
        " has " + std::to_string(rc.num_inputs) + " and " + std::to_string(rc.num_aux));
  }
}

void evaluate(const RecordedCircuit& rc, const CompactWitness& w, std::span<Fr> a, std::span<Fr> b,
              std::span<Fr> c, ThreadPool& pool) {
  check_witness_shape(rc, w);
  if (a.size() < rc.num_rows || b.size() < rc.num_rows || c.size() < rc.num_rows)
    throw std::invalid_argument("pce evaluate: output shorter than the circuit's rows");
  const Fr* table = rc.coefficients.data();
  const auto inputs = static_cast<uint32_t>(rc.num_inputs);
  pool.parallel_for(
      rc.num_rows,
      [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
          a[r] = row_value(rc.a, r, table, w, inputs);
          b[r] = row_value(rc.b, r, table, w, inputs);
          c[r] = row_value(rc.c, r, table, w, inputs);
        }
      },
      4096);
}

std::optional<size_t> first_unsatisfied_row(std::span<const Fr> a, std::span<const Fr> b,
                                            std::span<const Fr> c, ThreadPool& pool) {
  const size_t n = std::min({a.size(), b.size(), c.size()});
  std::atomic<size_t> first{n};
  pool.parallel_for(
      n,
      [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end && r < first.load(std::memory_order_relaxed); ++r) {
          if (a[r] * b[r] != c[r]) {
            size_t cur = first.load();
            while (r < cur && !first.compare_exchange_weak(cur, r)) {
            }
            return;
          }
        }
      },
      4096);
  if (first.load() == n) return std::nullopt;
  return first.load();
}

SynthesisError unsatisfied_row_error(size_t row, const RecordedCircuit& rc) {
  return SynthesisError(SynthesisError::Kind::kUnsatisfiable,
                        "groth16 prove: the witness does not satisfy row " + std::to_string(row) +
                            " of the recorded circuit " + rc.identity.to_string() +
                            "; refusing to produce an invalid proof");
}

std::string abc_sha256_hex(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c) {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (ctx == nullptr || EVP_DigestInit_ex2(ctx.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("pce: OpenSSL SHA-256 failed");
  std::vector<uint8_t> buf;
  buf.reserve(32 * 4096);
  for (std::span<const Fr> v : {a, b, c}) {
    for (size_t i = 0; i < v.size(); ++i) {
      const auto le = v[i].to_bytes_le();
      buf.insert(buf.end(), le.begin(), le.end());
      if (buf.size() == buf.capacity() || i + 1 == v.size()) {
        EVP_DigestUpdate(ctx.get(), buf.data(), buf.size());
        buf.clear();
      }
    }
  }
  uint8_t d[32];
  unsigned len = 0;
  EVP_DigestFinal_ex(ctx.get(), d, &len);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint8_t x : d) {
    out += hex[x >> 4];
    out += hex[x & 15];
  }
  return out;
}

}  // namespace cuzk::pce
