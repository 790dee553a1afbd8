#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# mpich_coll_suite.sh - MPICH's own collective tests (test/mpi/coll of a
# pmodels/mpich checkout) through papcoll: each program is built with the MPI
# library's compiler (or papcoll-smpicc), then every line of its testlist.in
# runs with papcoll's interposer preloaded (or linked, under SMPI) and the
# PAPCOLL_* settings given.  A test passes when it exits 0 and prints
# "No Errors", as MPICH's runtests expects.  The suite's code stays in the
# checkout; nothing of it is copied here.  Not part of `make test`.
set -u
usage() {
  cat <<'EOF'
Usage: tools/conformance/mpich_coll_suite.sh [OPTIONS] MPICH_SRC OUTDIR [PAPCOLL_VAR=VALUE ...]

Builds MPICH's test/mpi/coll programs from MPICH_SRC (a pmodels/mpich checkout)
into OUTDIR/<mpi>/ and runs its testlist.in through papcoll, with the
PAPCOLL_* settings given (e.g. PAPCOLL_PPN=2 for virtual nodes of 2,
PAPCOLL_ADAPT_START=0 to measure every candidate from the first call,
PAPCOLL_ADAPT=0 for the static rules' algorithms).  Prints one line per
failure and a summary; each test's output is in OUTDIR/<mpi>/<tag>/.

Options:
  --mpi=NAME      openmpi (default: mpicc.openmpi, mpirun --oversubscribe,
                  BUILD/libpapcoll_mpi.so), mpich (mpicc.mpich, mpiexec.mpich,
                  build-mpich/libpapcoll_mpi.so) or smpi (papcoll-smpicc,
                  smpirun on a 4x4 cluster; intercommunicators left out,
                  which SMPI lacks)
  --build=DIR     papcoll's build directory (default: build, or build-mpich
                  for --mpi=mpich); under smpi DIR/smpi/papcoll-smpicc
  --tag=NAME      name of the results folder (default: default)
  --timeout=S     seconds per test (default 120)
  --skip=REGEX    tests (name.np) left out, an extended regex; default: the
                  ones that need 20-100 GB of memory (gather_big, coll_large
                  -option=1 and 2)
  --only=REGEX    run only the tests (name.np) matching
  --help          this text

Programs that need MPICH's dtpools or a GPU, and those the MPI library cannot
compile (MPI-4 persistent collectives under Open MPI 4.1), are not built and
not counted.  Exit status: 0 when every test run passed, 1 otherwise.
Example:
  tools/conformance/mpich_coll_suite.sh --mpi=mpich /src/mpich /tmp/mc PAPCOLL_PPN=2 PAPCOLL_ADAPT_START=0
EOF
}

mpi=openmpi build= tag=default timeout_s=120 only=.
skip='^(gather_big|coll_large\.[0-9]+ -option=[12])'
while [ $# -gt 0 ]; do
  case $1 in
    --mpi=*) mpi=${1#*=} ;;
    --build=*) build=${1#*=} ;;
    --tag=*) tag=${1#*=} ;;
    --timeout=*) timeout_s=${1#*=} ;;
    --skip=*) skip=${1#*=} ;;
    --only=*) only=${1#*=} ;;
    --help|-h) usage; exit 0 ;;
    --*) echo "mpich_coll_suite.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
[ $# -ge 2 ] || { usage >&2; exit 2; }
src=$(realpath "$1")/test/mpi out=$(realpath -m "$2")/$mpi; shift 2
[ -f "$src/coll/testlist.in" ] || { echo "mpich_coll_suite.sh: no $src/coll/testlist.in" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
case $mpi in
  openmpi) build=${build:-$here/build}; cc=mpicc.openmpi ;;
  mpich) build=${build:-$here/build-mpich}; cc=mpicc.mpich ;;
  smpi) build=${build:-$here/build}; cc=$build/smpi/papcoll-smpicc ;;
  *) echo "mpich_coll_suite.sh: --mpi is openmpi, mpich or smpi" >&2; exit 2 ;;
esac
lib=$(realpath "$build")/libpapcoll_mpi.so
[ "$mpi" = smpi ] && [ ! -x "$cc" ] && { echo "mpich_coll_suite.sh: no $cc (build papcoll first)" >&2; exit 2; }
[ "$mpi" != smpi ] && [ ! -f "$lib" ] && { echo "mpich_coll_suite.sh: no $lib (build papcoll first)" >&2; exit 2; }

# --- build: the suite's configure results that its util files need, then one program per test
bin=$out/bin gen=$out/include
mkdir -p "$bin" "$gen" "$out/$tag"
if [ ! -f "$bin/.built" ]; then
  touch "$gen/mtest_mpix.h"
  cat > "$gen/mpitestconf.h" <<'EOF'
