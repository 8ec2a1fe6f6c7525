#!/usr/bin/env bash
# Memory and connection reuse at full load (the targets: heap under 256 MiB through a 10-minute run; new backend
# connections per request <= 0.01). Headless Fulcrum (-Xmx256m) in front of two nginx backends, wrk -t2 -c50
# for one minute at a time; after each minute: requests/s, the live heap (used after a full GC, jcmd), and
# backend connections opened per request (fulcrum_backend_connections_opened_total / fulcrum_requests_total).
#
#   bench/memory.sh [minutes=10]
#
# Needs: nginx, wrk, a JDK (jcmd), and target/fulcrum.jar. Loopback only; stops by itself.
set -euo pipefail
MINUTES=${1:-10}
B1=19901; B2=19902; FULCRUM=19990; ADMIN=19991
. "$(dirname "$0")/lib.sh"
needs wrk nginx jcmd curl
start_backends $B1 $B2
two_backend_config "$WORK/fulcrum.json" $FULCRUM $ADMIN $B1 $B2 "$WORK/access.log"
start_fulcrum "$WORK/fulcrum.json"
fpid=$FULCRUM_PID

live_mib() { jcmd "$fpid" GC.run > /dev/null; jcmd "$fpid" GC.heap_info | awk '/garbage-first heap/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub("K,?","",v); printf "%.1f", v/1024}}'; }
metric() { curl -s "http://127.0.0.1:$ADMIN/metrics" | awk -v m="$1" 'index($1, m)==1 && $1 !~ /_created/ {s+=$2} END {printf "%.0f", s}'; }

echo "| minute | requests/s | p99 ms | live heap after GC (MiB) | backend connections opened | requests | connections per request |"
echo "|---|---|---|---|---|---|---|"
echo "| 0 | | | $(live_mib) | $(metric fulcrum_backend_connections_opened_total) | $(metric fulcrum_requests_total) | |"
for m in $(seq 1 "$MINUTES"); do
  out=$(wrk -t2 -c50 -d${CHUNK:-60}s --latency "http://127.0.0.1:$FULCRUM/")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  opened=$(metric fulcrum_backend_connections_opened_total)
  requests=$(metric fulcrum_requests_total)
  echo "| $m | $rps | $p99 | $(live_mib) | $opened | $requests | $(python3 -c "print(f'{$opened/max(1,$requests):.5f}')") |"
done
echo "access log: $(wc -l < "$WORK/access.log") lines, $(du -m "$WORK/access.log" | cut -f1) MiB"
