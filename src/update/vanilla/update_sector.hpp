// SnapDeals on the files of a sealed sector, as filecoin-proofs src/api/update.rs `encode_into` and
// `generate_partition_proofs` do it:
//
//   sector key        the sealed replica (what `cuzk seal` writes) and its cache directory
//                     (p_aux: comm_c, comm_r_last; t_aux; the tree-r-last level-cache files);
//   encode_into       new data (a staged, Fr32-padded sector) -> tree_d_new over it in the new
//                     cache directory (sc-02-data-tree-d.dat, every row; root comm_d_new), the new
//                     replica encoded with rho (update_encoding.hpp), its tree-r-last files
//                     (comm_r_last_new), p_aux with comm_c and comm_r_last_new, and the sector
//                     key's t_aux copied (upstream persists the old t_aux);
//   partition proofs  the three trees opened from the two cache directories (rows_to_discard
//                     from each t_aux) and every partition proved (update_vanilla.hpp).
//
// The sector's files are mapped, so memory stays bounded by the trees' rows above the leaves.
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "porep/vanilla/seal_precommit.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::filecoin {

struct UpdateSectorFiles {
  std::filesystem::path sector_key;        // the sealed replica
  std::filesystem::path sector_key_cache;  // its cache directory
  std::filesystem::path replica;           // the new (updated) replica
  std::filesystem::path replica_cache;     // its cache directory
};

struct UpdateEncoded {
  Domain comm_r_old{}, comm_r_new{}, comm_r_last_new{}, comm_d_new{};
};

// `staged_data`: exactly sector_size bytes of Fr32-padded data (each node < r). Creates the new
// cache directory; replaces the new replica and the new cache's tree files. std::invalid_argument
// naming the problem for inputs of the wrong size or non-canonical nodes, or when the new replica
// would be the sector key itself; std::runtime_error naming a file on I/O errors.
UpdateEncoded update_encode_into(const UpdateParams& pp, const UpdateSectorFiles& files,
                                 std::span<const uint8_t> staged_data, unsigned h,
                                 const SealOptions& options = {});

// comm_r_old (from the sector key's p_aux), comm_r_new (the replica's p_aux) and comm_d_new (the
// root of the replica cache's tree_d).
UpdatePublicInputs read_update_public_inputs(const UpdateParams& pp, const UpdateSectorFiles& files,
                                             unsigned h);

// Every partition's vanilla proof (`generate_partition_proofs`), checked as they are made.
std::vector<UpdatePartitionProof> update_partition_proofs(const UpdateParams& pp,
                                                          const UpdateSectorFiles& files,
                                                          const UpdatePublicInputs& in,
                                                          ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
