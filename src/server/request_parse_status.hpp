// gRPC answers a request message that protobuf cannot parse with INTERNAL and no message, before
// any handler runs (issue 29: a request_id that is not valid UTF-8, which proto3 refuses in a
// string field). This server interceptor turns that answer, for the cuzk.v1 methods, into
// INVALID_ARGUMENT saying what was wrong: the client sent it, and it should know why.
#pragma once

#include <grpcpp/support/server_interceptor.h>

namespace cuzk::server {

class RequestParseStatusFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;
};

}  // namespace cuzk::server
