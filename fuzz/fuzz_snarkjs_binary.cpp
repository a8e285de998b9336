// snarkjs / iden3 binary files: the first byte picks .r1cs, .wtns or .zkey, the rest is the file.
// The key's verifying-key points are fully checked, its bulk points on the curve only (as in
// fuzz_bellperson: subgroup checks would take all the time).
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "groth16/snarkjs_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  if (size == 0) return 0;
  static ThreadPool pool(1);
  const std::span<const uint8_t> bytes(data + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0: {
        const groth16::SnarkjsR1cs r = groth16::parse_r1cs(bytes, "fuzz.r1cs");
        fuzz::require(r.r1cs.num_inputs == uint64_t{r.n_pub_out} + r.n_pub_in + 1,
                      "r1cs input count");
        break;
      }
      case 1: {
        const std::vector<Fr> w = groth16::parse_wtns(bytes, "fuzz.wtns");
        fuzz::require(!w.empty() && w[0].is_one(), "wtns wire 0");
        break;
      }
      default: {
        const groth16::Zkey z =
            groth16::parse_zkey(bytes, "fuzz.zkey", SubgroupCheck::kSkipTrusted, &pool);
        fuzz::require(z.ic.size() == uint64_t{z.n_public} + 1 && z.a.size() == z.n_vars,
                      "zkey counts");
        break;
      }
    }
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
