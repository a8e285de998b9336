#include "filecoin/hash/blake2b.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

void check(int ok, const char* what) {
  if (ok != 1) throw std::runtime_error(std::string("OpenSSL BLAKE2b: ") + what + " failed");
}

const EVP_MD* blake2b512_md() {
  static EVP_MD* md = [] {
    EVP_MD* m = EVP_MD_fetch(nullptr, "BLAKE2B-512", nullptr);
    if (m == nullptr) throw std::runtime_error("OpenSSL: BLAKE2B-512 is not available");
    return m;
  }();
  return md;
}

EVP_MAC* blake2b_mac() {
  static EVP_MAC* mac = [] {
    EVP_MAC* m = EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr);
    if (m == nullptr) throw std::runtime_error("OpenSSL: BLAKE2BMAC is not available");
    return m;
  }();
  return mac;
}

}  // namespace

Blake2b512::Blake2b512() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr) throw std::bad_alloc();
  if (EVP_DigestInit_ex2(ctx_, blake2b512_md(), nullptr) != 1) {
    EVP_MD_CTX_free(ctx_);
    throw std::runtime_error("OpenSSL BLAKE2b: init failed");
  }
}

Blake2b512::~Blake2b512() {
  EVP_MD_CTX_free(ctx_);
}

// The EVP calls of Sha256 (sha256.cpp) over BLAKE2B-512: two small wrappers, each with its
// algorithm fetched once and its own error wording, rather than one over a run-time EVP_MD.
Blake2b512& Blake2b512::update(std::span<const uint8_t> data) {
  check(EVP_DigestUpdate(ctx_, data.data(), data.size()), "update");
  return *this;
}

Blake2b512Digest Blake2b512::finish() {
  Blake2b512Digest out;
  unsigned int len = 0;
  check(EVP_DigestFinal_ex(ctx_, out.data(), &len), "final");
  check(EVP_DigestInit_ex2(ctx_, blake2b512_md(), nullptr), "init");
  return out;
}

Blake2b512Digest blake2b512(std::span<const uint8_t> data) {
  thread_local Blake2b512 h;
  return h.digest(data);
}

Blake2b256Digest blake2b256_keyed(std::span<const uint8_t> key,
                                  std::initializer_list<std::span<const uint8_t>> parts) {
  if (key.empty() || key.size() > 64) {
    throw std::invalid_argument("blake2b256_keyed: key of " + std::to_string(key.size()) +
                                " bytes; BLAKE2b keys are 1..64 bytes");
  }
  std::unique_ptr<EVP_MAC_CTX, decltype(&EVP_MAC_CTX_free)> ctx(EVP_MAC_CTX_new(blake2b_mac()),
                                                                &EVP_MAC_CTX_free);
  if (!ctx) throw std::bad_alloc();
  size_t out_len = 32;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &out_len),
                         OSSL_PARAM_construct_end()};
  check(EVP_MAC_init(ctx.get(), key.data(), key.size(), params), "MAC init");
  for (const auto& p : parts)
    check(EVP_MAC_update(ctx.get(), p.data(), p.size()), "MAC update");
  Blake2b256Digest out;
  size_t written = 0;
  check(EVP_MAC_final(ctx.get(), out.data(), &written, out.size()), "MAC final");
  if (written != out.size()) throw std::runtime_error("OpenSSL BLAKE2BMAC: wrong output size");
  return out;
}

}  // namespace cuzk::filecoin
