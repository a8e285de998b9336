#include "client_load.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "client_util.hpp"

namespace cuzk::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Before spawning clients: an unreachable daemon is one clear error (exit 3), not N failures.
// Only UNAVAILABLE counts; a daemon without GetStatus still gets the load.
int check_reachable(DaemonClient& client) {
  v1::GetStatusResponse ignored;
  const auto ctx = client.context(10);
  const grpc::Status s = client.stub().GetStatus(ctx.get(), v1::GetStatusRequest(), &ignored);
  if (s.error_code() != grpc::StatusCode::UNAVAILABLE) return kExitOk;
  std::fprintf(stderr, "cuzk-bench: %s\n", describe_rpc_error(client, "GetStatus", s).c_str());
  return kExitUnreachable;
}

void print_outcome_line(const std::string& tag, const ProofOutcome& r) {
  if (r.completed()) {
    std::printf("%s job %s COMPLETED, latency %.3f s (%s)\n", tag.c_str(), r.job_id.c_str(),
                r.client_s, format_timings(r.result).c_str());
  } else {
    const std::string who = r.job_id.empty() ? "request " + r.request_id : "job " + r.job_id;
    const std::string what =
        r.rpc_status.ok() ? job_status_name(r.result.status()) : std::string("RPC ERROR");
    std::printf("%s %s %s after %.3f s: %s\n", tag.c_str(), who.c_str(), what.c_str(), r.client_s,
                r.error().c_str());
  }
  std::fflush(stdout);
}

// Latencies and server timings over the completed proofs; failures grouped by their error.
void print_summary(const std::string& title, const std::vector<const ProofOutcome*>& outcomes,
                   double wall_s) {
  std::vector<double> latencies;
  double queue = 0, srs = 0, synthesis = 0, gpu = 0, total = 0;
  std::map<std::string, size_t> failures;
  for (const ProofOutcome* r : outcomes) {
    if (!r->completed()) {
      ++failures[r->error()];
      continue;
    }
    latencies.push_back(r->client_s);
    queue += static_cast<double>(r->result.queue_wait_ms());
    srs += static_cast<double>(r->result.srs_load_ms());
    synthesis += static_cast<double>(r->result.synthesis_ms());
    gpu += static_cast<double>(r->result.gpu_compute_ms());
    total += static_cast<double>(r->result.total_ms());
  }
  const size_t done = latencies.size();
  std::printf("=== %s: %zu submitted, %zu completed, %zu failed in %.3f s ===\n", title.c_str(),
              outcomes.size(), done, outcomes.size() - done, wall_s);
  if (done > 0) {
    const LatencySummary l = summarize_latencies(latencies);
    const double n = static_cast<double>(done);
    std::printf("throughput: %.3f proofs/min, %.3f s/proof (wall / completed)\n", n * 60.0 / wall_s,
                wall_s / n);
    std::printf("latency (s): p50 %.3f | p90 %.3f | p99 %.3f | max %.3f | mean %.3f\n", l.p50,
                l.p90, l.p99, l.max, l.mean);
    std::printf(
        "server mean (ms): queue %.1f | srs load %.1f | synthesis %.1f | gpu %.1f | total %.1f\n",
        queue / n, srs / n, synthesis / n, gpu / n, total / n);
  }
  if (!failures.empty()) {
    std::printf("failures:\n");
    for (const auto& [error, count] : failures)
      std::printf("  %zu x %s\n", count, error.c_str());
  }
}

// One kind of a stress run: the request it repeats and when.
struct StressPlan {
  ProofKindArg kind;
  std::string rate_text;
  v1::SubmitProofRequest request;
  std::vector<std::chrono::nanoseconds> offsets;
};

std::vector<StressPlan> plan_stress(const ClientOptions& o, std::chrono::nanoseconds duration) {
  std::vector<StressPlan> plans;
  for (size_t i = 0; i < o.stress.kinds.size(); ++i) {
    const StressKindOptions& k = o.stress.kinds[i];
    const auto kind = static_cast<ProofKindArg>(i + 1);
    const std::string name(proof_kind_name(kind));
    const std::string input_flag =
        kind == ProofKindArg::kPoRep ? "--porep-c1" : "--" + name + "-vanilla";
    if (k.input.empty() && k.rate.empty()) continue;
    if (k.input.empty() || k.rate.empty()) {
      throw BadInput(input_flag + " and --" + name + "-rate go together");
    }
    Rate rate;
    try {
      rate = parse_rate(k.rate);
    } catch (const std::invalid_argument& e) {
      throw BadInput("--" + name + "-rate: " + e.what());
    }
    RequestOptions r = o.request;
    r.type = name;
    (kind == ProofKindArg::kPoRep ? r.c1 : r.vanilla) = k.input;
    r.registered_proof = k.registered_proof;
    plans.push_back({kind, k.rate, build_request(r), submission_offsets(rate, duration)});
  }
  if (plans.empty()) {
    throw BadInput(
        "stress needs at least one kind, e.g. --porep-c1 FILE --porep-rate 1/30s "
        "(also --snap-vanilla/--wpost-vanilla/--winning-vanilla with their -rate)");
  }
  return plans;
}

}  // namespace

