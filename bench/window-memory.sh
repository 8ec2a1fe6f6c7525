#!/usr/bin/env bash
# The window's resident memory: java -jar target/fulcrum.jar (embedded default, its gentle traffic on, the Live tab)
# under Xvfb, once per set of JVM options given. Prints the time to the ready line, VmRSS 10 s after it (at rest) and
# the median of VmRSS sampled every second from then to 20 s after it (one sample swings by 30 MB with the collector's
# timing), and the most VmRSS reached while bench/FixedRate.java sends 1,000 requests a second through the proxy for
# 20 s (animating), sampled every second.
#
#   bench/window-memory.sh ["JVM OPTIONS"]...     e.g. bench/window-memory.sh "" "-XX:+UseSerialGC"
#
# DISPLAY=:N uses that X server, otherwise an Xvfb of its own on :97 (1280x800). NMT=1 adds -XX:NativeMemoryTracking
# and prints its summary at rest. JAVA=PATH runs another java, e.g. an installer image's own runtime
# (target/dist/Fulcrum/lib/runtime/bin/java, with JAR=target/dist/Fulcrum/lib/app/fulcrum.jar).
# Needs Xvfb, java 17, target/fulcrum.jar. Loopback only; stops by itself.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
needs Xvfb
if [ -z "${DISPLAY:-}" ]; then
  Xvfb :97 -screen 0 1280x800x24 > /dev/null 2>&1 & pids+=($!)
  export DISPLAY=:97
  for _ in $(seq 1 100); do [ -S /tmp/.X11-unix/X97 ] && break; sleep 0.05; done
  [ -S /tmp/.X11-unix/X97 ] || { echo "Xvfb :97 did not start"; exit 1; }
fi
javac -d "$WORK/client" "$ROOT/bench/FixedRate.java"
rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$1/status"; }
for opts in "${@:-}"; do
  rm -rf "$WORK/prefs"; mkdir -p "$WORK/prefs"
  nmt=""; [ -z "${NMT:-}" ] || nmt="-XX:NativeMemoryTracking=summary"
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  "${JAVA:-java}" $opts $nmt -Djava.util.prefs.userRoot="$WORK/prefs" -jar "$JAR" --proxy-port 19280 --admin-port 19281 \
    > "$WORK/window.out" 2>&1 &
  pid=$!; pids+=($pid)
  for _ in $(seq 1 300); do grep -q "fulcrum ready" "$WORK/window.out" && break; sleep 0.05; done
  grep -q "fulcrum ready" "$WORK/window.out" || { echo "the window did not start:"; cat "$WORK/window.out"; exit 1; }
  ready=$(( ($(date +%s%N) - start) / 1000000 ))
  sleep 10
  rest=$(rss $pid)
  [ -z "$nmt" ] || jcmd $pid VM.native_memory summary | grep -E "^-" | sed 's/(reserved=[0-9]*KB, //' | sort -t= -k2 -n -r | head -8
  samples=("$rest"); for _ in $(seq 1 10); do sleep 1; samples+=("$(rss $pid)"); done
  median=$(printf '%s\n' "${samples[@]}" | sort -n | sed -n 6p)
  java -cp "$WORK/client" FixedRate "http://127.0.0.1:19280/" 1000 20 20 > "$WORK/load.out" &
  load=$!
  peak=0
  while kill -0 $load 2>/dev/null; do r=$(rss $pid); [ "$r" -gt "$peak" ] && peak=$r; sleep 1; done
  echo "\"$opts\": ready ${ready} ms, at rest ${rest} MB (median to 20 s ${median} MB), animating 1,000 req/s at most ${peak} MB ($(tail -1 "$WORK/load.out"))"
  kill $pid; wait $pid 2>/dev/null || true
done
