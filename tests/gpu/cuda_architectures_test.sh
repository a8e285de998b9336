#!/usr/bin/env bash
# Every release CUDA architecture compiles: builds cuzk_gpu_arch_check (src/gpu/CMakeLists.txt:
# the architecture-sensitive kernels for CUZK_CUDA_ARCHITECTURES_RELEASE) and reads which
# machine code (sm_N) and PTX (compute_N) each object holds: exactly the list. cuzk_gpu's own
# objects must show this tree's CUZK_CUDA_ARCHITECTURES (a control of the reader).
# Usage: cuda_architectures_test.sh <build dir> <release list> <this tree's list> (comma-separated)
set -euo pipefail
build="$1"; release="$2"; tree="$3"
here=$(dirname "$0")
expect() {  # comma-separated CMake architectures -> the reader's lines
  tr ',' '\n' <<< "$1" | sed -n -e 's/^\([0-9]*\)-real$/sm_\1/p' -e 's/^\([0-9]*\)-virtual$/compute_\1/p' \
    | sort | tr '\n' ' '
}
check_objects() {  # dir, list, how many
  local objects got want
  objects=$(find "$1" -name '*.cu.o' | sort)
  [ "$(grep -c . <<< "$objects")" -eq "$3" ] || { echo "FAIL: expected $3 objects in $1"; exit 1; }
  want=$(expect "$2")
  for o in $objects; do
    got=$(python3 "$here/fatbin_archs.py" "$o" | tr '\n' ' ')
    [ "$got" = "$want" ] || { echo "FAIL: $(basename "$o") holds '$got', want '$want'"; exit 1; }
    echo "ok   $(basename "$o"): $got"
  done
}
check_objects "$build/src/gpu/CMakeFiles/cuzk_gpu.dir" "$tree" 8
t0=$(date +%s)
cmake --build "$build" --target cuzk_gpu_arch_check -j 1 > "$build/cuda_arch_check.log" 2>&1 \
  || { tail -50 "$build/cuda_arch_check.log"; echo "FAIL: cuzk_gpu_arch_check does not build"; exit 1; }
echo "built cuzk_gpu_arch_check in $(( $(date +%s) - t0 )) s"
check_objects "$build/src/gpu/CMakeFiles/cuzk_gpu_arch_check.dir" "$release" 6
echo PASS
