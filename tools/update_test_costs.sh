#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Writes tests/test_costs.txt, the expected run time of each test (ctest's
# COST property: `ctest -j` starts the long tests first; cmake/TestTiers.cmake
# reads it and labels the tests of 60 s or more `slow`), from the timings
# ctest recorded in a build tree.  Run it after a full `make test`.
#   usage: tools/update_test_costs.sh [BUILD_DIR]     (default: build)
set -eu
build=${1:-build}
data=$build/Testing/Temporary/CTestCostData.txt
[ -r "$data" ] || { echo "no $data: run the tests in $build first" >&2; exit 1; }
out=$(dirname "$0")/../tests/test_costs.txt
{
  echo "# Expected seconds per test on 2 cores, from a full run (tools/update_test_costs.sh)."
  # lines before "---": name, runs, average seconds
  sed '/^---/,$d' "$data" | awk 'NF == 3 { printf "%s %.1f\n", $1, $3 }' | LC_ALL=C sort
} > "$out"
echo "wrote $out ($(grep -vc '^#' "$out") tests)"
