# run_args.sh - sourced by run_apps.sh and ../apps_trace_smpi/run_trace.sh: their common arguments
#   BINDIR OUTDIR APP PLATFORM "ALGOS" "NOISES" -- APP_ARGS...
# Sets bindir, outdir, app, platform, algos, noises; shifts them (and --) off the caller's "$@", which
# keeps APP_ARGS; var: the variable naming the app's papcoll algorithm (PAPCOLL_BCAST, _REDUCE, _ALLTOALL).
bindir=$1 outdir=$2 app=$3 platform=$4 algos=$5 noises=$6
shift 6
[ "${1:-}" = "--" ] && shift
case $app in
  floyd_warshall) var=PAPCOLL_BCAST ;;
  matvec) var=PAPCOLL_REDUCE ;;
  fft3d) var=PAPCOLL_ALLTOALL ;;
  *) echo "$(basename "$0"): unknown app $app" >&2; exit 2 ;;
esac
