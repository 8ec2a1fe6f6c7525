#!/usr/bin/env bash
# Proxy throughput with the window open (under Xvfb, on its first tab, Live, animating) against headless, on
# the same nginx backends, in interleaved rounds: each round starts a fresh Fulcrum in one mode, warms
# it up under wrk for WARM seconds, then measures 10 s with wrk. Medians and the window/headless ratio at the end.
# The window's process takes about a minute to settle: the JIT compiles the proxy while JavaFX's code warms up
# beside it (WARM=10 measures that first minute; the default, 60, the window as it runs afterwards).
#
#   [WARM=60] bench/window-vs-headless.sh [rounds=3]
#
# Needs: nginx, wrk, xvfb-run (Debian xvfb), libgtk-3-0, and target/fulcrum.jar.
set -euo pipefail
ROUNDS=${1:-3}
WARM=${WARM:-60}
B1=19301; B2=19302; PROXY=19390; ADMIN=19391
. "$(dirname "$0")/lib.sh"
needs wrk nginx xvfb-run curl
trap 'pkill -f "^java .*$WORK/f.json" 2>/dev/null || true; cleanup' EXIT
start_backends $B1 $B2
two_backend_config "$WORK/f.json" $PROXY $ADMIN $B1 $B2

measure() { # mode -> appends "mode rps p99"
  local mode=$1 p
  if [ "$mode" = window ]; then
    xvfb-run -a -s "-screen 0 1400x900x24" java -Xmx256m -jar "$JAR" --config "$WORK/f.json" > /dev/null 2>&1 &
  else
    java -Xmx256m -jar "$JAR" --headless --config "$WORK/f.json" > /dev/null 2>&1 &
  fi
  p=$!
  for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$ADMIN/api/state" && break; sleep 0.5; done
  sleep 5   # the window's views start sampling
  wrk -t2 -c50 -d"${WARM}s" "http://127.0.0.1:$PROXY/" > /dev/null
  local out; out=$(wrk -t2 -c50 -d10s --latency "http://127.0.0.1:$PROXY/")
  local rps; rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  local p99; p99=$(p99_ms "$out")
  echo "$mode: $rps req/s, p99 $p99 ms" >&2
  echo "$mode $rps $p99" >> "$WORK/results"
  pkill -f "^java .*$WORK/f.json" || true   # java only: xvfb-run, whose arguments name the file too, then stops its Xvfb
  wait "$p" 2>/dev/null || true
  sleep 1
}
for _ in $(seq 1 "$ROUNDS"); do measure headless; measure window; done
python3 - "$WORK/results" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    m, r, p = line.split(); rows.setdefault(m, []).append((float(r), float(p)))
med = {m: (statistics.median(r for r, _ in v), statistics.median(p for _, p in v)) for m, v in rows.items()}
print("| mode | requests/s | p99 ms |\n|---|---|---|")
for m in ("headless", "window"):
    print(f"| {m} | {med[m][0]:,.0f} | {med[m][1]:.2f} |")
print(f"window / headless: {med['window'][0] / med['headless'][0]:.2f}x")
PY
