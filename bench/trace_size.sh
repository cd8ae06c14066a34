#!/bin/bash
# Trace size and run time of the 100k x 1 MiB copy study (issue 17 item 2), without a trace and
# at each trace level; with --load, also Perfetto's peak memory to load the task-level trace
# (scripts/trace-check/perfetto-check, maximum resident size from /usr/bin/time).
#
#   bench/trace_size.sh BUILD_DIR [--copies N] [--load]
set -euo pipefail
build=${1:?usage: trace_size.sh BUILD_DIR [--copies N] [--load]}
shift
copies=100000 load=0
while (($#)); do
  case $1 in
    --copies) copies=$2; shift 2 ;;
    --load) load=1; shift ;;
    *) echo "trace_size.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # run LABEL [env...]: prints label, wall seconds, trace bytes
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  env "$@" "$build/bench/trace_size" --copies "$copies" >/dev/null
  t1=$(date +%s.%N)
  local size=0
  [[ -f $tmp/t.json ]] && size=$(stat -c %s "$tmp/t.json")
  printf "%-22s wall %7.2f s   trace %8.1f MB\n" "$label" "$(echo "$t1 - $t0" | bc)" "$(echo "$size / 1000000" | bc -l)"
}
echo "$copies copies of 1 MiB H2D"
run "no trace"
for level in api task transaction; do
  run "trace.level=$level" NPUSIM_TRACE="$tmp/t.json" NPUSIM_SET="trace.level=$level"
  if [[ $level == task && $load == 1 ]]; then
    /usr/bin/time -f "perfetto load: max RSS %M KiB, %e s" "$here/scripts/trace-check/perfetto-check" "$tmp/t.json" \
      --sql "SELECT count(*) AS counters FROM counter" 2>&1 | tail -4
  fi
  rm -f "$tmp/t.json"
done
