#include "update/public_inputs.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::update {

namespace {

Fr strict(const filecoin::Domain& d, const char* what) {
  if (auto f = filecoin::try_domain_to_fr(d)) return *f;
  throw std::invalid_argument(std::string("update public inputs: ") + what +
                              " is not a field element (" + filecoin::to_hex(d) + ")");
}

}  // namespace

uint64_t k_and_h_select(const filecoin::UpdateParams& pp, unsigned k, unsigned h) {
  if (k >= pp.partition_count) {
    throw std::invalid_argument("partition-index " + std::to_string(k) +
                                " exceeds partition-count " + std::to_string(pp.partition_count));
  }
  return uint64_t{k} | (pp.h_select(h) << pp.partition_bit_len);
}

std::vector<Fr> update_public_inputs(const filecoin::UpdateParams& pp,
                                     const filecoin::UpdatePublicInputs& in, unsigned k) {
  return {Fr::from_u64(k_and_h_select(pp, k, in.h)), strict(in.comm_r_old, "comm_r_old"),
          strict(in.comm_d_new, "comm_d_new"), strict(in.comm_r_new, "comm_r_new")};
}

}  // namespace cuzk::update
