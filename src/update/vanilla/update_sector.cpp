#include "update/vanilla/update_sector.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/merkle/tree_store.hpp"
#include "filecoin/writable_file.hpp"
#include "update/vanilla/update_encoding.hpp"
#include "util/mapped_file.hpp"

namespace cuzk::filecoin {

namespace {

void require_size(const std::filesystem::path& p, uint64_t want, const char* what) {
  const uint64_t got = std::filesystem::file_size(p);
  if (got != want) {
    throw std::invalid_argument(std::string(what) + " " + p.string() + ": " + std::to_string(got) +
                                " bytes, the sector has " + std::to_string(want));
  }
}

MerkleTree open_tree_r(const UpdateParams& pp, const std::filesystem::path& cache,
                       const std::filesystem::path& replica) {
  const TreeShape shape = pp.tree_r_shape();
  const uint64_t per_tree = pp.sector_nodes / shape.base_tree_count();
  return open_tree_r_last(cache, replica, pp.sector_nodes, shape,
                          tree_r_last_rows_to_discard(cache, per_tree, shape.base));
}

}  // namespace

UpdateEncoded update_encode_into(const UpdateParams& pp, const UpdateSectorFiles& files,
                                 std::span<const uint8_t> staged_data, unsigned h,
                                 const SealOptions& options) {
  if (pp.poseidon) {
    throw std::invalid_argument("update encode: the Poseidon variant has no encoder upstream");
  }
  const uint64_t size = pp.sector_size();
  if (staged_data.size() != size) {
    throw std::invalid_argument("update encode: " + std::to_string(staged_data.size()) +
                                " bytes of new data, the sector has " + std::to_string(size));
  }
  require_size(files.sector_key, size, "sector key");
  if (std::filesystem::exists(files.replica) &&
      std::filesystem::equivalent(files.replica, files.sector_key)) {
    throw std::invalid_argument("update encode: the new replica must not be the sector key");
  }
  const PersistentAux key_aux = read_p_aux(files.sector_key_cache);
  std::filesystem::create_directories(files.replica_cache);

  UpdateEncoded out;
  out.comm_r_old = poseidon_hash2(key_aux.comm_c, key_aux.comm_r_last);
  out.comm_d_new = write_tree_d_file(files.replica_cache, staged_data, options);
  const UpdateRhos rhos(pp, update_phi(out.comm_d_new, out.comm_r_old), h);
  {
    const MappedFile key(files.sector_key);
    std::filesystem::remove(files.replica);  // a stale replica must not leak into the new one
    WritableMap replica(files.replica, size);
    if (options.progress) options.progress("encoding", 0, pp.sector_nodes);
    update_encode_nodes(key.bytes(), staged_data, replica.bytes(), 0, rhos, options.pool);
    if (options.progress) options.progress("encoding", pp.sector_nodes, pp.sector_nodes);
    out.comm_r_last_new =
        write_tree_r_last_files(files.replica_cache, replica.bytes(), pp.tree_r_shape(), options);
  }
  out.comm_r_new = poseidon_hash2(key_aux.comm_c, out.comm_r_last_new);
  write_p_aux(files.replica_cache, {key_aux.comm_c, out.comm_r_last_new});
  const std::filesystem::path t_aux = files.sector_key_cache / cache_key::kTAux;
  if (std::filesystem::exists(t_aux)) {
    std::filesystem::copy_file(t_aux, files.replica_cache / cache_key::kTAux,
                               std::filesystem::copy_options::overwrite_existing);
  }
  return out;
}

UpdatePublicInputs read_update_public_inputs(const UpdateParams& pp, const UpdateSectorFiles& files,
                                             unsigned h) {
  const PersistentAux key_aux = read_p_aux(files.sector_key_cache);
  const PersistentAux new_aux = read_p_aux(files.replica_cache);
  if (key_aux.comm_c != new_aux.comm_c) {
    throw std::invalid_argument(files.replica_cache.string() +
                                ": p_aux comm_c differs from the sector key's");
  }
  UpdatePublicInputs in;
  in.comm_r_old = poseidon_hash2(key_aux.comm_c, key_aux.comm_r_last);
  in.comm_r_new = poseidon_hash2(new_aux.comm_c, new_aux.comm_r_last);
  in.comm_d_new = open_tree_d(files.replica_cache, pp.sector_nodes).root();
  in.h = h;
  return in;
}

std::vector<UpdatePartitionProof> update_partition_proofs(const UpdateParams& pp,
                                                          const UpdateSectorFiles& files,
                                                          const UpdatePublicInputs& in,
                                                          ThreadPool* pool) {
  require_size(files.sector_key, pp.sector_size(), "sector key");
  require_size(files.replica, pp.sector_size(), "replica");
  const PersistentAux key_aux = read_p_aux(files.sector_key_cache);
  const MerkleTree tree_r_old = open_tree_r(pp, files.sector_key_cache, files.sector_key);
  const MerkleTree tree_d_new = open_tree_d(files.replica_cache, pp.sector_nodes);
  const MerkleTree tree_r_new = open_tree_r(pp, files.replica_cache, files.replica);
  if (tree_r_old.root() != key_aux.comm_r_last) {
    throw std::invalid_argument(files.sector_key_cache.string() +
                                ": tree_r_last root differs from p_aux comm_r_last");
  }
  return prove_update_partitions(pp, in, key_aux.comm_c, {tree_r_old, tree_d_new, tree_r_new},
                                 pool);
}

}  // namespace cuzk::filecoin
