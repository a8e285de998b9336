#include "update/public_inputs.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::update {

uint64_t k_and_h_select(const filecoin::UpdateParams& pp, unsigned k, unsigned h) {
  if (k >= pp.partition_count) {
    throw std::invalid_argument("partition-index " + std::to_string(k) +
                                " exceeds partition-count " + std::to_string(pp.partition_count));
  }
  return uint64_t{k} | (pp.h_select(h) << pp.partition_bit_len);
}

std::vector<Fr> update_public_inputs(const filecoin::UpdateParams& pp,
                                     const filecoin::UpdatePublicInputs& in, unsigned k) {
  return {Fr::from_u64(k_and_h_select(pp, k, in.h)),
          filecoin::domain_to_fr(in.comm_r_old, "update public inputs", "comm_r_old"),
          filecoin::domain_to_fr(in.comm_d_new, "update public inputs", "comm_d_new"),
          filecoin::domain_to_fr(in.comm_r_new, "update public inputs", "comm_r_new")};
}

}  // namespace cuzk::update
