#include "poly/quotient.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "poly/fft_kernels.hpp"

namespace cuzk {

namespace {

class Stopwatch {
 public:
  // Seconds since the previous call (or construction).
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace

void divide_by_z_on_coset(std::span<Fr> values, const EvaluationDomain& domain, ThreadPool& pool) {
  if (values.size() != domain.size()) {
    throw std::invalid_argument("divide_by_z_on_coset: " + std::to_string(values.size()) +
                                " values for a domain of size " + std::to_string(domain.size()));
  }
  fft_detail::scale(values, domain.z_on_coset().inv(), pool);
}

std::vector<Fr> quotient_coefficients(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                      const EvaluationDomain& domain, ThreadPool& pool,
                                      QuotientTiming* timing) {
  const size_t n = domain.size();
  if (a.size() != b.size() || a.size() != c.size() || a.size() > n) {
    throw std::invalid_argument("quotient: a, b, c have sizes " + std::to_string(a.size()) + ", " +
                                std::to_string(b.size()) + ", " + std::to_string(c.size()) +
                                "; they must be equal and at most the domain size " +
                                std::to_string(n));
  }
  QuotientTiming t;
  Stopwatch clock;
  // Steps run vector by vector within each phase, so that only one twiddle table (n/2 entries, 2
  // GiB at n = 2^27) is alive at a time; the third table build costs n/2 products.
  {
    const auto tw_inv = fft_detail::twiddle_table(domain.omega_inv(), n, pool);
    for (auto* v : {&a, &b, &c}) {
      v->resize(n);
      fft_detail::dft_natural_to_bitrev(*v, tw_inv, pool);  // n times the coefficients
      fft_detail::bit_reverse(*v, pool);
    }
    t.ifft_s = clock.lap();
  }
  {
    // The coset evaluations stay bit-reversed: a b - c only needs the three in a common order.
    const auto tw = fft_detail::twiddle_table(domain.omega(), n, pool);
    for (auto* v : {&a, &b, &c}) {
      // ifft's 1/n and the coset's g^i in one pass: coefficient i times g^i / n.
      fft_detail::distribute_powers(*v, domain.g(), domain.n_inv(), pool);
      fft_detail::dft_natural_to_bitrev(*v, tw, pool);
    }
    t.coset_fft_s = clock.lap();
  }
  // a b - c here; the division by Z(g) = g^n - 1 joins the final scaling below.
  pool.parallel_for(
      n,
      [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i)
          a[i] = a[i] * b[i] - c[i];
      },
      1024);
  std::vector<Fr>().swap(b);
  std::vector<Fr>().swap(c);
  t.pointwise_s = clock.lap();
  {
    // icoset_fft with the division folded into its scaling: coefficient i times g^-i / (n Z(g)).
    const auto tw_inv = fft_detail::twiddle_table(domain.omega_inv(), n, pool);
    fft_detail::bit_reverse(a, pool);
    fft_detail::dft_natural_to_bitrev(a, tw_inv, pool);
    fft_detail::bit_reverse(a, pool);
    fft_detail::distribute_powers(a, domain.g_inv(), domain.n_inv() * domain.z_on_coset().inv(),
                                  pool);
    t.icoset_s = clock.lap();
  }
  if (timing != nullptr) *timing = t;
  return a;
}

std::vector<Fr> groth16_quotient(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                 const EvaluationDomain& domain, ThreadPool& pool,
                                 QuotientTiming* timing) {
  std::vector<Fr> h =
      quotient_coefficients(std::move(a), std::move(b), std::move(c), domain, pool, timing);
  h.pop_back();  // n >= 1, so there is a top coefficient to drop
  return h;
}

}  // namespace cuzk