int run_batch(const ClientOptions& o) {
  if (o.count == 0) throw BadInput("--count must be at least 1");
  if (o.concurrency == 0) throw BadInput("--concurrency must be at least 1");
  const v1::SubmitProofRequest base = build_request(o.request);
  const unsigned workers = std::min(o.count, o.concurrency);
  // A transport per worker: J independent clients, as J Curio nodes would be.
  std::vector<std::unique_ptr<DaemonClient>> clients;
  for (unsigned w = 0; w < workers; ++w) {
    clients.push_back(std::make_unique<DaemonClient>(o.connection, /*own_connection=*/true));
  }
  if (const int rc = check_reachable(*clients[0]); rc != kExitOk) return rc;
  std::printf("batch: %u x %s\n%u concurrent client(s) -> %s\n", o.count,
              describe_request(base).c_str(), workers, o.connection.addr.c_str());
  std::fflush(stdout);

  const std::string prefix = request_id_prefix();
  std::vector<ProofOutcome> outcomes(o.count);
  std::atomic<unsigned> next{0};
  std::mutex print_mutex;
  unsigned finished = 0;
  const auto t0 = Clock::now();
  {
    std::vector<std::jthread> threads;
    for (unsigned w = 0; w < workers; ++w) {
      threads.emplace_back([&, client = clients[w].get()] {
        for (unsigned i; (i = next++) < o.count;) {
          v1::SubmitProofRequest request = base;
          request.set_request_id(prefix + "-" + std::to_string(i + 1));
          ProofOutcome r = run_proof(*client, std::move(request), /*submit_await=*/true);
          const std::lock_guard lock(print_mutex);
          ++finished;
          print_outcome_line("[" + std::to_string(finished) + "/" + std::to_string(o.count) +
                                 "] #" + std::to_string(i + 1),
                             r);
          outcomes[i] = std::move(r);
        }
      });
    }
  }
  const double wall_s = seconds_since(t0);
  std::vector<const ProofOutcome*> all;
  for (const ProofOutcome& r : outcomes)
    all.push_back(&r);
  print_summary(std::string(proof_kind_name(static_cast<ProofKindArg>(base.proof_kind()))) +
                    " batch of " + std::to_string(o.count) + ", " + std::to_string(workers) +
                    " concurrent",
                all, wall_s);
  const bool all_completed = std::all_of(outcomes.begin(), outcomes.end(),
                                         [](const ProofOutcome& r) { return r.completed(); });
  return all_completed ? kExitOk : kExitFailed;
}

int run_stress(const ClientOptions& o) {
  std::chrono::nanoseconds duration;
  try {
    duration = parse_duration(o.stress.duration);
  } catch (const std::invalid_argument& e) {
    throw BadInput(std::string("--duration: ") + e.what());
  }
  const std::vector<StressPlan> plans = plan_stress(o, duration);
  // One transport shared by every submission, as one Curio node's would be.
  DaemonClient client(o.connection);
  if (const int rc = check_reachable(client); rc != kExitOk) return rc;

  struct Submission {
    std::chrono::nanoseconds at;
    size_t plan;
    size_t seq;  // 1-based within its kind
  };
  std::vector<Submission> schedule;
  std::printf("stress for %.3f s -> %s\n", std::chrono::duration<double>(duration).count(),
              o.connection.addr.c_str());
  for (size_t p = 0; p < plans.size(); ++p) {
    std::printf("  %s at %s: %zu submission(s) of %s\n",
                std::string(proof_kind_name(plans[p].kind)).c_str(), plans[p].rate_text.c_str(),
                plans[p].offsets.size(), describe_request(plans[p].request).c_str());
    for (size_t i = 0; i < plans[p].offsets.size(); ++i) {
      schedule.push_back({plans[p].offsets[i], p, i + 1});
    }
  }
  std::fflush(stdout);
  std::stable_sort(schedule.begin(), schedule.end(),
                   [](const Submission& a, const Submission& b) { return a.at < b.at; });

  const std::string prefix = request_id_prefix();
  std::vector<ProofOutcome> outcomes(schedule.size());
  std::mutex print_mutex;
  const auto t0 = Clock::now();
  {
    // A thread per submission, so a slow submit or a long await never delays the next one.
    std::vector<std::jthread> in_flight;
    for (size_t s = 0; s < schedule.size(); ++s) {
      std::this_thread::sleep_until(t0 + schedule[s].at);
      in_flight.emplace_back([&, s] {
        const Submission& sub = schedule[s];
        const std::string kind(proof_kind_name(plans[sub.plan].kind));
        v1::SubmitProofRequest request = plans[sub.plan].request;
        request.set_request_id(prefix + "-" + kind + "-" + std::to_string(sub.seq));
        ProofOutcome r = run_proof(client, std::move(request), /*submit_await=*/true);
        const std::lock_guard lock(print_mutex);
        char at[32];
        std::snprintf(at, sizeof at, "[t+%.1fs]", std::chrono::duration<double>(sub.at).count());
        print_outcome_line(std::string(at) + " " + kind + " #" + std::to_string(sub.seq), r);
        outcomes[s] = std::move(r);
      });
    }
  }
  const double wall_s = seconds_since(t0);
  bool all_completed = true;
  for (size_t p = 0; p < plans.size(); ++p) {
    std::vector<const ProofOutcome*> mine;
    for (size_t s = 0; s < schedule.size(); ++s) {
      if (schedule[s].plan != p) continue;
      mine.push_back(&outcomes[s]);
      all_completed = all_completed && outcomes[s].completed();
    }
    print_summary(std::string(proof_kind_name(plans[p].kind)) + " at " + plans[p].rate_text, mine,
                  wall_s);
  }
  return all_completed ? kExitOk : kExitFailed;
}

}  // namespace cuzk::bench
