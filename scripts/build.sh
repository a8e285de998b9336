#!/usr/bin/env bash
# Configures (Release, Ninja) into build/ and builds the given targets (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# CUZK_CUDA_ARCHITECTURES (environment), when set, replaces the release list (CMakeLists.txt).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  ${CUZK_CUDA_ARCHITECTURES:+"-DCUZK_CUDA_ARCHITECTURES=$CUZK_CUDA_ARCHITECTURES"} >/dev/null
cmake --build build -j "$(nproc)" ${1:+--target "$@"}
