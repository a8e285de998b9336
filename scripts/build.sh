#!/usr/bin/env bash
# Configures (Release, Ninja) into build/ and builds the given targets (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" ${1:+--target "$@"}
