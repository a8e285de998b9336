#!/usr/bin/env bash
# Builds everything and runs every test (GPU tests, when there are any, skip without a device).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
