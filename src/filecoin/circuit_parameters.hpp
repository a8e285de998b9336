// One circuit's Groth16 parameter set as a proof kind describes it (porep, post and update each
// say what theirs is called): its cache id, the sector size its .meta records, the number of
// public inputs its verifying key must serve, and the words its errors use. Writing and reading
// by that description is the same for every proof kind, so it is here, once:
//
//   missing file   std::runtime_error "no <missing>: FILE is missing (<fetch hint>; a test
//                  network can use INSECURE sets from `<test_command>`)";
//   wrong key      std::runtime_error "FILE: N IC points, <circuit> has M inputs".
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "filecoin/merkle/tree_shape.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/types.hpp"
#include "util/atomic_file.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

struct CircuitParameterSet {
  std::string cache_id;      // parameter_cache_id(kind prefix, identifier)
  uint64_t sector_size = 0;  // what the .meta records
  size_t public_inputs = 0;  // without ONE
  std::string missing;       // "PoRep parameters for 2KiB"
  std::string circuit;       // "the PoRep circuit of 2KiB"
  std::string test_command;  // "cuzk porep params --sector-size 2KiB --out DIR"
};

// merkle/tree.rs `MerkleTreeWrapper::display` of a Poseidon tree ("merkletree-poseidon_hasher-
// 8-8-0"): part of every proof kind's cache id prefix.
std::string poseidon_tree_display(const TreeShape& tree);

// Writes .params, .vk and a .meta marking them insecure with `seed`, under their Filecoin names
// (creating `dir`); with kRefuse, FileExistsError before anything is written when one exists.
ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const CircuitParameterSet& set,
                                          const groth16::Parameters& params, std::string_view seed,
                                          Overwrite mode);

// Read back through read_parameter_set's checks, then the errors of the file comment.
groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const CircuitParameterSet& set,
                                        const ParameterChecks& checks, ThreadPool& pool,
                                        ParameterVerdict* verdict = nullptr);
// The same checks and errors with the set opened without its points (open_parameter_set).
groth16::Parameters open_parameter_file(const std::filesystem::path& dir,
                                        const CircuitParameterSet& set,
                                        const ParameterChecks& checks,
                                        ParameterVerdict* verdict = nullptr);
groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const CircuitParameterSet& set,
                                              const ParameterChecks& checks);

}  // namespace cuzk::filecoin
