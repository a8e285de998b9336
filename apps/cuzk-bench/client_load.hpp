// Load generators of the cuzk-bench client: `batch` (N proofs from J concurrent clients) and
// `stress` (proof kinds at given rates for a duration). Both submit + await every proof, print a
// line per proof as it ends and a summary: throughput, client latency percentiles, mean server
// timings and the failures by error.
#pragma once

#include "client_cmd.hpp"

namespace cuzk::bench {

int run_batch(const ClientOptions& opts);
int run_stress(const ClientOptions& opts);

}  // namespace cuzk::bench
