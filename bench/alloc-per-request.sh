#!/usr/bin/env bash
# Bytes the proxy allocates per request: headless Fulcrum (round robin over three nginx backends) under
# wrk -t1 -c50, warmed for WARMUP seconds (default 20) and settled (lib.sh's settle_jit), then a JFR recording around
# a SECS-second run (default 10) whose jdk.ThreadAllocationStatistics events give each thread's allocated bytes at its
# start and its end; the sum of the differences over wrk's request count. JFR's default settings only, so the figure
# is the proxy's own.
#
#   bench/alloc-per-request.sh [JAR=target/fulcrum.jar]...   (one line per jar, measured one after the other)
#
# The word undertow-hello in place of a jar measures bench/UndertowHello.java instead: Undertow answering every
# request by itself, no backend, the least an Undertow HTTP/1.1 listener allocates per request.
#
# PROXY_EXTRA adds fields to the proxy object (e.g. ', "recentRequests": 0'). Needs nginx, wrk, java 17 (jfr, jcmd).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
needs wrk nginx jfr jcmd
B1=19101; B2=19102; B3=19103; PORT=19190; ADMIN=19191
start_backends $B1 $B2 $B3
MORE_BACKENDS=$B3 two_backend_config "$WORK/fulcrum.json" $PORT $ADMIN $B1 $B2 /dev/null "${PROXY_EXTRA:-}"
HELLO=19196
for jar in "${@:-$JAR}"; do
  url="http://127.0.0.1:$PORT/"
  if [ "$jar" = undertow-hello ]; then
    start_undertow_hello $HELLO
    FULCRUM_PID=$HELLO_PID; url="http://127.0.0.1:$HELLO/"
  else
    start_fulcrum "$WORK/fulcrum.json" "$jar" fulcrum
  fi
  wrk -t1 -c50 -d"${WARMUP:-20}s" "$url" > /dev/null
  settle_jit "$url"
  jcmd "$FULCRUM_PID" JFR.start name=alloc settings=default > /dev/null
  n=$(wrk -t1 -c50 -d"${SECS:-10}s" "$url" | awk '/requests in/ {print $1}')
  jcmd "$FULCRUM_PID" JFR.dump name=alloc filename="$WORK/alloc.jfr" > /dev/null
  kill "$FULCRUM_PID"; wait "$FULCRUM_PID" 2>/dev/null || true
  jfr print --json --events jdk.ThreadAllocationStatistics "$WORK/alloc.jfr" | python3 -c "
import json, sys
first, last = {}, {}
for e in json.load(sys.stdin)['recording']['events']:
    v = e['values']
    t = v['thread']['javaThreadId'] if v['thread'] else 0
    first[t] = min(first.get(t, v['allocated']), v['allocated']); last[t] = max(last.get(t, 0), v['allocated'])
total = sum(last[t] - first[t] for t in last)
print(f'$jar: {$n} requests, {total / $n:,.0f} bytes allocated per request')"
done
