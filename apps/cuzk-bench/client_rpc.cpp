#include "client_rpc.hpp"

#include <unistd.h>

#include <array>
#include <cctype>
#include <fstream>
#include <iterator>

#include "client_util.hpp"
#include "filecoin/registered_proof.hpp"
#include "porep/vanilla/c1_wrapper.hpp"

namespace cuzk::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The daemon answers an await this long before a client deadline of the same length would fire,
// so a timeout reads as the job's TIMEOUT status rather than DEADLINE_EXCEEDED.
constexpr double kAwaitSlackS = 5;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BadInput(path + ": cannot open");
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw BadInput(path + ": cannot read");
  return bytes;
}

std::string hex32(const std::string& text, const char* option) {
  std::vector<uint8_t> bytes;
  try {
    bytes = hex_decode(text);
  } catch (const std::invalid_argument& e) {
    throw BadInput(std::string(option) + ": " + e.what());
  }
  if (bytes.size() != 32) {
    throw BadInput(std::string(option) + ": expected 32 bytes (64 hex digits), got " +
                   std::to_string(bytes.size()));
  }
  return {bytes.begin(), bytes.end()};
}

v1::Priority parse_priority(std::string_view text) {
  std::string upper(text);
  for (char& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  v1::Priority p = v1::PRIORITY_UNSPECIFIED;
  if (upper == "PRIORITY_UNSPECIFIED" || !v1::Priority_Parse(upper, &p)) {
    throw BadInput("--priority: \"" + std::string(text) + "\" (low, normal, high, critical)");
  }
  return p;
}

std::string registered_proof_name(ProofKindArg kind, uint64_t id) {
  try {
    switch (kind) {
      case ProofKindArg::kPoRep:
        return std::string(filecoin::seal_proof_info(filecoin::seal_proof_from_id(id)).name);
      case ProofKindArg::kWindowPoSt:
      case ProofKindArg::kWinningPoSt:
        if (id < filecoin::kPoStProofCount) {
          return std::string(filecoin::post_proof_info(static_cast<uint32_t>(id)).name);
        }
        break;
      case ProofKindArg::kSnapDeals: {
        // RegisteredUpdateProof has no table in src/filecoin; its names follow the sizes.
        static constexpr std::array<const char*, 5> kUpdateNames{
            "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1",
            "StackedDrg64GiBV1"};
        if (id < kUpdateNames.size()) return kUpdateNames[id];
        break;
      }
    }
  } catch (const std::invalid_argument&) {
  }
  return "unknown registered proof";
}

void build_porep(const RequestOptions& o, v1::SubmitProofRequest& r) {
  if (o.c1.empty()) throw BadInput("porep needs --c1 FILE");
  std::string bytes = read_file(o.c1);
  filecoin::C1Document doc;
  try {
    doc = filecoin::parse_c1_document(bytes);
  } catch (const std::exception& e) {
    throw BadInput(o.c1 + ": " + e.what());
  }
  const uint64_t id = static_cast<uint64_t>(doc.c1.registered_proof);
  const filecoin::SealProofInfo& info = filecoin::seal_proof_info(doc.c1.registered_proof);
  if (o.registered_proof && *o.registered_proof != id) {
    throw BadInput("--registered-proof " + std::to_string(*o.registered_proof) + " but " + o.c1 +
                   " is " + std::string(info.name) + " (id " + std::to_string(id) + ")");
  }
  if (o.sector_size && *o.sector_size != info.sector_size) {
    throw BadInput("--sector-size " + std::to_string(*o.sector_size) + " but " + o.c1 + " is a " +
                   format_bytes(info.sector_size) + " sector");
  }
  r.set_registered_proof(id);
  r.set_sector_size(info.sector_size);
  r.set_sector_number(o.sector_num.value_or(doc.sector_num.value_or(1)));
  // The file as it is: the daemon takes the wrapper or the bare JSON, as the Rust one does.
  r.set_vanilla_proof(std::move(bytes));
}

void build_vanilla(const RequestOptions& o, ProofKindArg kind, v1::SubmitProofRequest& r) {
  if (o.vanilla.empty()) {
    throw BadInput(std::string(proof_kind_name(kind)) + " needs --vanilla FILE");
  }
  std::vector<std::string> proofs;
  try {
    proofs = parse_vanilla_proofs(read_file(o.vanilla));
  } catch (const std::invalid_argument& e) {
    throw BadInput(o.vanilla + ": " + e.what());
  }
  const uint64_t id = o.registered_proof.value_or(default_registered_proof(kind));
  uint64_t size = 0;
  if (o.sector_size) {
    size = *o.sector_size;
  } else {
    try {
      size = registered_proof_sector_size(kind, id);
    } catch (const std::invalid_argument& e) {
      throw BadInput(std::string("--registered-proof: ") + e.what() + " (or give --sector-size)");
    }
  }
  r.set_registered_proof(id);
  r.set_sector_size(size);
  r.set_sector_number(o.sector_num.value_or(1));
  for (std::string& p : proofs)
    r.add_vanilla_proofs(std::move(p));
  if (kind != ProofKindArg::kSnapDeals) {
    // PoSt needs a seed; all zero unless given, as the Rust cuzk-bench does.
    r.set_randomness(o.randomness.empty() ? std::string(32, '\0')
                                          : hex32(o.randomness, "--randomness"));
  }
}

// A PEM file for the TLS options (BadInput when it cannot be read).
std::string read_pem(const std::string& path, const char* option) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BadInput(std::string(option) + " " + path + ": cannot open");
  std::string text(1 << 20, '\0');  // a PEM file is a few KB
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.find("-----BEGIN ") == std::string::npos) {
    throw BadInput(std::string(option) + " " + path + ": no PEM block");
  }
  return text;
}