#define HAVE_UNISTD_H 1
#define HAVE_STDARG_H 1
#define HAVE_STRING_H 1
#define HAVE_STDLIB_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE_INT16_T 1
#define HAVE_INT32_T 1
#define HAVE_INT64_T 1
#define HAVE_UINT16_T 1
#define HAVE_UINT32_T 1
#define HAVE_UINT64_T 1
#define HAVE__BOOL 1
#define HAVE_FLOAT__COMPLEX 1
#define HAVE_DOUBLE__COMPLEX 1
#define HAVE_LONG_DOUBLE__COMPLEX 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
EOF
  mtest=$src/util/mtest.c
  if [ "$mpi" = smpi ]; then # SMPI has no MPI_Intercomm_create: no intercommunicators, no merged world
    sed -e '/Dup of the world using MPI_Intercomm_merge/,/if (size > 1) {/s/if (size > 1) {/if (0 \&\& size > 1) {/' \
        -e '/^int MTestGetIntercomm(/,/^{/{/^{/a\    *comm = MPI_COMM_NULL; *isLeftGroup = 0; interCommIdx = 0; return 0;
}' "$mtest" > "$out/mtest.c"
    mtest=$out/mtest.c
  fi
  flags=(-O1 -w -I"$gen" -I"$src/include")
  objs=()
  for u in "$mtest" "$src/util/mtest_common.c" "$src/util/dtypes.c" "$src/util/mtest_single.c"; do
    o=$bin/$(basename "$u" .c).o
    "$cc" -c "${flags[@]}" "$u" -o "$o" || { echo "mpich_coll_suite.sh: cannot compile $u" >&2; exit 1; }
    objs+=("$o")
  done
  "$cc" -c "${flags[@]}" "$src/util/run_mpitests.c" -o "$bin/run_mpitests.o" || exit 1
  built=0
  for f in "$src"/coll/*.c; do
    b=$(basename "$f" .c)
    [[ $b == *_gpu ]] || grep -q "mtest_dtp.h" "$f" && continue # a GPU, or MPICH's dtpools
    runner=; grep -q "^int run(const char" "$f" && runner=$bin/run_mpitests.o
    if "$cc" "${flags[@]}" "$f" "${objs[@]}" $runner -o "$bin/$b" -lm -lpthread 2> "$bin/$b.err"; then
      built=$((built + 1)); rm -f "$bin/$b.err"
    fi
  done
  echo "built $built programs into $bin (the others: $bin/*.err)"
  touch "$bin/.built"
fi

# --- run: every testlist line whose program was built
env_args=()
for kv in "$@"; do
  case $kv in PAPCOLL_*=*) ;; *) echo "mpich_coll_suite.sh: $kv is not PAPCOLL_VAR=VALUE" >&2; exit 2 ;; esac
  case $mpi in
    openmpi) env_args+=(-x "$kv") ;;
    mpich) env_args+=(-genv "${kv%%=*}" "${kv#*=}") ;;
    smpi) export "${kv?}" ;;
  esac
done
case $mpi in
  openmpi) export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
           launch=(mpirun.openmpi --oversubscribe --bind-to none -x LD_PRELOAD="$lib" "${env_args[@]}" -n) ;;
  mpich) launch=(mpiexec.mpich -genv LD_PRELOAD "$lib" "${env_args[@]}" -n) ;;
  smpi) PYTHONPATH=$here/tools python3 -m papcoll_tools.cli sim platform cluster:4x4 -o "$out/c4x4" > /dev/null || exit 1
        launch=(smpirun -platform "$out/c4x4.xml" -hostfile "$out/c4x4.hosts" --cfg=smpi/simulate-computation:no
                --cfg=smpi/coll-selector:mpich --log=root.thres:critical -np) ;;
esac
pass=0 failed=()
while read -r name np rest; do
  [[ -z "$name" || "$name" == \#* || "$name" == @* || ! -x "$bin/$name" ]] && continue
  args=(); for w in $rest; do [[ $w == arg=* ]] && args+=("${w#arg=}"); done
  id="$name.$np${args[*]:+ ${args[*]}}"
  [[ $id =~ $skip || ! $id =~ $only ]] && continue
  log=$out/$tag/$(echo "$id" | tr -c 'A-Za-z0-9.=\n-' '_').log
  timeout "$timeout_s" "${launch[@]}" "$np" "$bin/$name" "${args[@]}" < /dev/null > "$log" 2>&1
  rc=$?
  if [ $rc = 0 ] && grep -q "No Errors" "$log"; then
    pass=$((pass + 1))
  else
    why="exit $rc"; [ $rc = 124 ] && why="timed out after $timeout_s s"
    failed+=("$id"); echo "FAIL $id ($why): $log"
  fi
done < "$src/coll/testlist.in"
echo "$mpi $tag ${*:-(defaults)}: $pass passed, ${#failed[@]} failed"
[ ${#failed[@]} = 0 ]
