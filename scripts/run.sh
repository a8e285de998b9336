#!/usr/bin/env bash
# The main job on the bundled default: builds cuzk and runs its self-check (the BLS12-381
# arithmetic against ../shared/vectors/bls12_381, then a timing table). No GPU needed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh cuzk
exec build/cuzk selfcheck "$@"