std::shared_ptr<grpc::ChannelCredentials> channel_credentials(const ConnectionOptions& o) {
  const bool tls = !o.tls_ca.empty() || !o.tls_cert.empty() || !o.tls_key.empty();
  if (!tls) return grpc::InsecureChannelCredentials();
  if (o.tls_cert.empty() != o.tls_key.empty()) {
    throw BadInput("--tls-cert and --tls-key go together");
  }
  grpc::SslCredentialsOptions ssl;
  if (!o.tls_ca.empty()) ssl.pem_root_certs = read_pem(o.tls_ca, "--tls-ca");
  if (!o.tls_cert.empty()) {
    ssl.pem_cert_chain = read_pem(o.tls_cert, "--tls-cert");
    ssl.pem_private_key = read_pem(o.tls_key, "--tls-key");
  }
  return grpc::SslCredentials(ssl);
}

}  // namespace

DaemonClient::DaemonClient(const ConnectionOptions& opts, bool own_connection)
    : address_(opts.addr), timeout_s_(opts.timeout_s) {
  std::string target;
  try {
    target = normalize_address(opts.addr);
  } catch (const std::invalid_argument& e) {
    throw BadInput(std::string("--addr: ") + e.what());
  }
  if (!(opts.timeout_s >= 0)) throw BadInput("--timeout-s must be >= 0");
  grpc::ChannelArguments args;
  // A 32 GiB C1 is ~70 MB; gRPC's default limits are 4 MB.
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  if (own_connection) args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  if (!opts.tls_server_name.empty()) args.SetSslTargetNameOverride(opts.tls_server_name);
  channel_ = grpc::CreateCustomChannel(target, channel_credentials(opts), args);
  stub_ = v1::ProvingEngine::NewStub(channel_);
}

std::unique_ptr<grpc::ClientContext> DaemonClient::context(double timeout_s) const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (timeout_s > 0) {
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::duration_cast<std::chrono::system_clock::duration>(
                          std::chrono::duration<double>(timeout_s)));
  }
  return ctx;
}

// gRPC's C++ API names no status code, so a switch spells them (as the daemon's event log spells
// its levels: the two switches look alike but map different enums).
std::string_view status_code_name(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN_CODE";
  }
}

std::string describe_rpc_error(const DaemonClient& client, std::string_view rpc,
                               const grpc::Status& status) {
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE) {
    return "cannot connect to " + client.address() + ": " + status.error_message();
  }
  std::string text = std::string(rpc) + ": " + std::string(status_code_name(status.error_code()));
  if (!status.error_message().empty()) text += ": " + status.error_message();
  return text;
}

int exit_code_of(const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      return kExitOk;
    case grpc::StatusCode::UNAVAILABLE:
      return kExitUnreachable;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND:
      return kExitBadInput;
    default:
      return kExitFailed;
  }
}

std::string job_status_name(int status) {
  if (v1::AwaitProofResponse::Status_IsValid(status)) {
    return v1::AwaitProofResponse::Status_Name(static_cast<v1::AwaitProofResponse::Status>(status));
  }
  return "STATUS_" + std::to_string(status);
}

v1::SubmitProofRequest build_request(const RequestOptions& o) {
  ProofKindArg kind;
  try {
    kind = parse_proof_kind(o.type);
  } catch (const std::invalid_argument& e) {
    throw BadInput(std::string("--type: ") + e.what());
  }
  v1::SubmitProofRequest r;
  r.set_proof_kind(static_cast<v1::ProofKind>(kind));
  r.set_priority(parse_priority(o.priority));
  r.set_miner_id(o.miner_id);
  r.set_partition_index(o.partition);
  if (kind == ProofKindArg::kPoRep) {
    build_porep(o, r);
  } else {
    build_vanilla(o, kind, r);
  }
  if (!o.comm_r_old.empty()) r.set_comm_r_old(hex32(o.comm_r_old, "--comm-r-old"));
  if (!o.comm_r_new.empty()) r.set_comm_r_new(hex32(o.comm_r_new, "--comm-r-new"));
  if (!o.comm_d_new.empty()) r.set_comm_d_new(hex32(o.comm_d_new, "--comm-d-new"));
  return r;
}

