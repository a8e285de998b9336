#include "filecoin/hash/sha256.hpp"

#include <openssl/evp.h>

#include <new>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {

// Fetched once; an EVP_MD is immutable and shareable between threads.
const EVP_MD* sha256_md() {
  static EVP_MD* md = [] {
    EVP_MD* m = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (m == nullptr) throw std::runtime_error("OpenSSL: SHA256 is not available");
    return m;
  }();
  return md;
}

void check(int ok, const char* what) {
  if (ok != 1) throw std::runtime_error(std::string("OpenSSL SHA-256: ") + what + " failed");
}

Sha256& local_hasher() {
  thread_local Sha256 h;
  return h;
}

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr) throw std::bad_alloc();
  try {
    reset();
  } catch (...) {
    EVP_MD_CTX_free(ctx_);
    throw;
  }
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(ctx_);
}

Sha256& Sha256::operator=(Sha256&& o) noexcept {
  if (this != &o) {
    EVP_MD_CTX_free(ctx_);
    ctx_ = o.ctx_;
    o.ctx_ = nullptr;
  }
  return *this;
}

void Sha256::reset() {
  check(EVP_DigestInit_ex2(ctx_, sha256_md(), nullptr), "init");
}

Sha256& Sha256::update(std::span<const uint8_t> data) {
  check(EVP_DigestUpdate(ctx_, data.data(), data.size()), "update");
  return *this;
}

Sha256Digest Sha256::finish() {
  Sha256Digest out;
  unsigned int len = 0;
  check(EVP_DigestFinal_ex(ctx_, out.data(), &len), "final");
  reset();
  return out;
}

Domain Sha256::node(const Domain& left, const Domain& right) {
  update(left);
  update(right);
  return finish_trunc254();
}

Domain Sha256::node_pair(const uint8_t* two_nodes) {
  update(std::span<const uint8_t>(two_nodes, 2 * kNodeSize));
  return finish_trunc254();
}

Sha256Digest sha256(std::span<const uint8_t> data) {
  return local_hasher().digest(data);
}

Sha256Digest sha256(std::initializer_list<std::span<const uint8_t>> parts) {
  Sha256& h = local_hasher();
  for (const auto& p : parts)
    h.update(p);
  return h.finish();
}

Domain sha256_trunc254(std::span<const uint8_t> data) {
  return trim_to_fr32(sha256(data));
}

Domain sha256_trunc254(std::initializer_list<std::span<const uint8_t>> parts) {
  return trim_to_fr32(sha256(parts));
}

Domain sha256_node(const Domain& left, const Domain& right) {
  return local_hasher().node(left, right);
}

}  // namespace cuzk::filecoin
