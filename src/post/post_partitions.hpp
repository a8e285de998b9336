// A PoSt job's partition: a request filecoin::decode_post_request decoded and verified
// (post/vanilla/post_request.hpp), its FallbackPoSt circuit with the witness and its native public
// inputs. What the engine's handlers make of a request and where `cuzk post prove` gets its
// partition.
#pragma once

#include <memory>
#include <vector>

#include "circuits/proof_partitions.hpp"
#include "post/vanilla/post_request.hpp"

namespace cuzk::post {

// A job of consecutive partitions (a Window request with more sectors than a partition holds),
// or of one (WinningPoSt, one WindowPoSt partition).
std::unique_ptr<circuits::PreparedJob> make_post_job(std::vector<filecoin::PoStJob> parts);
std::unique_ptr<circuits::PreparedJob> make_post_job(filecoin::PoStJob job);

}  // namespace cuzk::post