std::string describe_request(const v1::SubmitProofRequest& r) {
  const auto kind = static_cast<ProofKindArg>(r.proof_kind());
  std::string text =
      std::string(proof_kind_name(kind)) + " " + registered_proof_name(kind, r.registered_proof()) +
      " (id " + std::to_string(r.registered_proof()) + "), " + format_bytes(r.sector_size()) +
      " sector " + std::to_string(r.sector_number()) + ", miner " + std::to_string(r.miner_id()) +
      ", priority " + v1::Priority_Name(r.priority()) + ", ";
  if (kind == ProofKindArg::kPoRep) {
    text += "C1 of " + format_bytes(r.vanilla_proof().size());
  } else {
    size_t bytes = 0;
    for (const std::string& p : r.vanilla_proofs())
      bytes += p.size();
    text += std::to_string(r.vanilla_proofs_size()) + " vanilla proof(s) of " +
            format_bytes(bytes) + ", partition " + std::to_string(r.partition_index());
  }
  return text;
}

std::string request_id_prefix() {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return "cuzk-bench-" + std::to_string(::getpid()) + "-" + std::to_string(ms);
}

std::string ProofOutcome::error() const {
  if (!rpc_status.ok()) return rpc_error;
  if (!result.error_message().empty()) return result.error_message();
  return job_status_name(result.status());
}

ProofOutcome run_proof(DaemonClient& client, v1::SubmitProofRequest request, bool submit_await,
                       v1::SubmitProofResponse* submitted) {
  ProofOutcome out;
  out.request_id = request.request_id();
  const auto t0 = Clock::now();
  if (!submit_await) {
    v1::ProveRequest prove;
    prove.mutable_submit()->Swap(&request);  // no copy of the (large) vanilla proof
    v1::ProveResponse response;
    const auto ctx = client.context(client.timeout_s());
    out.rpc_status = client.stub().Prove(ctx.get(), prove, &response);
    out.client_s = seconds_since(t0);
    if (!out.rpc_status.ok()) {
      out.rpc_error = describe_rpc_error(client, "Prove", out.rpc_status);
      return out;
    }
    out.result = response.result();
    out.job_id = out.result.job_id();
    return out;
  }
  v1::SubmitProofResponse response;
  {
    const auto ctx = client.context(client.timeout_s());
    out.rpc_status = client.stub().SubmitProof(ctx.get(), request, &response);
  }
  if (!out.rpc_status.ok()) {
    out.client_s = seconds_since(t0);
    out.rpc_error = describe_rpc_error(client, "SubmitProof", out.rpc_status);
    return out;
  }
  if (submitted) *submitted = response;
  out.job_id = response.job_id();
  v1::AwaitProofRequest await;
  await.set_job_id(out.job_id);
  double left_s = 0;
  if (client.timeout_s() > 0) {
    left_s = std::max(0.001, client.timeout_s() - seconds_since(t0));
    await.set_timeout_ms(static_cast<uint64_t>(left_s * 1000));
  }
  const auto ctx = client.context(left_s > 0 ? left_s + kAwaitSlackS : 0);
  out.rpc_status = client.stub().AwaitProof(ctx.get(), await, &out.result);
  out.client_s = seconds_since(t0);
  if (!out.rpc_status.ok()) {
    out.rpc_error = describe_rpc_error(client, "AwaitProof", out.rpc_status);
  }
  return out;
}

ProofOutcome await_job(DaemonClient& client, const std::string& job_id) {
  ProofOutcome out;
  out.job_id = job_id;
  v1::AwaitProofRequest await;
  await.set_job_id(job_id);
  await.set_timeout_ms(static_cast<uint64_t>(client.timeout_s() * 1000));
  const auto t0 = Clock::now();
  const auto ctx = client.context(client.timeout_s() > 0 ? client.timeout_s() + kAwaitSlackS : 0);
  out.rpc_status = client.stub().AwaitProof(ctx.get(), await, &out.result);
  out.client_s = seconds_since(t0);
  if (!out.rpc_status.ok()) {
    out.rpc_error = describe_rpc_error(client, "AwaitProof", out.rpc_status);
  }
  return out;
}

std::string format_timings(const v1::AwaitProofResponse& r) {
  return "queue " + std::to_string(r.queue_wait_ms()) + " | srs load " +
         std::to_string(r.srs_load_ms()) + " | synthesis " + std::to_string(r.synthesis_ms()) +
         " | gpu " + std::to_string(r.gpu_compute_ms()) + " | total " +
         std::to_string(r.total_ms()) + " ms";
}

}  // namespace cuzk::bench
