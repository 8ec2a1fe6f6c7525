#!/usr/bin/env bash
# What one proxied request costs the proxy process, beside nginx on the same two backends: system calls per
# request (strace -c over a wrk run) and CPU time per request, user and system (/proc/PID/stat ticks around
# a wrk run). The floor for a proxy is two reads and two writes per request plus a share of epoll_wait.
#
#   bench/syscalls.sh [connections=20]
#
# Needs: nginx, wrk, strace (Debian packages), and target/fulcrum.jar. Loopback only; stops by itself.
set -euo pipefail
CONNS=${1:-20}
B1=19101; B2=19102; NGINX=19180; FULCRUM=19190; ADMIN=19191
. "$(dirname "$0")/lib.sh"
needs wrk nginx strace
start_backends $B1 $B2
start_nginx_proxy $NGINX $B1 $B2
two_backend_config "$WORK/fulcrum.json" $FULCRUM $ADMIN $B1 $B2
start_fulcrum "$WORK/fulcrum.json"
wrk -t2 -c50 -d8s "http://127.0.0.1:$FULCRUM/" > /dev/null
wrk -t2 -c50 -d2s "http://127.0.0.1:$NGINX/" > /dev/null
NGINX_WORKERS=$(pgrep -P "$(cat "$WORK/proxy/nginx.pid")" | tr '\n' ' ')

syscalls() { # name port pid...
  local name=$1 port=$2; shift 2
  local args=() n
  for p in "$@"; do args+=(-p "$p"); done
  timeout 12 strace -c -f "${args[@]}" -o "$WORK/strace.$name" 2> /dev/null & local sp=$!
  sleep 1
  n=$(wrk -t2 -c"$CONNS" -d5s "http://127.0.0.1:$port/" | awk '/requests in/ {print $1}')
  sleep 0.5; kill -INT $sp 2> /dev/null; wait $sp 2> /dev/null || true
  echo "$name: system calls per request under strace ($n requests)"
  awk -v n="$n" 'NR > 2 && $4 ~ /^[0-9]+$/ && $4 > n / 20 {printf "  %-12s %6.2f\n", $NF, $4 / n}' "$WORK/strace.$name"
}
ticks() { # pid... -> TU, TS: user and system clock ticks (1/100 s) so far
  local u s
  TU=0; TS=0
  for p in "$@"; do read -r u s < <(awk '{print $14, $15}' "/proc/$p/stat"); TU=$((TU + u)); TS=$((TS + s)); done
}
cpu() { # name port pid...
  local name=$1 port=$2; shift 2
  ticks "$@"; local u0=$TU s0=$TS
  local n; n=$(wrk -t2 -c50 -d10s "http://127.0.0.1:$port/" | awk '/requests in/ {print $1}')
  ticks "$@"
  python3 -c "print(f'$name: CPU per request at full load (wrk -c50, $n requests): {($TU-$u0)*1e4/$n:.2f} us user, {($TS-$s0)*1e4/$n:.2f} us system')"
}
syscalls fulcrum $FULCRUM "$FULCRUM_PID"
syscalls nginx $NGINX $NGINX_WORKERS
cpu fulcrum $FULCRUM "$FULCRUM_PID"
cpu nginx $NGINX $NGINX_WORKERS
