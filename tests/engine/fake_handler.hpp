// A proof kind for engine tests: a small random circuit (tests/groth16/random_circuit.hpp) whose
// payload "P,M" asks for P partitions, each synthesized in about M ms, so scheduling can be
// observed with real proofs in milliseconds; "P,M,D" also spends D ms in preparation; "P,M,D,1"
// gives partition k its own witness (distinct_witness(k)) of the same recorded circuit. With
// Gates, " prepare=<g>" in the payload holds its preparation at gate <g>, and " synthesis=<g>"
// holds partition k at gate "<g>/<k>", until the test opens them: what a test needs to happen
// while a job prepares or synthesizes is then an event, not a race with a sleep. It serves
// WINNING_POST unless given another kind; its circuit id is "fake-<sector_size>" (another kind:
// "fake<kind number>-<sector_size>"); payload "bad" is refused as bad input. Every partition
// synthesis is logged as "<request_id>/<k>" when it begins (before its gate).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/handlers/circuit_handler.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/params_file.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "random_circuit.hpp"

namespace cuzk::engine::test {

inline constexpr uint64_t kFakeCircuitSeed = 7;
inline constexpr size_t kFakeConstraints = 200;

class SynthesisLog {
 public:
  void add(std::string entry) {
    std::lock_guard<std::mutex> lock(mu_);
    entries_.push_back(std::move(entry));
  }
  std::vector<std::string> entries() const {
    std::lock_guard<std::mutex> lock(mu_);
    return entries_;
  }

  // Partition circuits alive at once, seen from the handler's side (from the start of
  // partition(k) until the engine drops the circuit): an observation independent of the
  // engine's memory ledger, which reserves a partition's working set before it asks for it.
  void circuit_born() {
    std::lock_guard<std::mutex> lock(mu_);
    max_live_ = std::max(max_live_, ++live_);
  }
  void circuit_gone() {
    std::lock_guard<std::mutex> lock(mu_);
    --live_;
  }
  int max_live_circuits() const {
    std::lock_guard<std::mutex> lock(mu_);
    return max_live_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> entries_;
  int live_ = 0, max_live_ = 0;
};

// Partition k's circuit of a job whose partitions have distinct witnesses.
inline testing::RandomCircuit distinct_witness(unsigned k) {
  return testing::RandomCircuit(kFakeConstraints, 2, kFakeCircuitSeed, 5000 + k);
}

// Named latches a test opens. A thread that passes a gate is counted as arrived, then waits until
// the gate is open (open gates stay open).
class Gates {
 public:
  void pass(const std::string& name) {
    std::unique_lock<std::mutex> lock(mu_);
    ++arrived_[name];
    changed_.notify_all();
    changed_.wait(lock, [&] { return all_open_ || open_.count(name) != 0; });
  }
  void open(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    open_.insert({name, true});
    changed_.notify_all();
  }
  // Every gate, now and later (before an engine with held workers is destroyed).
  void open_all() {
    std::lock_guard<std::mutex> lock(mu_);
    all_open_ = true;
    changed_.notify_all();
  }
  // Until `n` threads have arrived at `name` (false after a minute: the test fails, not hangs).
  bool wait_arrived(const std::string& name, int n = 1) {
    std::unique_lock<std::mutex> lock(mu_);
    return changed_.wait_for(lock, std::chrono::minutes(1), [&] { return arrived_[name] >= n; });
  }
  int arrived(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    return arrived_[name];
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, int> arrived_;
  std::map<std::string, bool> open_;
  bool all_open_ = false;
};

// The value of " <key>=<word>" in a payload ("" when absent).
inline std::string payload_option(const std::string& payload, const std::string& key) {
  const size_t at = payload.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const size_t begin = at + key.size() + 2;
  return payload.substr(begin, payload.find(' ', begin) - begin);
}

// The fake circuit, counted in its log while it exists.
class CountedCircuit final : public Circuit {
 public:
  explicit CountedCircuit(SynthesisLog* log)
      : log_(log), inner_(kFakeConstraints, 2, kFakeCircuitSeed) {}
  CountedCircuit(SynthesisLog* log, testing::RandomCircuit inner)
      : log_(log), inner_(std::move(inner)) {}
  ~CountedCircuit() override { log_->circuit_gone(); }
  void synthesize(ConstraintSystem& cs) const override { inner_.synthesize(cs); }
  std::vector<Fr> public_inputs() const { return inner_.public_inputs(); }

 private:
  SynthesisLog* log_;
  testing::RandomCircuit inner_;
};

class FakeJob final : public PreparedJob {
 public:
  FakeJob(unsigned partitions, unsigned ms, std::string tag, SynthesisLog* log,
          Gates* gates = nullptr, std::string gate = "", bool distinct = false)
      : partitions_(partitions),
        ms_(ms),
        tag_(std::move(tag)),
        log_(log),
        gates_(gates),
        gate_(std::move(gate)),
        distinct_(distinct) {}
  unsigned partitions() const override { return partitions_; }
  uint64_t resident_bytes() const override { return 1000; }
  PartitionCircuit partition(unsigned k) const override {
    log_->add(tag_ + "/" + std::to_string(k));
    log_->circuit_born();  // the CountedCircuit below reports its end
    if (gates_ != nullptr && !gate_.empty()) gates_->pass(gate_ + "/" + std::to_string(k));
    std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
    auto circuit = distinct_ ? std::make_unique<CountedCircuit>(log_, distinct_witness(k))
                             : std::make_unique<CountedCircuit>(log_);
    PartitionCircuit out;
    out.public_inputs = circuit->public_inputs();
    out.circuit = std::move(circuit);
    return out;
  }

