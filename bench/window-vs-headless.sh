#!/usr/bin/env bash
# Proxy throughput with the window open (under Xvfb, on its first tab, Live, animating) against headless, on
# the same nginx backends. Each round starts a fresh Fulcrum in each mode (the order alternates from round to
# round, so a machine that speeds up or slows down over the run favours neither), warms it up under wrk for
# WARM seconds (then three 1 s runs and 5 s of rest), then measures RUNS runs of 10 s with wrk and keeps their
# median. At the end: every round's window/headless ratio, their median, and the ratio of the two modes' medians.
# The window's process takes about a minute to settle: the JIT compiles the proxy while JavaFX's code warms up
# beside it (WARM=10 measures that first minute; the default, 60, the window as it runs afterwards). On this
# 2-core machine one 10 s run swings by 15% from the next in either mode, so read the ratios of many rounds.
#
#   [WARM=60] [RUNS=3] [REST=0] [FULCRUM_JAVA_OPTS=...] [ACCESS_LOG=1] [PAIRED=1 [JAR_B=...]] bench/window-vs-headless.sh [rounds=6]
#
# ACCESS_LOG=1 has both modes write the access log to a file (in the work directory) instead of /dev/null. REST=S
# leaves each process at rest for S seconds after its start, before the warm-up: a window a trainer opened a minute
# before the load, whose stage has drawn at 60 frames a second meanwhile (the JIT has compiled its drawing code
# then; under load the stage draws 4 frames a second and its code reaches the compiler's thresholds slowly).
#
# PAIRED=1 measures the two modes side by side instead: each round starts both (on their own ports), warms each up
# while the other is stopped (SIGSTOP), then measures RUNS runs of each, alternating run by run, the idle one stopped
# and each run after 2 s and 1 s of wrk. The machine's drift (nginx itself moves 15% between minutes here) then falls
# on both modes alike: each round's ratio is the median of its window runs over the median of its headless runs.
# JAR_B=PATH (with PAIRED=1) puts a window of that build in headless's slot: the rounds then read JAR's window over
# JAR_B's, an A/B of a change to the window.
#
# Needs: nginx, wrk, xvfb-run (Debian xvfb), libgtk-3-0, and target/fulcrum.jar.
set -euo pipefail
ROUNDS=${1:-6}
WARM=${WARM:-60}
RUNS=${RUNS:-3}
B1=19301; B2=19302; PROXY=19390; ADMIN=19391
. "$(dirname "$0")/lib.sh"
needs wrk nginx xvfb-run curl
# a stopped process (PAIRED) takes its SIGTERM only once continued
trap 'pkill -CONT -f "^java .*$WORK/[fh].json" 2>/dev/null || true; pkill -f "^java .*$WORK/[fh].json" 2>/dev/null || true
  cleanup' EXIT
start_backends $B1 $B2
two_backend_config "$WORK/f.json" $PROXY $ADMIN $B1 $B2 "$([ -n "${ACCESS_LOG:-}" ] && echo "$WORK/access.log" || echo /dev/null)"

