#!/usr/bin/env bash
# The Live stage's frame times at workshop rates: the window under Xvfb (software rendering) on the Live tab, twelve
# backends, an open-loop load of RATE requests a second (bench/FixedRate.java) for SECS seconds; the stage logs its
# frame gaps and draw times every 10 s (-Dfulcrum.frameLog=true, ui/live/FrameTimes.java) and this prints those lines.
# At 1,000 req/s the stage draws at most 200 dots a second (LiveModel's budget), one dot then standing for five
# requests.
#
#   bench/stage-frames.sh [rate=1000] [seconds=60] [screen=1280x800]
#
# Needs: nginx, xvfb-run (Debian xvfb), curl, java 17 and target/fulcrum.jar.
set -euo pipefail
RATE=${1:-1000}
SECS=${2:-60}
SCREEN=${3:-1280x800}
PROXY=19490; ADMIN=19491
. "$(dirname "$0")/lib.sh"
needs nginx xvfb-run curl
trap 'pkill -f "^java .*$WORK/f.json" 2>/dev/null || true; cleanup' EXIT
ports=(); for i in $(seq 1 12); do ports+=($((19400 + i))); done
start_backends "${ports[@]}"
{
  echo "{ \"proxy\": { \"port\": $PROXY, \"accessLog\": \"/dev/null\" }, \"admin\": { \"port\": $ADMIN },"
  echo "  \"strategy\": { \"type\": \"round-robin\" }, \"backends\": ["
  for i in $(seq 1 12); do
    sep=","; [ "$i" = 12 ] && sep=""
    echo "    { \"id\": \"node-$i\", \"url\": \"http://127.0.0.1:${ports[$((i - 1))]}\" }$sep"
  done
  echo "] }"
} > "$WORK/f.json"
xvfb-run -a -s "-screen 0 ${SCREEN}x24" java -Xmx256m -Dfulcrum.frameLog=true -jar "$JAR" --config "$WORK/f.json" \
  > /dev/null 2> "$WORK/window.log" & pids+=($!)
for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$ADMIN/api/state" && break; sleep 0.5; done
sleep 5   # the window is up and on its first tab, Live
java "$ROOT/bench/FixedRate.java" "http://127.0.0.1:$PROXY/" "$RATE" 20 "$SECS" > "$WORK/load.txt"
echo "load: p50 p99 p999 max ms, requests, failures: $(cat "$WORK/load.txt")"
echo "(the first 10 s window includes the window's JIT warm-up)"
echo "rate $RATE req/s, 12 backends, screen $SCREEN, Xvfb software rendering:"
grep -o 'stage: .*' "$WORK/window.log" || { echo "no frame log:"; tail -20 "$WORK/window.log"; exit 1; }
