// What the engine needs from a proof kind: the SRS key of a request (from its fields alone, so a
// job is queued without parsing its payload), the parsing and checking of the vanilla proofs into
// the kind's PreparedJob (circuits/proof_partitions.hpp: per partition the circuit with its
// witness and the public inputs its proof must verify for).
// Synthesis and proving are kind-neutral: the engine synthesizes the circuit (witness-only
// against the recorded constraints, or the classic proving assignment), proves it and verifies
// every partition against its public inputs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "circuits/proof_partitions.hpp"
#include "cs/constraint_system.hpp"
#include "engine/types.hpp"
#include "filecoin/circuit_parameters.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/types.hpp"
#include "pce/identity.hpp"
#include "util/clock.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

// The proof kinds' partitions (circuits/proof_partitions.hpp), under the engine's names.
using circuits::PartitionCircuit;
using circuits::PreparedJob;
using circuits::timed_partition;

// Where a proof kind finds its parameter files, and the checks their loading applies.
struct ParameterSource {
  std::filesystem::path dir;
  filecoin::ParameterChecks checks;
};

// How to load the Groth16 parameters of a circuit id: `load` reads the set with its points into
// host memory; `open` (when set) opens it without them, its points read from the file on demand
// (groth16/point_source.hpp), with the same checks.
struct SrsSpec {
  std::string circuit_id;
  std::filesystem::path file;  // the .params file (its size estimates the load)
  std::function<groth16::Parameters(ThreadPool&)> load;
  std::function<groth16::Parameters(ThreadPool&)> open;
};

// The blank circuit of a circuit id (no witness: the shape every partition of it has) and the
// identity its recorded constraints are filed under.
struct BlankCircuit {
  std::unique_ptr<const Circuit> circuit;
  pce::CircuitIdentity identity;
};

class CircuitHandler {
 public:
  virtual ~CircuitHandler() = default;
  virtual ProofKind kind() const = 0;
  // The SRS key of `request` ("porep-32g"); std::invalid_argument when its fields cannot be
  // served (unknown registered proof, sector size that does not match it).
  virtual std::string circuit_id(const ProofRequest& request) const = 0;
  // Parses and checks the payload; std::invalid_argument with the reason for bad input.
  virtual std::unique_ptr<PreparedJob> prepare(const ProofRequest& request,
                                               ThreadPool& pool) const = 0;
  // nullopt when `circuit_id` is not this handler's; std::invalid_argument when it is but its
  // parameter files are missing under `source.dir`. `load` and `open` apply `source.checks`
  // (filecoin::read_parameter_set, open_parameter_set).
  virtual std::optional<SrsSpec> srs_spec(const std::string& circuit_id,
                                          const ParameterSource& source) const = 0;
  // nullopt when `circuit_id` is not this handler's.
  virtual std::optional<BlankCircuit> blank_circuit(const std::string& circuit_id) const = 0;
};

// Sizes of a circuit known from its parameters (rows <= the domain size): capacity for a proving
// assignment's vectors, so they never regrow while synthesizing (perf-log: 1.4-1.5x faster).
struct ShapeHint {
  size_t rows = 0, inputs = 0, aux = 0;
};

// Working-set bytes of one partition from synthesis until its proof is out, for parameters of
// this shape: a, b, c over the domain, the assignments, and the prover's transients (the
// quotient's two extra domain-sized vectors, the MSMs' scalar copies). It and the shape come from
// the section counts: the same for a set whose points are behind a source.
uint64_t partition_working_set(const groth16::Parameters& params);
ShapeHint shape_of(const groth16::Parameters& params);
// The set's bytes wherever its points are (the vk's ic and the five sections): what a device
// holding the whole set holds.
uint64_t set_bytes(const groth16::Parameters& params);
// Host bytes of loaded parameters: set_bytes, less the points when they are behind a source.
uint64_t parameters_bytes(const groth16::Parameters& params);

// The SrsSpec of `circuit_id`, whose parameter set is `set` (filecoin/circuit_parameters.hpp):
// its .params under source.dir, loaded with source.checks.
SrsSpec srs_spec_of(const std::string& circuit_id, const ParameterSource& source,
                    const filecoin::CircuitParameterSet& set);

// The handlers this build serves (PoRep C2, WindowPoSt partitions, WinningPoSt).
std::vector<std::shared_ptr<const CircuitHandler>> default_handlers();

// Circuit ids are "<kind>-<size suffix>" ("porep-32g"); the suffixes: 2k, 8m, 512m, 32g, 64g
// (and other powers of two as k, m, g). std::invalid_argument for a size that is not one.
std::string sector_size_suffix(uint64_t bytes);
// The circuit id "<kind>-<size suffix>" ("porep-32g"): what every handler's ids and the commands'
// --kind options are spelled with (porep_circuit_id, post_circuit_id, update_circuit_id).
std::string circuit_id_of(std::string_view kind, uint64_t sector_size);
// The sector size a circuit id ends with ("porep-32g" -> 32 GiB); 0 when it ends with none.
uint64_t sector_size_of_circuit_id(std::string_view circuit_id);
// The blank circuit of `circuit_id` from `handlers`; std::invalid_argument when none has it.
BlankCircuit find_blank_circuit(const std::vector<std::shared_ptr<const CircuitHandler>>& handlers,
                                const std::string& circuit_id);

}  // namespace cuzk::engine