 private:
  unsigned partitions_, ms_;
  std::string tag_;
  SynthesisLog* log_;
  Gates* gates_;
  std::string gate_;
  bool distinct_;
};

class FakeHandler final : public CircuitHandler {
 public:
  // `dir` holds the parameter file of each circuit `load` makes (its size is the load estimate;
  // `open` reads it).
  FakeHandler(std::filesystem::path dir, SynthesisLog* log,
              ProofKind kind = ProofKind::kWinningPost, Gates* gates = nullptr)
      : dir_(std::move(dir)),
        log_(log),
        gates_(gates),
        kind_(kind),
        prefix_(kind == ProofKind::kWinningPost
                    ? "fake-"
                    : "fake" + std::to_string(static_cast<int>(kind)) + "-") {}

  ProofKind kind() const override { return kind_; }

  // How many times a set was loaded with its points (spec.load) and opened without (spec.open).
  int loads() const { return loads_.load(); }
  int opens() const { return opens_.load(); }

  std::string circuit_id(const ProofRequest& r) const override {
    if (r.sector_size == 0) throw std::invalid_argument("fake: sector_size must be set");
    return prefix_ + std::to_string(r.sector_size);
  }

  std::unique_ptr<PreparedJob> prepare(const ProofRequest& r, ThreadPool&) const override {
    const std::string payload(r.vanilla_proof.begin(), r.vanilla_proof.end());
    unsigned partitions = 0, ms = 0, prepare_ms = 0, distinct = 0;
    const int n =
        std::sscanf(payload.c_str(), "%u,%u,%u,%u", &partitions, &ms, &prepare_ms, &distinct);
    if (n < 2 || partitions == 0) {
      throw std::invalid_argument("fake: malformed payload \"" + payload + "\"");
    }
    if (gates_ != nullptr) {
      if (const std::string gate = payload_option(payload, "prepare"); !gate.empty())
        gates_->pass(gate);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(prepare_ms));
    return std::make_unique<FakeJob>(partitions, ms, r.request_id, log_, gates_,
                                     payload_option(payload, "synthesis"), distinct != 0);
  }

  std::optional<BlankCircuit> blank_circuit(const std::string& id) const override {
    if (id.rfind(prefix_, 0) != 0) return std::nullopt;
    return BlankCircuit{
        std::make_unique<testing::RandomCircuit>(kFakeConstraints, 2, kFakeCircuitSeed),
        {"fake", std::stoull(id.substr(prefix_.size())), "any", 1}};
  }

  std::optional<SrsSpec> srs_spec(const std::string& id, const ParameterSource&) const override {
    if (id.rfind(prefix_, 0) != 0) return std::nullopt;
    SrsSpec spec;
    spec.circuit_id = id;
    spec.file = dir_ / (id + ".params");
    if (!std::filesystem::exists(spec.file)) write_parameters_file(spec.file);
    spec.load = [this](ThreadPool& pool) {
      ++loads_;
      return fake_parameters(pool);
    };
    spec.open = [this, file = spec.file](ThreadPool&) {
      ++opens_;
      return groth16::open_parameters(file, SubgroupCheck::kCheck);
    };
    return spec;
  }

 private:
  static groth16::Parameters fake_parameters(ThreadPool& pool) {
    const testing::RandomCircuit circuit(kFakeConstraints, 2, kFakeCircuitSeed);
    return groth16::generate_parameters_insecure(
        circuit, groth16::ToxicWaste::insecure_from_seed("engine tests"), pool);
  }
  // The set `load` makes, as a .params (its size is the load estimate; `open` reads it). Written
  // beside and renamed into place: a concurrent srs_spec never sees half a file.
  static void write_parameters_file(const std::filesystem::path& file) {
    ThreadPool pool(1);
    std::ostringstream tmp;
    tmp << file.string() << ".tmp-" << ::getpid() << "-" << std::this_thread::get_id();
    groth16::write_parameters(tmp.str(), fake_parameters(pool));
    std::filesystem::rename(tmp.str(), file);
  }

  std::filesystem::path dir_;
  SynthesisLog* log_;
  Gates* gates_;
  ProofKind kind_;
  std::string prefix_;
  mutable std::atomic<int> loads_{0}, opens_{0};
};

// How many of a completed job's partition proofs verify under the fake circuit's own key (the
// oracle of the engine tests: the verifier here, not the engine's check); `distinct`: partition
// k for distinct_witness(k)'s public inputs.
inline size_t verifying_proofs(const JobResult& r, bool distinct = false) {
  static const auto pvk = [] {
    ThreadPool pool(1);
    const testing::RandomCircuit circuit(kFakeConstraints, 2, kFakeCircuitSeed);
    return groth16::prepare_verifying_key(
        groth16::generate_parameters_insecure(
            circuit, groth16::ToxicWaste::insecure_from_seed("engine tests"), pool)
            .vk);
  }();
  const auto proofs = groth16::decode_proofs(r.proof);
  if (!proofs) return 0;
  const testing::RandomCircuit circuit(kFakeConstraints, 2, kFakeCircuitSeed);
  size_t n = 0;
  for (size_t k = 0; k < proofs->size(); ++k) {
    const std::vector<Fr> inputs = distinct
                                       ? distinct_witness(static_cast<unsigned>(k)).public_inputs()
                                       : circuit.public_inputs();
    n += groth16::verify_proof(pvk, (*proofs)[k], inputs) ? 1 : 0;
  }
  return n;
}

// The value of one series in Prometheus text, or -1 when it is absent.
inline double metric_value(const std::string& text, const std::string& series) {
  const size_t at = text.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + series.size() + 2));
}

}  // namespace cuzk::engine::test
