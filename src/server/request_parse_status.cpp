#include "server/request_parse_status.hpp"

#include <grpcpp/support/interceptor.h>
#include <grpcpp/support/status.h>

#include <string>
#include <string_view>

namespace cuzk::server {
namespace {

constexpr std::string_view kService = "/cuzk.v1.ProvingEngine/";

class RequestParseStatus final : public grpc::experimental::Interceptor {
 public:
  explicit RequestParseStatus(std::string method) : method_(std::move(method)) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    using Hook = grpc::experimental::InterceptionHookPoints;
    // A unary request that did not deserialize reaches the interceptors as a null message.
    if (m->QueryInterceptionHookPoint(Hook::POST_RECV_MESSAGE) && m->GetRecvMessage() == nullptr) {
      unparsed_ = true;
    }
    if (m->QueryInterceptionHookPoint(Hook::PRE_SEND_STATUS) && unparsed_) {
      const grpc::Status s = m->GetSendStatus();
      if (s.error_code() == grpc::StatusCode::INTERNAL && s.error_message().empty()) {
        m->ModifySendStatus(grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            method_ + ": the request does not parse as its cuzk.v1 message: malformed protobuf, "
                      "or a string field (request_id, job_id, circuit_id) that is not valid "
                      "UTF-8"));
      }
    }
    m->Proceed();
  }

 private:
  const std::string method_;
  bool unparsed_ = false;
};

}  // namespace

grpc::experimental::Interceptor* RequestParseStatusFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  const std::string_view method = info->method();
  if (!method.starts_with(kService)) return nullptr;
  return new RequestParseStatus(std::string(method.substr(kService.size())));
}

}  // namespace cuzk::server
