#!/usr/bin/env bash
# Installs the Debian packages cuzk builds and tests with; only missing ones, `apt-get update` once.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config python3       # toolchain (python3 regenerates/checks the asm)
  libgtest-dev libbenchmark-dev                  # tests, microbenchmarks
  libgmp-dev                                     # independent bignum reference in the field tests
  libssl-dev                                     # SHA-256 / BLAKE2b (OpenSSL)
  nlohmann-json3-dev libcli11-dev                # vector files / JSON, command line
  libgrpc++-dev libprotobuf-dev                  # cuzk.v1 gRPC service and clients
  protobuf-compiler protobuf-compiler-grpc       # protoc + grpc_cpp_plugin (code generated at build)
  libtomlplusplus-dev libspdlog-dev              # daemon config (TOML), structured logs
  libcpp-httplib-dev                             # the daemon's HTTP port (status_listen)
  clang libclang-rt-14-dev                       # libFuzzer + ASan/UBSan fuzz targets
  python3-grpcio python3-grpc-tools              # independent gRPC client in the daemon tests
  grpc-proto                                     # health + reflection .proto for that client
  clang-format                                   # formatting check in the tests
  dpkg-dev systemd                               # cpack .deb (dpkg-shlibdeps), systemd-analyze verify
  lintian help2man openssl                       # the .deb's checks, its man pages; test certificates
  chromium                                       # the status page test (headless browser)
)

# node + npm run snarkjs for the external Groth16 cross-checks (skipped, visibly, without them).
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing: ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