measure() { # round mode -> appends "round mode rps p99" (the medians of its runs)
  local round=$1 mode=$2 p
  # shellcheck disable=SC2086 # FULCRUM_JAVA_OPTS is a list of options
  if [ "$mode" = window ]; then
    xvfb-run -a -s "-screen 0 1400x900x24" java -Xmx256m ${FULCRUM_JAVA_OPTS:-} -jar "$JAR" --config "$WORK/f.json" \
      > /dev/null 2>&1 &
  else
    java -Xmx256m ${FULCRUM_JAVA_OPTS:-} -jar "$JAR" --headless --config "$WORK/f.json" > /dev/null 2>&1 &
  fi
  p=$!
  for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$ADMIN/api/state" && break; sleep 0.5; done
  sleep $((5 + ${REST:-0}))   # the window's views start sampling; then the rest asked for
  wrk -t2 -c50 -d"${WARM}s" "http://127.0.0.1:$PROXY/" > /dev/null
  settle_jit "http://127.0.0.1:$PROXY/"
  : > "$WORK/runs"
  for _ in $(seq 1 "$RUNS"); do
    local out; out=$(wrk -t2 -c50 -d10s --latency "http://127.0.0.1:$PROXY/")
    echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}') $(p99_ms "$out")" >> "$WORK/runs"
  done
  local med; med=$(sort -n "$WORK/runs" | awk '{r[NR]=$1; q[NR]=$2} END {m=int((NR+1)/2); print r[m], q[m]}')
  echo "round $round $mode: $(tr '\n' ' ' < "$WORK/runs" | awk '{for (i=1;i<=NF;i+=2) printf "%s ", $i}')req/s, median ${med% *}" >&2
  echo "$round $mode $med" >> "$WORK/results"
  pkill -f "^java .*$WORK/f.json" || true   # java only: xvfb-run, whose arguments name the file too, then stops its Xvfb
  wait "$p" 2>/dev/null || true
  sleep 1
}
# start MODE CONFIG -> the java process's pid, once its admin API answers
start() {
  local port; port=$(sed -n 's/.*"admin": { "port": \([0-9]*\).*/\1/p' "$2")
  # shellcheck disable=SC2086 # FULCRUM_JAVA_OPTS is a list of options
  if [ "$1" = window ] || [ -n "${JAR_B:-}" ]; then
    local jar=$JAR; [ "$1" = window ] || jar=$JAR_B
    xvfb-run -a -s "-screen 0 1400x900x24" java -Xmx256m ${FULCRUM_JAVA_OPTS:-} -jar "$jar" --config "$2" \
      > /dev/null 2>&1 &
  else
    java -Xmx256m ${FULCRUM_JAVA_OPTS:-} -jar "$JAR" --headless --config "$2" > /dev/null 2>&1 &
  fi
  for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$port/api/state" && break; sleep 0.5; done
  pgrep -f "^java .*$2"
}
paired() { # round -> appends "round mode rps p99" for each mode (the medians of its runs)
  local round=$1 hp wp
  hp=$(start headless "$WORK/h.json"); kill -STOP "$hp"
  wp=$(start window "$WORK/f.json")
  sleep $((5 + ${REST:-0}))
  wrk -t2 -c50 -d"${WARM}s" "http://127.0.0.1:$PROXY/" > /dev/null; settle_jit "http://127.0.0.1:$PROXY/"
  kill -STOP "$wp"; kill -CONT "$hp"
  wrk -t2 -c50 -d"${WARM}s" "http://127.0.0.1:$PROXY_H/" > /dev/null; settle_jit "http://127.0.0.1:$PROXY_H/"
  : > "$WORK/runs.window"; : > "$WORK/runs.headless"
  for i in $(seq 1 "$RUNS"); do
    for mode in $([ $(((round + i) % 2)) = 1 ] && echo "window headless" || echo "headless window"); do
      local run=$wp stop=$hp port=$PROXY out
      [ "$mode" = headless ] && run=$hp && stop=$wp && port=$PROXY_H
      kill -STOP "$stop"; kill -CONT "$run"; sleep 2
      wrk -t2 -c50 -d1s "http://127.0.0.1:$port/" > /dev/null
      out=$(wrk -t2 -c50 -d10s --latency "http://127.0.0.1:$port/")
      echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}') $(p99_ms "$out")" >> "$WORK/runs.$mode"
    done
  done
  kill -CONT "$hp" "$wp"
  for mode in headless window; do
    local med; med=$(sort -n "$WORK/runs.$mode" | awk '{r[NR]=$1; q[NR]=$2} END {m=int((NR+1)/2); print r[m], q[m]}')
    echo "round $round $mode: $(awk '{printf "%s ", $1}' "$WORK/runs.$mode")req/s, median ${med% *}" >&2
    echo "$round $mode $med" >> "$WORK/results"
  done
  pkill -f "^java .*$WORK/[fh].json" || true
  while pgrep -f "^java .*$WORK/[fh].json" > /dev/null; do sleep 0.2; done   # not children: started in $(...)
  sleep 1
}
if [ -n "${PAIRED:-}" ]; then
  PROXY_H=19392
  two_backend_config "$WORK/h.json" $PROXY_H 19393 $B1 $B2 \
    "$([ -n "${ACCESS_LOG:-}" ] && echo "$WORK/access-h.log" || echo /dev/null)"
  for r in $(seq 1 "$ROUNDS"); do paired "$r"; done
else
  for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then measure "$r" headless; measure "$r" window; else measure "$r" window; measure "$r" headless; fi
  done
fi
python3 - "$WORK/results" <<'PY'
import sys, statistics
rounds = {}
for line in open(sys.argv[1]):
    r, m, rps, p99 = line.split(); rounds.setdefault(r, {})[m] = (float(rps), float(p99))
ratios = [v["window"][0] / v["headless"][0] for v in rounds.values()]
print("| mode | requests/s (median of rounds) | p99 ms |\n|---|---|---|")
for m in ("headless", "window"):
    print(f"| {m} | {statistics.median(v[m][0] for v in rounds.values()):,.0f} "
          f"| {statistics.median(v[m][1] for v in rounds.values()):.2f} |")
print("rounds, window / headless: " + " ".join(f"{x:.2f}" for x in ratios))
print(f"median of the rounds' ratios: {statistics.median(ratios):.2f}x; ratio of the medians: "
      f"{statistics.median(v['window'][0] for v in rounds.values()) / statistics.median(v['headless'][0] for v in rounds.values()):.2f}x")
PY
